"""The ladder's settings on a running server: the pools of the ``GAMUT_LADDER`` file."""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from dataclasses import replace
from pathlib import Path
from typing import Final

from gamut_server.ladder.pools import LadderSettings, load_pools

LADDER_ENV: Final = "GAMUT_LADDER"
"""The environment variable naming a JSON file of pools to offer instead of the defaults."""


def settings_from_env(env: Mapping[str, str] | None = None) -> LadderSettings:
    """The ladder's settings: the pools of the ``GAMUT_LADDER`` file, else the defaults.

    The file holds ``{"pools": [...]}`` (see :func:`gamut_server.ladder.pools.load_pools`)
    and may also set ``grace_ms``, ``tick_ms`` and ``seed``.
    """
    env = os.environ if env is None else env
    path = env.get(LADDER_ENV)
    if not path:
        return LadderSettings()
    data = json.loads(Path(path).read_text())
    defaults = LadderSettings(pools=load_pools(path))
    if not isinstance(data, dict):
        return defaults
    return replace(
        defaults,
        grace_ms=int(data.get("grace_ms", defaults.grace_ms)),
        tick_ms=int(data.get("tick_ms", defaults.tick_ms)),
        seed=data.get("seed"),
    )

"""The AI's levels are the same everywhere they are offered: the engine's eight levels,
the protocol's limit, the server's worker and ladder anchors, both clients and the
README."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from pydantic import ValidationError

from gamut_engine.search import LEVELS
from gamut_protocol.common import MAX_AI_LEVEL
from gamut_protocol.lobby import AiOpponent
from gamut_server.ladder.pools import PoolConfigError, make_pool

ROOT = Path(__file__).resolve().parents[1]


def test_the_protocol_offers_exactly_the_engines_levels() -> None:
    assert [level.number for level in LEVELS] == list(range(1, MAX_AI_LEVEL + 1))
    assert AiOpponent(level=MAX_AI_LEVEL).level == MAX_AI_LEVEL
    for outside in (0, MAX_AI_LEVEL + 1):
        with pytest.raises(ValidationError):
            AiOpponent(level=outside)


def test_the_ladder_anchors_are_levels_the_engine_has() -> None:
    pool = make_pool("network-test", "network", anchors=(1, MAX_AI_LEVEL))
    assert pool.anchor_names() == ("ai-1", f"ai-{MAX_AI_LEVEL}")
    with pytest.raises(PoolConfigError):
        make_pool("network-test", "network", anchors=(MAX_AI_LEVEL + 1,))


def test_the_browser_and_the_readme_offer_the_same_levels() -> None:
    form = (ROOT / "server/gamut_server/web/js/seekform.js").read_text()
    assert re.search(rf'name: "level", type: "number", min: 1, max: {MAX_AI_LEVEL}\b', form)
    assert f"AI level (1-{MAX_AI_LEVEL})" in form
    readme = (ROOT / "README.md").read_text()
    assert f"level from 1 to {MAX_AI_LEVEL}" in readme

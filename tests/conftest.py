"""Settings for the whole test run."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest


@pytest.fixture(scope="session", autouse=True)
def private_config_folder(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """``XDG_CONFIG_HOME`` in a temporary folder for the whole run, before any other
    fixture, so that no test, and no command a test starts, saves anything (such as
    ``gamut play``'s and ``gamut bot``'s guest tokens) in the real home's configuration."""
    folder = tmp_path_factory.mktemp("config")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("XDG_CONFIG_HOME", str(folder))
        yield folder

"""Browser tests: Debian's Chromium driven by Playwright against a real ``gamut serve``.

They skip, with the reason, where Chromium or Playwright is missing, except under CI
(``CI=true``), where they must run.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import AsyncIterator

import pytest

from tests.web.pages import Browser, launch


def _chromium() -> str:
    """The Chromium to drive, or a skip (a failure under CI) saying why there is none."""
    path = shutil.which("chromium")
    reason = ""
    if path is None:
        reason = "Chromium is not installed (apt-get install chromium)"
    else:
        try:
            import playwright  # noqa: F401
        except ImportError:
            reason = "Playwright is not installed (pip install -e '.[dev]')"
    if reason and os.environ.get("CI") == "true":
        pytest.fail(f"{reason}; CI=true requires the browser tests to run")
    if reason:
        pytest.skip(reason)
    assert path is not None
    return path


@pytest.fixture
async def browser() -> AsyncIterator[Browser]:
    """A headless Chromium for the test."""
    async with launch(_chromium()) as running:
        yield running

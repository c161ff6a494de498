"""The server's sockets under uvloop, the event loop ``gamut serve`` runs by default.

uvloop's transports have asyncio's methods but are not instances of asyncio's transport
classes, so nothing may depend on those classes: a client dropped for not reading must
have its TCP connection cut there too.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.server.test_server_connection import (
    test_a_client_that_never_reads_is_dropped_not_waited_for as dropped_and_cut,
)

uvloop = pytest.importorskip("uvloop")


def test_a_client_dropped_for_not_reading_is_cut_under_uvloop(tmp_path: Path) -> None:
    uvloop.run(dropped_and_cut(tmp_path))

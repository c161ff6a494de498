"""The server's sockets under uvloop, the event loop ``gamut serve`` runs by default.

uvloop's transports have asyncio's methods but are not instances of asyncio's transport
classes, so nothing may depend on those classes: a client dropped for not reading must
have its TCP connection cut there too; a socket refused as it is accepted must be
answered, and its request never read, there too.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.server.hostile.test_refused_at_accept import (
    test_a_cut_off_address_is_refused_at_accept_whatever_it_asks as cut_off_at_accept,
)
from tests.server.hostile.test_refused_at_accept import (
    test_a_refused_client_that_hangs_up_first_leaves_nothing_logged as hung_up_first,
)
from tests.server.hostile.test_refused_at_accept import (
    test_an_address_with_its_most_connections_open_is_refused_at_accept as full_at_accept,
)
from tests.server.test_server_connection import (
    test_a_client_that_never_reads_is_dropped_not_waited_for as dropped_and_cut,
)

uvloop = pytest.importorskip("uvloop")


def test_a_client_dropped_for_not_reading_is_cut_under_uvloop(tmp_path: Path) -> None:
    uvloop.run(dropped_and_cut(tmp_path))


def test_a_cut_off_address_is_refused_at_accept_under_uvloop(tmp_path: Path) -> None:
    uvloop.run(cut_off_at_accept(tmp_path))


def test_a_full_address_is_refused_at_accept_under_uvloop(tmp_path: Path) -> None:
    uvloop.run(full_at_accept(tmp_path))


def test_a_refused_client_that_hangs_up_first_leaves_nothing_logged_under_uvloop(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    uvloop.run(hung_up_first(tmp_path, caplog))

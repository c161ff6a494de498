"""Private services a fault test may stop and start: a PostgreSQL instance of its own
(``initdb`` and ``pg_ctl``, run as the ``postgres`` user when the tests run as root) and
a Redis of its own, each on a free loopback port, never the shared ones.

Without the programs the tests are skipped, except under ``CI=true``, where they fail.
"""

from __future__ import annotations

import contextlib
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import NoReturn

import pytest

INITDB = os.environ.get("GAMUT_TEST_INITDB", "/usr/local/bin/initdb")
PG_CTL = os.environ.get("GAMUT_TEST_PG_CTL", "/usr/local/bin/pg_ctl")
REDIS_SERVER = os.environ.get("GAMUT_TEST_REDIS_SERVER", "/usr/bin/redis-server")

START_WAIT_S = 60.0
"""Seconds a service has to start (never reached when all is well)."""


def missing(reason: str) -> NoReturn:
    """Skip the test for a missing program, or fail it when running in CI."""
    if os.environ.get("CI") == "true":
        pytest.fail(f"{reason} (CI=true requires it)")
    pytest.skip(reason)


def free_port() -> int:
    """A loopback port nobody listens on now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def wait_for_port(port: int, process: subprocess.Popen[bytes] | None = None) -> None:
    """Wait until something accepts connections on ``port``."""
    deadline = time.monotonic() + START_WAIT_S
    while True:
        with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), 1):
            return
        if process is not None and process.poll() is not None:
            raise RuntimeError(f"the service on port {port} ended with {process.returncode}")
        if time.monotonic() > deadline:
            raise TimeoutError(f"nothing listens on port {port}")
        time.sleep(0.05)


class PrivatePostgres:
    """A PostgreSQL cluster in a folder of its own, on a free port, trusting local users."""

    def __init__(self, folder: Path) -> None:
        """A cluster to be made in ``folder`` (see :meth:`create`)."""
        self.folder = folder
        self.data = folder / "data"
        self.port = free_port()
        self.url = f"postgresql://postgres@127.0.0.1:{self.port}/postgres"
        """Its URL, as ``--db`` takes it."""
        self._user = _postgres_user()

    def create(self) -> None:
        """Make the cluster's files and start it."""
        self.folder.mkdir(parents=True, exist_ok=True)
        if self._user is not None:
            os.chown(self.folder, self._user.pw_uid, self._user.pw_gid)
        self._run(INITDB, "-D", str(self.data), "-A", "trust", "-U", "postgres", "--no-sync")
        self.start()

    def start(self) -> None:
        """Start the server and wait until it takes connections."""
        self._run(PG_CTL, *self._server_options(), "-w", "start")
        wait_for_port(self.port)

    def stop(self, mode: str = "fast") -> None:
        """Stop the server (``fast``: its sessions are ended, as in a restart)."""
        self._run(PG_CTL, "-D", str(self.data), "-m", mode, "-w", "stop")

    def restart(self) -> None:
        """``pg_ctl -m fast restart``: every session ended, the server back a moment later."""
        self._run(PG_CTL, *self._server_options(), "-m", "fast", "-w", "restart")
        wait_for_port(self.port)

    def _server_options(self) -> list[str]:
        """The data folder, port, socket folder and log of every start."""
        options = f"-p {self.port} -k {self.folder} -c listen_addresses=127.0.0.1 -c fsync=off"
        log = str(self.folder / "postgres.log")
        return ["-D", str(self.data), "-o", options, "-l", log]

    def _run(self, *command: str) -> None:
        """Run a PostgreSQL program as its user (the server it starts keeps no pipe of ours)."""
        prefix = [] if self._user is None else ["runuser", "-u", self._user.pw_name, "--"]
        quiet = subprocess.DEVNULL
        subprocess.run([*prefix, *command], check=True, stdout=quiet, stderr=quiet)


def _postgres_user() -> pwd.struct_passwd | None:
    """The user PostgreSQL's programs run as: ``postgres`` when the tests run as root."""
    if os.geteuid() != 0:
        return None
    try:
        return pwd.getpwnam("postgres")
    except KeyError:
        missing("PostgreSQL will not run as root and there is no postgres user")


@contextlib.contextmanager
def private_postgres() -> Iterator[PrivatePostgres]:
    """A private PostgreSQL for the block, in a folder of its own under the system's
    temporary folder (which its user can reach), removed afterwards."""
    for program in (INITDB, PG_CTL):
        if not Path(program).exists():
            missing(f"{program} is not installed")
    folder = Path(tempfile.mkdtemp(prefix="gamut-faults-postgres-"))
    server = PrivatePostgres(folder)
    server.create()
    try:
        yield server
    finally:
        with contextlib.suppress(subprocess.CalledProcessError):
            server.stop("immediate")
        shutil.rmtree(folder, ignore_errors=True)


class PrivateRedis:
    """A Redis of its own on a free port, keeping nothing on disk: a restart empties it."""

    def __init__(self, folder: Path) -> None:
        """A Redis to be started in ``folder``."""
        self.folder = folder
        self.port = free_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"
        """Its URL, as ``--redis`` takes it."""
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        """Start it and wait until it takes connections."""
        self.folder.mkdir(parents=True, exist_ok=True)
        log = (self.folder / "redis.log").open("ab")
        command = [REDIS_SERVER, "--port", str(self.port), "--bind", "127.0.0.1"]
        command += ["--save", "", "--appendonly", "no", "--dir", str(self.folder)]
        self.process = subprocess.Popen(command, stdout=log, stderr=log)
        log.close()
        wait_for_port(self.port, self.process)

    def kill(self) -> None:
        """End it at once (SIGKILL), as a crash would."""
        if self.process is not None:
            self.process.kill()
            self.process.wait()
            self.process = None


@contextlib.contextmanager
def private_redis(folder: Path) -> Iterator[PrivateRedis]:
    """A private Redis for the block."""
    if not Path(REDIS_SERVER).exists():
        missing(f"{REDIS_SERVER} is not installed")
    server = PrivateRedis(folder)
    server.start()
    try:
        yield server
    finally:
        server.kill()

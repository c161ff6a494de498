"""Where the CPU went during a window of the cluster benchmark, read from ``/proc``.

The processes are sorted into the Gamut servers the benchmark started, Redis (every
``redis-server`` process), PostgreSQL (the backends serving the benchmark's databases,
and the server's shared background processes: writers, checkpointer, autovacuum), and
this process, the load generator. The rest of the machine is whatever else the cores
did meanwhile (other work, the kernel's own threads), from ``/proc/stat``.
"""

from __future__ import annotations

import os
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

TICK = os.sysconf("SC_CLK_TCK")
"""Clock ticks a second, the unit of ``/proc``'s CPU times."""

Times = dict[int, float]
"""CPU seconds used so far, by process id."""


def process_cpu(pid: int) -> float:
    """The CPU seconds (user and system) process ``pid`` has used; 0 once it is gone."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return 0.0
    fields = text.rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICK


def run_queue_wait(pid: int) -> float:
    """Seconds the threads of process ``pid`` have spent ready to run but waiting for a
    core (``/proc/PID/task/*/schedstat``); 0 once it is gone."""
    total = 0
    try:
        tasks = os.listdir(f"/proc/{pid}/task")
    except OSError:
        return 0.0
    for task in tasks:
        try:
            total += int(Path(f"/proc/{pid}/task/{task}/schedstat").read_text().split()[1])
        except (OSError, IndexError, ValueError):
            continue
    return total / 1e9


def machine_busy() -> float:
    """Core-seconds the whole machine has spent outside idle and I/O wait since boot."""
    fields = [int(value) for value in Path("/proc/stat").read_text().split("\n")[0].split()[1:]]
    idle = fields[3] + fields[4]
    return (sum(fields[:8]) - idle) / TICK


def _processes() -> Iterator[tuple[int, str]]:
    """Every process's id and command line (arguments joined by spaces)."""
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit():
            continue
        try:
            raw = Path(entry.path, "cmdline").read_bytes()
        except OSError:
            continue
        yield int(entry.name), raw.replace(b"\0", b" ").decode(errors="replace").strip()


def _is_postgres_of(command: str, databases: Sequence[str]) -> bool:
    """Whether ``command`` is a PostgreSQL backend of one of ``databases`` or one of the
    server's background processes (a backend's title names its client as ``host(port)``)."""
    if not command.startswith("postgres:"):
        return False
    words = command.split()
    return any(name in words for name in databases) or "(" not in command


@dataclass(frozen=True)
class Sample:
    """The CPU seconds used so far by each watched process, and by the machine."""

    servers: Times
    waiting: Times
    redis: Times
    postgres: Times
    loadgen: float
    machine: float


@dataclass(frozen=True)
class Usage:
    """Core-seconds spent between two samples, by whom."""

    NAMES = ("servers", "redis", "postgres", "loadgen", "rest")
    """The shares, in the table's order."""

    servers: float
    waiting: float
    """Seconds the servers' threads were ready to run but had no core."""
    redis: float
    postgres: float
    loadgen: float
    machine: float

    def shares(self) -> dict[str, float]:
        """Each share, the rest of the machine last."""
        ours = self.servers + self.redis + self.postgres + self.loadgen
        return {
            "servers": self.servers,
            "redis": self.redis,
            "postgres": self.postgres,
            "loadgen": self.loadgen,
            "rest": max(0.0, self.machine - ours),
        }


def _spent(after: Times, before: Times) -> float:
    """CPU seconds the processes of ``after`` used since ``before`` (a process not there
    before started since, so all of its time counts)."""
    return sum(value - before.get(pid, 0.0) for pid, value in after.items())


@dataclass(frozen=True)
class Watched:
    """The processes whose CPU one run of the benchmark reads."""

    server_pids: tuple[int, ...]
    databases: tuple[str, ...]

    @classmethod
    def of(cls, server_pids: Sequence[int], database_urls: Sequence[str]) -> Watched:
        """The servers ``server_pids`` and the PostgreSQL databases of ``database_urls``."""
        names = tuple(url.rsplit("/", 1)[-1].split("?")[0] for url in database_urls)
        return cls(tuple(server_pids), names)

    def sample(self) -> Sample:
        """What every watched process has used so far."""
        redis: Times = {}
        postgres: Times = {}
        for pid, command in _processes():
            if command.startswith("redis-server"):
                redis[pid] = process_cpu(pid)
            elif _is_postgres_of(command, self.databases):
                postgres[pid] = process_cpu(pid)
        servers = {pid: process_cpu(pid) for pid in self.server_pids}
        waiting = {pid: run_queue_wait(pid) for pid in self.server_pids}
        return Sample(servers, waiting, redis, postgres, time.process_time(), machine_busy())

    @staticmethod
    def between(before: Sample, after: Sample) -> Usage:
        """What was spent from ``before`` to ``after``."""
        return Usage(
            servers=_spent(after.servers, before.servers),
            waiting=_spent(after.waiting, before.waiting),
            redis=_spent(after.redis, before.redis),
            postgres=_spent(after.postgres, before.postgres),
            loadgen=after.loadgen - before.loadgen,
            machine=after.machine - before.machine,
        )

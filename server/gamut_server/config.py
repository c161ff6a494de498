"""The server's settings: where it listens, which database it uses, and its limits.

Every setting has a default; :meth:`ServerConfig.from_env` reads the ``GAMUT_*``
environment variables over them, and the command line overrides both.
"""

from __future__ import annotations

import os
import socket
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any, Final

from gamut_server.analyses.rules import AnalysisRules
from gamut_server.edge.addresses import DEFAULT_ADDRESS_RULES, AddressRules
from gamut_server.people.hashing import DEFAULT_WAITING, DEFAULT_WORKERS
from gamut_server.people.throttle import PASSWORD_FAILURE_RATE
from gamut_server.rooms.limits import (
    ANSWER_RATE,
    CHALLENGE_RATE,
    CHAT_RATE,
    MESSAGE_RATE,
    STRIKE_RATE,
    Rate,
)

DEFAULT_HOST: Final = "127.0.0.1"
"""The address served by default: loopback only."""

DEFAULT_PORT: Final = 8080
"""The TCP port served by default."""

SERVER_NAME: Final = "gamut-server 0.1"
"""How the server names itself in ``welcome`` and ``/health``."""

UNTIMED_GRACE_MS: Final = 72 * 3_600_000
"""How long a player of an untimed game may be away before the opponent wins: 72 hours."""

UNTIMED_AI_GRACE_MS: Final = 3_600_000
"""How long the player of an untimed game against the server's AI may be away before the
AI wins: an hour, since the AI waits for nobody."""

CONNECTION_RATES: Final = ("messages", "chat", "strikes", "answers")
"""The ``--limit`` names of the per-connection rates."""

ACCOUNT_RATES: Final = ("password_failures", "challenges")
"""The ``--limit`` names of the rates per account or player name: wrong passwords, and
challenges received."""

ADDRESS_COUNTS: Final = ("connections", "unwelcomed", "unfinished", "cut_off")
"""The ``--limit`` names of the per-address counts."""

ADDRESS_RATES: Final = (
    "opening", "registrations", "sign_ins", "lobby_chat", "seeks", "reports", "refused"
)  # fmt: skip
"""The ``--limit`` names of the per-address rates."""

DEFAULT_ANALYSIS_RULES: Final = AnalysisRules()
"""How a server analyses finished games unless told otherwise."""

ANALYSIS_RATES: Final = {"analyses": "per_address", "account_analyses": "per_account"}
"""The ``--limit`` names of the rates of new analyses, per address and per account."""


@dataclass(frozen=True, slots=True)
class ClusterSettings:
    """How one node joins a cluster of Gamut servers sharing one Redis and one database."""

    redis: str
    """The Redis URL every node of the cluster uses (``redis://127.0.0.1:6379``)."""
    node: str
    """This node's name, for logs and ``/health`` (unique among the live nodes)."""
    name: str = "gamut"
    """The cluster's name: every Redis key and channel starts with it, so clusters can
    share one Redis."""
    heartbeat_s: float = 1.0
    """Seconds between a node's heartbeats (its lease, the lobby's lease, the checks)."""
    lease_s: float = 4.0
    """Seconds without a heartbeat after which a node counts as dead and its rooms are
    taken over."""


@dataclass(frozen=True, slots=True)
class ServerConfig:
    """Everything the server can be told; frozen, so one value describes a running server."""

    host: str = DEFAULT_HOST
    """The address to listen on."""
    port: int = DEFAULT_PORT
    """The TCP port to listen on; 0 picks a free one."""
    db: str | None = None
    """The storage URL (see ``gamut_server.storage.database_url``); ``None``: ``gamut.sqlite3``."""
    migrate: bool = True
    """Whether to upgrade an older database's tables at start (else refuse to start)."""
    grace_ms: int = 60_000
    """How long a dropped player has to come back before the opponent may claim the game."""
    queue_size: int = 256
    """Most messages waiting for one connection's writer; a client that falls further
    behind is dropped."""
    send_timeout: float = 10.0
    """Seconds one frame may take to leave; a client that stalls longer is dropped."""
    heartbeat: float = 30.0
    """Seconds between WebSocket pings; a client that misses the pong is dropped."""
    hello_timeout: float = 10.0
    """Seconds a new connection has to send its ``hello``."""
    head_timeout: float = 10.0
    """Seconds a socket has to finish a request's head, from its opening or its last
    answer; a socket that takes longer is closed."""
    messages: Rate = MESSAGE_RATE
    """The rate limit on every frame of one connection, counted before it is parsed."""
    chat: Rate = CHAT_RATE
    """The rate limit on one connection's chat lines (on top of ``messages``)."""
    flood_s: float = 10.0
    """Seconds a connection may keep its frame budget empty (every frame held back)
    before it is closed with a fatal ``rate_limited`` error."""
    strikes: Rate = STRIKE_RATE
    """How many refused frames one connection may send before it is closed."""
    answers: Rate = ANSWER_RATE
    """The rate limit on errors answering one connection's refused frames."""
    addresses: AddressRules = DEFAULT_ADDRESS_RULES
    """The limits per client address."""
    password_failures: Rate = PASSWORD_FAILURE_RATE
    """The limit on wrong passwords for one account, whatever their address."""
    challenges: Rate = CHALLENGE_RATE
    """The limit on challenges one player receives, whoever sends them."""
    hash_workers: int = DEFAULT_WORKERS
    """Threads computing argon2 hashes (passwords, bot tokens) at once."""
    hash_waiting: int = DEFAULT_WAITING
    """Hashes that may wait for a thread; a sign-in beyond that is refused at once."""
    trusted_proxies: tuple[str, ...] = ()
    """Reverse proxies whose ``X-Forwarded-For`` names the client's address."""
    untimed_grace_ms: int = UNTIMED_GRACE_MS
    """How long a player of an untimed game may be away before the opponent wins."""
    untimed_ai_grace_ms: int = UNTIMED_AI_GRACE_MS
    """How long the player of an untimed game against the server's AI may be away before
    the AI wins and the room leaves the lobby."""
    max_rooms_per_connection: int = 20
    """Most unfinished games one connection may have started or be seated in."""
    ai_workers: int = 2
    """Worker processes of the AI pool; 0 runs no pool (AI games are refused)."""
    ai_max_think_s: float = 5.0
    """Longest the AI thinks on one move, whatever its level."""
    analyses: AnalysisRules = DEFAULT_ANALYSIS_RULES
    """How finished games are analysed: workers, work a position, limits."""
    finished_room_linger_s: float = 300.0
    """How long a finished room stays in memory, for rematches and late spectators."""
    cluster: ClusterSettings | None = None
    """The cluster this server is a node of; ``None`` (the default): it serves alone."""
    metrics_listen: tuple[str, int] | None = None
    """Where to serve ``/metrics`` to anyone (a monitoring network's address and a port),
    besides the main port's loopback clients; ``None`` (the default): nowhere else."""

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> ServerConfig:
        """The defaults, overridden by ``GAMUT_HOST``, ``GAMUT_PORT``, ``GAMUT_DB``,
        ``GAMUT_LIMITS`` (``name=value,…`` as for ``--limit``),
        ``GAMUT_TRUSTED_PROXIES`` (addresses separated by commas), and ``GAMUT_REDIS``,
        ``GAMUT_NODE`` and ``GAMUT_CLUSTER`` (see :meth:`with_cluster`)."""
        env = os.environ if env is None else env
        config = cls()
        if env.get("GAMUT_HOST"):
            config = replace(config, host=env["GAMUT_HOST"])
        if env.get("GAMUT_PORT"):
            config = replace(config, port=_port(env["GAMUT_PORT"]))
        if env.get("GAMUT_DB"):
            config = replace(config, db=env["GAMUT_DB"])
        for setting in filter(None, env.get("GAMUT_LIMITS", "").split(",")):
            config = config.with_limit(setting.strip())
        proxies = [p.strip() for p in env.get("GAMUT_TRUSTED_PROXIES", "").split(",")]
        if any(proxies):
            config = replace(config, trusted_proxies=tuple(p for p in proxies if p))
        if env.get("GAMUT_METRICS_LISTEN"):
            config = replace(config, metrics_listen=host_port(env["GAMUT_METRICS_LISTEN"]))
        if env.get("GAMUT_REDIS"):
            config = config.with_cluster(
                env["GAMUT_REDIS"], env.get("GAMUT_NODE"), env.get("GAMUT_CLUSTER")
            )
        return config

    def with_cluster(
        self, redis: str | None, node: str | None = None, name: str | None = None
    ) -> ServerConfig:
        """This configuration as a node of the cluster on ``redis`` (``None``: the one it
        is a node of already, if any), named ``node`` (default: the host's name and the
        process id), in the cluster ``name``. Raises ``ValueError`` with a sentence for a
        URL that is not Redis's."""
        current = self.cluster
        redis = redis or (current.redis if current else None)
        if redis is None:
            return self
        if not redis.startswith(("redis://", "rediss://", "unix://")):
            raise ValueError(f"--redis takes a redis:// URL, not {redis!r}")
        node = node or (current.node if current else None) or _default_node_name()
        name = name or (current.name if current else None) or "gamut"
        return replace(self, cluster=ClusterSettings(redis=redis, node=node, name=name))

    def with_limit(self, setting: str) -> ServerConfig:
        """This configuration with one limit changed: ``NAME=COUNT`` for ``connections``
        and ``unwelcomed``, ``NAME=BURST/PER_SECOND`` for a rate; raises ``ValueError``
        with a sentence for anything else."""
        name, _, value = setting.partition("=")
        name = name.strip().replace("-", "_")
        change: dict[str, Any] = {}
        if name in CONNECTION_RATES or name in ACCOUNT_RATES:
            change[name] = _rate(name, value)
            return replace(self, **change)
        if name in ADDRESS_RATES:
            change[name] = _rate(name, value)
        elif name in ADDRESS_COUNTS:
            change[name] = _count(name, value)
        if change:
            return replace(self, addresses=replace(self.addresses, **change))
        if name in ANALYSIS_RATES:
            change[ANALYSIS_RATES[name]] = _rate(name, value)
            return replace(self, analyses=replace(self.analyses, **change))
        known = ", ".join(
            (*CONNECTION_RATES, *ACCOUNT_RATES, *ADDRESS_COUNTS, *ADDRESS_RATES, *ANALYSIS_RATES)
        )
        raise ValueError(f"no limit is called {name!r}; the limits are {known}")

    def with_overrides(
        self, *, host: str | None = None, port: int | None = None, db: str | None = None
    ) -> ServerConfig:
        """This configuration with the given settings replaced (``None`` keeps one)."""
        config = self
        if host is not None:
            config = replace(config, host=host)
        if port is not None:
            config = replace(config, port=port)
        if db is not None:
            config = replace(config, db=db)
        return config


def host_port(text: str) -> tuple[str, int]:
    """``HOST:PORT`` (``[::1]:9100`` for IPv6) as a pair; ``ValueError`` with a sentence."""
    host, _, port = text.strip().rpartition(":")
    host = host.removeprefix("[").removesuffix("]")
    if not host or not port.isdigit() or not 0 < int(port) < 65_536:
        raise ValueError(f"an address to listen on is HOST:PORT (say 10.0.0.5:9100), not {text!r}")
    return host, int(port)


def _default_node_name() -> str:
    """A node name unique on this network: the host's name and this process's id."""
    return f"{socket.gethostname()}-{os.getpid()}"


def _port(text: str) -> int:
    """The port number ``text`` names; raises ``ValueError`` with a sentence if none."""
    try:
        port = int(text)
    except ValueError:
        raise ValueError(f"GAMUT_PORT must be a port number, not {text!r}") from None
    if not 0 <= port <= 65_535:
        raise ValueError(f"GAMUT_PORT must be between 0 and 65535, not {port}")
    return port


def _rate(name: str, text: str) -> Rate:
    """The rate ``BURST/PER_SECOND`` in ``text``; raises ``ValueError`` with a sentence."""
    burst, _, per_second = text.partition("/")
    try:
        rate = Rate(capacity=float(burst), per_second=float(per_second))
    except ValueError:
        rate = Rate(capacity=0, per_second=0)
    if rate.capacity < 1 or rate.per_second <= 0:
        raise ValueError(
            f"the limit {name} takes BURST/PER_SECOND, a burst of at least 1 and a positive "
            f"rate (say {name}=10/0.5), not {text!r}"
        )
    return rate


def _count(name: str, text: str) -> int:
    """The positive count in ``text``; raises ``ValueError`` with a sentence."""
    try:
        count = int(text)
    except ValueError:
        count = 0
    if count < 1:
        raise ValueError(f"the limit {name} takes a whole number of at least 1, not {text!r}")
    return count

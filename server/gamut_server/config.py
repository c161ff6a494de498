"""The server's settings: where it listens, which database it uses, and its limits.

Every setting has a default; :meth:`ServerConfig.from_env` reads the ``GAMUT_*``
environment variables over them, and the command line overrides both.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Final

from gamut_server.rooms.limits import CHAT_RATE, MESSAGE_RATE, Rate

DEFAULT_HOST: Final = "127.0.0.1"
"""The address served by default: loopback only."""

DEFAULT_PORT: Final = 8080
"""The TCP port served by default."""

SERVER_NAME: Final = "gamut-server 0.1"
"""How the server names itself in ``welcome`` and ``/health``."""


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
    hello_timeout: float = 30.0
    """Seconds a new connection has to send its ``hello``."""
    messages: Rate = MESSAGE_RATE
    """The rate limit on every message of one connection."""
    chat: Rate = CHAT_RATE
    """The rate limit on one connection's chat lines (on top of ``messages``)."""
    max_rooms_per_connection: int = 20
    """Most unfinished games one connection may have started or be seated in."""
    ai_workers: int = 2
    """Worker processes of the AI pool; 0 runs no pool (AI games are refused)."""
    ai_max_think_s: float = 5.0
    """Longest the AI thinks on one move, whatever its level."""
    finished_room_linger_s: float = 300.0
    """How long a finished room stays in memory, for rematches and late spectators."""

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> ServerConfig:
        """The defaults, overridden by ``GAMUT_HOST``, ``GAMUT_PORT`` and ``GAMUT_DB``."""
        env = os.environ if env is None else env
        config = cls()
        if env.get("GAMUT_HOST"):
            config = replace(config, host=env["GAMUT_HOST"])
        if env.get("GAMUT_PORT"):
            config = replace(config, port=_port(env["GAMUT_PORT"]))
        if env.get("GAMUT_DB"):
            config = replace(config, db=env["GAMUT_DB"])
        return config

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


def _port(text: str) -> int:
    """The port number ``text`` names; raises ``ValueError`` with a sentence if none."""
    try:
        port = int(text)
    except ValueError:
        raise ValueError(f"GAMUT_PORT must be a port number, not {text!r}") from None
    if not 0 <= port <= 65_535:
        raise ValueError(f"GAMUT_PORT must be between 0 and 65535, not {port}")
    return port

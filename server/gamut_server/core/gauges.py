"""The hub's gauges for ``/metrics``: read from the live state at each scrape."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, Protocol

from gamut_server.ai.pool import AIPool
from gamut_server.core.driver import Driver
from gamut_server.rooms import Lobby


class HubState(Protocol):
    """What the gauges read of the hub."""

    welcomed: int
    open_reports: int
    driver: Driver
    pool: AIPool
    cluster_stats: Callable[[], dict[str, Any]] | None

    @property
    def lobby(self) -> Lobby:
        """The lobby."""
        ...

    @property
    def connections(self) -> Mapping[int, Any]:
        """Every open connection."""
        ...


class HubGauges:
    """What one hub tells a scrape (see :class:`gamut_server.metrics.Readings`)."""

    def __init__(self, hub: HubState) -> None:
        """The gauges of ``hub``."""
        self.hub = hub

    def gauges(self) -> dict[str, tuple[str, float]]:
        """Each gauge's name (without ``gamut_``), help and value."""
        hub = self.hub
        rooms = [handle.room.summary() for handle in hub.driver.rooms.values()]
        running = sum(room.status == "running" for room in rooms)
        return {
            "connections": ("Open WebSocket connections.", len(hub.connections)),
            "players_online": ("Connections that said hello with a name.", hub.welcomed),
            "lobby_players": (
                "Players online, however many connections each has.",
                hub.lobby.players_online,
            ),
            "rooms": ("Rooms in memory, finished ones lingering included.", len(rooms)),
            "rooms_running": ("Games being played.", running),
            "spectators": ("Spectators of every room.", sum(room.spectators for room in rooms)),
            "ai_thinking": ("Moves asked of the AI and not answered yet.", hub.pool.thinking),
            "ai_waiting": (
                "Moves asked of the AI waiting for a free worker.",
                max(0, hub.pool.thinking - hub.pool.workers),
            ),
            "open_reports": ("Players' reports waiting for a moderator.", hub.open_reports),
            "cluster_node": (
                "1 when this server is a node of a cluster.",
                float(hub.cluster_stats is not None),
            ),
            **_leadership(hub.cluster_stats),
        }


def _leadership(stats: Callable[[], dict[str, Any]] | None) -> dict[str, tuple[str, float]]:
    """Which node leads the lobby, as this node last saw it, and whether it is this one."""
    seen = {} if stats is None else stats()
    leader = seen.get("leader") or 0
    return {
        "cluster_leader": (
            "The number of the node leading the cluster's lobby, as this node last saw it "
            "(0: none known, or no cluster).",
            float(leader),
        ),
        "cluster_leading": (
            "1 when this node leads the cluster's lobby.",
            float(bool(leader) and leader == seen.get("node_number")),
        ),
    }

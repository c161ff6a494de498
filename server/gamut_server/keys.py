"""The typed keys under which the aiohttp application keeps the server's parts."""

from __future__ import annotations

from typing import Final

from aiohttp import web

from gamut_server.ai.pool import AIPool
from gamut_server.cluster.node import ClusterNode
from gamut_server.config import ServerConfig
from gamut_server.core.hub import Hub
from gamut_server.monitor import LagMonitor
from gamut_server.storage import Store

CONFIG: Final = web.AppKey("config", ServerConfig)
"""The server's settings."""

STORE: Final = web.AppKey("store", Store)
"""The open storage."""

AI_POOL: Final = web.AppKey("ai_pool", AIPool)
"""The AI's worker processes."""

HUB: Final = web.AppKey("hub", Hub)
"""The lobby and the live rooms."""

CLUSTER: Final = web.AppKey("cluster", ClusterNode)
"""This server's place in its cluster, when it is one node of several."""
MONITOR: Final = web.AppKey("monitor", LagMonitor)
"""The event loop's lag monitor."""

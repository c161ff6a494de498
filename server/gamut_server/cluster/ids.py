"""Connection ids across the nodes of a cluster: the high bits name the node.

Each node numbers its connections from its own number times 2**32, so any node can tell
from a connection id which node holds that socket, and send there what is meant for it.
"""

from __future__ import annotations

from typing import Final

from gamut_server.rooms.effects import ConnectionId

NODE_SHIFT: Final = 32
"""A connection id is its node's number shifted left this far, plus a count."""


def first_connection_id(node: int) -> ConnectionId:
    """The id of node ``node``'s first connection."""
    return (node << NODE_SHIFT) + 1


def node_of(conn: ConnectionId) -> int:
    """The number of the node holding connection ``conn``."""
    return conn >> NODE_SHIFT

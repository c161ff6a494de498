"""The names of a cluster's Redis keys and channels, all under the cluster's name.

| key | holds |
| --- | --- |
| ``{c}:node-numbers`` | the counter that numbers nodes as they join |
| ``{c}:nodes`` | hash: node number → its name and address (JSON) |
| ``{c}:alive:{n}`` | present while node ``n`` lives (a lease renewed every heartbeat) |
| ``{c}:leader`` | the number of the node leading the lobby (a lease) |
| ``{c}:room:{id}`` | the number of the node that owns room ``id`` |
| ``{c}:rooms:{n}`` | set: the rooms node ``n`` owns |
| ``{c}:takeover:{n}`` | the number of the node taking dead node ``n``'s rooms over |
| ``{c}:name:{name}`` | who holds a player name: a guest's token digest, or ``account`` |

Channels: ``{c}:inbox:{n}`` carries messages to node ``n``; ``{c}:everyone`` to all.
"""

from __future__ import annotations

from gamut_protocol.common import name_key


def text(value: object) -> str | None:
    """A Redis reply as text, or ``None`` for no value (the cluster's client decodes
    replies already)."""
    if isinstance(value, bytes):
        return value.decode()
    return value if isinstance(value, str) else None


class Keys:
    """The keys and channels of one cluster."""

    def __init__(self, cluster: str) -> None:
        """Keys under the prefix ``cluster``."""
        self.prefix = cluster
        self.node_numbers = f"{cluster}:node-numbers"
        """The counter numbering the nodes."""
        self.nodes = f"{cluster}:nodes"
        """Hash of every node that joined and has not been cleared away: number → JSON."""
        self.leader = f"{cluster}:leader"
        """The lobby leader's number (expires unless renewed)."""
        self.everyone = f"{cluster}:everyone"
        """The channel every node listens to."""

    def alive(self, node: int) -> str:
        """The lease of node ``node``."""
        return f"{self.prefix}:alive:{node}"

    def room(self, room_id: str) -> str:
        """The owner of room ``room_id``."""
        return f"{self.prefix}:room:{room_id}"

    def rooms_of(self, node: int) -> str:
        """The set of rooms node ``node`` owns."""
        return f"{self.prefix}:rooms:{node}"

    def takeover(self, node: int) -> str:
        """The lock on taking dead node ``node``'s rooms over."""
        return f"{self.prefix}:takeover:{node}"

    def name(self, name: str) -> str:
        """Who holds the player name ``name`` (one key whatever its case)."""
        return f"{self.prefix}:name:{name_key(name)}"

    def inbox(self, node: int) -> str:
        """The channel of messages to node ``node``."""
        return f"{self.prefix}:inbox:{node}"

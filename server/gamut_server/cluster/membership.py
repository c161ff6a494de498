"""Which nodes are alive, and which leads the lobby: leases in Redis.

A node joins by drawing a number (``INCR``) and recording its name. Every heartbeat it
renews its own lease (``{c}:alive:{n}``, which expires after ``lease_s``), and either
renews the lobby leader's lease if it holds it or tries to take it if nobody does. A
node whose lease expired before it could renew it has been counted dead, and its rooms
may be on other nodes already (:attr:`Membership.lost`): it takes its lease again
(:meth:`Membership.rejoin`) and keeps only the rooms still its own; the database's
epochs refuse any write it might still make in a room taken from it. A node that cannot
reach Redis keeps serving meanwhile.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass
from typing import Final

import redis.asyncio as aioredis

from gamut_server.cluster.keys import Keys, text
from gamut_server.config import ClusterSettings

RENEW_IF_MINE: Final = """
if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('PEXPIRE', KEYS[1], ARGV[2])
end
return 0
"""
"""Renew a lease only if this node holds it."""

RAISE_TO: Final = """
if tonumber(redis.call('GET', KEYS[1]) or '0') < tonumber(ARGV[1]) then
  redis.call('SET', KEYS[1], ARGV[1])
end
return 0
"""
"""Raise a counter to at least a number (a Redis that restarted empty)."""


@dataclass(frozen=True, slots=True)
class Beat:
    """What one heartbeat found."""

    leader: int | None
    """The node leading the lobby now (``None``: nobody, for the moment)."""
    became_leader: bool
    """Whether this node has just taken the lead."""
    dead: tuple[int, ...]
    """Nodes that joined and whose lease has expired."""


class Membership:
    """One node's place in the cluster."""

    def __init__(self, client: aioredis.Redis, keys: Keys, settings: ClusterSettings) -> None:
        """Not joined yet: :meth:`join` draws the node's number."""
        self._redis = client
        self._keys = keys
        self.settings = settings
        self.number = 0
        """This node's number in the cluster, from 1."""
        self.leader: int | None = None
        """The node leading the lobby, as last seen."""
        self.lost = False
        """Set when this node's lease expired before it could renew it."""
        self.address = ""
        """The address this node serves on, as recorded."""
        self._renewed_at = 0.0
        self._lease_ms = round(settings.lease_s * 1000)

    @property
    def leads(self) -> bool:
        """Whether this node leads the lobby (and its lease on that is fresh)."""
        return self.leader == self.number and self.fresh

    @property
    def fresh(self) -> bool:
        """Whether this node's own lease was renewed less than a lease ago."""
        return not self.lost and time.monotonic() - self._renewed_at < self.settings.lease_s

    async def join(self, address: str) -> int:
        """Draw this node's number, record its name and address, take its first lease."""
        self.number = int(await self._redis.incr(self._keys.node_numbers))
        await self.record_address(address)
        await self._redis.set(self._keys.alive(self.number), "1", px=self._lease_ms)
        self._renewed_at = time.monotonic()
        return self.number

    async def record_address(self, address: str) -> None:
        """Record this node's name and the address it serves on."""
        self.address = address
        record = json.dumps({"name": self.settings.node, "address": address})
        await self._redis.hset(self._keys.nodes, str(self.number), record)

    async def rejoin(self) -> None:
        """Take this node's lease again, under the same number, after it lapsed (a pause
        past the lease, or a Redis that restarted empty): the lease first, then the
        record, so that no other node ever sees this one recorded without a lease."""
        await self._redis.set(self._keys.alive(self.number), "1", px=self._lease_ms)
        await self._redis.eval(RAISE_TO, 1, self._keys.node_numbers, str(self.number))
        await self.record_address(self.address)
        self._renewed_at = time.monotonic()
        self.lost = False

    async def leave(self) -> None:
        """Give up the leases at a clean stop, so others need not wait for them to expire
        (the node stays on record until another has taken its rooms over)."""
        pipe = self._redis.pipeline(transaction=False)
        pipe.delete(self._keys.alive(self.number))
        pipe.eval(
            "if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end"
            " return 0",
            1,
            self._keys.leader,
            str(self.number),
        )
        await pipe.execute()

    async def beat(self) -> Beat:
        """Renew this node's lease, hold or seek the lead, and list the dead nodes."""
        started = time.monotonic()
        renewed = await self._redis.set(
            self._keys.alive(self.number), "1", px=self._lease_ms, xx=True
        )
        if not renewed:
            self.lost = True
            return Beat(self.leader, False, ())
        self._renewed_at = started
        became = await self._lead()
        return Beat(self.leader, became, await self._dead_nodes())

    async def forget(self, node: int) -> None:
        """Clear dead node ``node`` away once its rooms were taken over."""
        await self._redis.hdel(self._keys.nodes, str(node))

    async def _lead(self) -> bool:
        """Renew the lead if held, else take it if free; whether it was just taken."""
        number = str(self.number)
        if self.leader == self.number:
            renewed = await self._redis.eval(
                RENEW_IF_MINE, 1, self._keys.leader, number, self._lease_ms
            )
            if renewed:
                return False
        taken = await self._redis.set(self._keys.leader, number, px=self._lease_ms, nx=True)
        current = text(await self._redis.get(self._keys.leader))
        self.leader = int(current) if current is not None else None
        return bool(taken) and self.leader == self.number

    async def live_nodes(self) -> set[int]:
        """The nodes on record whose lease is live, this one among them."""
        numbers = [int(number) for number in await self._redis.hkeys(self._keys.nodes)]
        if not numbers:
            return set()
        alive = await self._redis.mget([self._keys.alive(number) for number in numbers])
        return {number for number, lease in zip(numbers, alive, strict=True) if lease is not None}

    async def _dead_nodes(self) -> tuple[int, ...]:
        """The nodes on record whose lease has expired."""
        numbers = [int(number) for number in await self._redis.hkeys(self._keys.nodes)]
        others = [number for number in numbers if number != self.number]
        if not others:
            return ()
        alive = await self._redis.mget([self._keys.alive(number) for number in others])
        return tuple(number for number, lease in zip(others, alive, strict=True) if lease is None)

"""Which node owns which room: one key a room, and one set of rooms a node.

A room is claimed before its game is stored, so a stored unfinished game nobody owns
was left by a node that is gone. Taking a dead node's room over is a compare-and-set:
it succeeds for one node only, so two nodes never own one room.
"""

from __future__ import annotations

from typing import Final

import redis.asyncio as aioredis

from gamut_server.cluster.keys import Keys, text

TAKE_IF_OWNED_BY: Final = """
local owner = redis.call('GET', KEYS[1])
if owner == ARGV[1] or (owner == false and ARGV[1] == '') then
  redis.call('SET', KEYS[1], ARGV[2])
  return 1
end
return 0
"""
"""Move a room's key from one owner (``''``: none) to another, if it still has that one."""

RELEASE_IF_MINE: Final = """
if redis.call('GET', KEYS[1]) == ARGV[1] then
  redis.call('DEL', KEYS[1])
end
return 0
"""
"""Drop a room's key only if this node still owns it."""


RECLAIM: Final = """
local owner = redis.call('GET', KEYS[1])
if owner == ARGV[1] or owner == false then
  redis.call('SET', KEYS[1], ARGV[1])
  redis.call('SADD', KEYS[2], ARGV[2])
  return 1
end
return 0
"""
"""Keep a room's key as this node's if it still is, or if nobody's (a Redis that
restarted empty); not if another node took the room over."""

OWNER_AND_LEASE: Final = """
local owner = redis.call('GET', KEYS[1])
if not owner then
  return nil
end
return {owner, redis.call('EXISTS', ARGV[1] .. owner)}
"""
"""A room's owner, and whether that node's lease is live (1) or expired (0)."""


class Directory:
    """Room ownership, as seen from node ``number``."""

    def __init__(self, client: aioredis.Redis, keys: Keys, number: int) -> None:
        """The directory of node ``number``."""
        self._redis = client
        self._keys = keys
        self._number = number

    async def owner(self, room_id: str) -> int | None:
        """The node that owns ``room_id``, if any."""
        owner = text(await self._redis.get(self._keys.room(room_id)))
        return None if owner is None else int(owner)

    async def owner_and_lease(self, room_id: str) -> tuple[int, bool] | None:
        """The node that owns ``room_id`` and whether it is alive; ``None`` if no node does."""
        alive_prefix = self._keys.alive(0).removesuffix("0")
        found = await self._redis.eval(OWNER_AND_LEASE, 1, self._keys.room(room_id), alive_prefix)
        if not found:
            return None
        owner, alive = found
        return int(owner), bool(alive)

    async def claim(self, room_id: str) -> None:
        """This node owns the new room ``room_id``; raises ``RuntimeError`` if a node does
        already (a room id drawn twice)."""
        key = self._keys.room(room_id)
        if not await self._redis.set(key, str(self._number), nx=True):
            raise RuntimeError(f"room {room_id} has an owner already")
        await self._redis.sadd(self._keys.rooms_of(self._number), room_id)

    async def release(self, room_id: str) -> None:
        """The room ``room_id`` left this node."""
        pipe = self._redis.pipeline(transaction=False)
        pipe.eval(RELEASE_IF_MINE, 1, self._keys.room(room_id), str(self._number))
        pipe.srem(self._keys.rooms_of(self._number), room_id)
        await pipe.execute()

    async def take(self, room_id: str, previous: int | None) -> bool:
        """Take ``room_id`` over from ``previous`` (``None``: from nobody); whether it
        was still theirs and is now this node's."""
        was = "" if previous is None else str(previous)
        key = self._keys.room(room_id)
        taken = await self._redis.eval(TAKE_IF_OWNED_BY, 1, key, was, str(self._number))
        if taken:
            await self._redis.sadd(self._keys.rooms_of(self._number), room_id)
        return bool(taken)

    async def reclaim(self, room_id: str) -> bool:
        """Whether ``room_id`` is still this node's (its key kept or made again), or
        another node took it over."""
        keys = (self._keys.room(room_id), self._keys.rooms_of(self._number))
        return bool(await self._redis.eval(RECLAIM, 2, *keys, str(self._number), room_id))

    async def hand_back(self, room_id: str, node: int) -> None:
        """Give ``room_id``, taken from ``node`` but not brought back, back to ``node``'s
        name, so that the next takeover of ``node`` tries it again."""
        key = self._keys.room(room_id)
        await self._redis.eval(TAKE_IF_OWNED_BY, 1, key, str(self._number), str(node))
        await self._redis.srem(self._keys.rooms_of(self._number), room_id)

    async def unlock_takeover(self, node: int) -> None:
        """Let the next heartbeat take dead node ``node``'s rooms over again."""
        await self._redis.delete(self._keys.takeover(node))

    async def rooms_of(self, node: int) -> set[str]:
        """The rooms node ``node`` owns (or owned when it died)."""
        members = await self._redis.smembers(self._keys.rooms_of(node))
        return {str(text(member)) for member in members}

    async def lock_takeover(self, node: int, seconds: float) -> bool:
        """Whether this node may take dead node ``node``'s rooms over (one node may)."""
        key = self._keys.takeover(node)
        return bool(
            await self._redis.set(key, str(self._number), nx=True, px=round(seconds * 1000))
        )

    async def forget_node(self, node: int) -> None:
        """Drop dead node ``node``'s set of rooms once they are all taken over."""
        await self._redis.delete(self._keys.rooms_of(node))

"""Driving the synchronous rooms and lobby: performing their effects, timers and the AI.

Each room has a lock. A call into a room and the performing of the batch of effects it
returns happen under that lock, so a room's batches are stored and sent in the order
the room made them. Within a batch, every storage write (and every new room) is
awaited first; only then are its messages queued on the connections, so nothing is
broadcast before it is stored. Queuing never waits for a client (see
:mod:`gamut_server.edge.connection`).

If a write of a room's batch fails, nothing of the batch is sent and the room goes
back to where it was before the call (:mod:`gamut_server.rooms.rollback`): the asker
is told to send it again, the others that the game waits for its storage. A deadline
or an AI move that was not stored is tried again after a pause.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Coroutine, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from gamut_protocol import ErrorMessage
from gamut_protocol.errors import UNAVAILABLE
from gamut_server.ai.pool import AIPool
from gamut_server.config import ServerConfig
from gamut_server.core.ai_turns import ai_answer
from gamut_server.core.cluster_port import ClusterPort
from gamut_server.core.delivery import deliver_here
from gamut_server.core.move_texts import MoveTexts
from gamut_server.core.ops import (
    Asker,
    Listed,
    LobbyOp,
    Moved,
    RoomOp,
    Unlisted,
    asker_of,
    lobby_effects,
    room_effects,
)
from gamut_server.core.storing import paired, store_effect
from gamut_server.edge.connection import Connection
from gamut_server.rooms import (
    ConnectionId,
    CorrelationId,
    Effect,
    Lobby,
    Log,
    OpenRoom,
    RequestAIMove,
    Room,
    RoomChanged,
    RoomConfig,
    RoomMoved,
    RoomSpec,
    SeekKept,
    Send,
    StoreMove,
    Who,
    first_phase,
    second_phase,
)
from gamut_server.rooms.rollback import unstored_notices
from gamut_server.storage import FencedError, StorageError, Store

log = logging.getLogger(__name__)

CLOSE_GRACE_S: Final = 2.0
"""Seconds a closing server waits for timer batches being stored to finish."""

RETRY_S: Final = (0.5, 1.0, 2.0, 4.0)
"""Pauses before a deadline or an AI move that could not be stored is tried again (the
last one repeats for as long as storage fails)."""

NOT_STARTED: Final = (
    "the game could not be started because the game's storage is failing: "
    "please seek or challenge again in a moment"
)

_LOG_LEVELS: Final = {"info": logging.INFO, "warning": logging.WARNING, "error": logging.ERROR}


@dataclass(slots=True)
class RoomHandle:
    """A live room with its lock and pending timers."""

    room: Room
    """The room itself."""
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    """Held while the room is called and its batch performed."""
    timer: asyncio.TimerHandle | None = None
    """The call of :meth:`Room.expire` at the room's next deadline."""
    deadline_ms: int | None = None
    """The deadline ``timer`` is set for, kept while a batch leaves it unchanged."""
    removal: asyncio.TimerHandle | None = None
    """The removal of a finished room from memory."""
    failures: int = 0
    """How many of the room's batches in a row could not be stored."""
    epoch: int | None = None
    """The epoch at which this node holds the room's game, on a cluster's node (its
    writes are fenced by it); ``None`` alone."""


class Driver:
    """Owns the lobby and the live rooms, and performs everything they ask for."""

    def __init__(
        self,
        config: ServerConfig,
        store: Store,
        pool: AIPool,
        lobby: Lobby,
        connections: Mapping[int, Connection],
        room_config: RoomConfig,
    ) -> None:
        """A driver with no rooms yet, sending to the connections in ``connections``."""
        self.config = config
        self.store = store
        self.pool = pool
        self.lobby = lobby
        self.room_config = room_config
        self.rooms: dict[str, RoomHandle] = {}
        """The rooms in memory, by id."""
        self._connections = connections
        self._tasks: set[asyncio.Task[Any]] = set()
        self.closing = False
        """Set once :meth:`close` began: no new timer or AI work starts."""
        self.on_room_removed: Callable[[Room], None] = lambda room: None
        """Called when a finished room leaves memory."""
        self.on_game_over: Callable[[Room], None] = lambda room: None
        self.on_move_stored: Callable[[], None] = lambda: None
        """Told of every move once it is stored (the metrics count them)."""
        """Called once when a room's game ends (finished or aborted), after its batch."""
        self.cluster: ClusterPort | None = None
        """The cluster this server is a node of, if any."""
        self._loop: asyncio.AbstractEventLoop | None = None
        self._move_texts = MoveTexts()

    def now_ms(self) -> int:
        """The event loop's monotonic clock, in milliseconds: the rooms' ``now_ms``."""
        return int(self._running_loop().time() * 1000)

    def _running_loop(self) -> asyncio.AbstractEventLoop:
        """The running event loop, kept once found (looking it up costs a system call,
        several times a move), and looked up again if the driver is used from another."""
        loop = self._loop
        if loop is None or not loop.is_running():
            loop = self._loop = asyncio.get_running_loop()
        return loop

    async def lobby_op(self, op: LobbyOp) -> None:
        """Perform ``op`` on the lobby (here, or on the node leading a cluster's lobby).

        Lobby batches are not queued behind one another: a batch that opens a room
        waits for the room's game to be stored, and games starting at once should not
        wait for each other. Each batch's own messages still follow its writes, and a
        connection's messages are handled one after the other.
        """
        if self.cluster is not None and await self.cluster.lobby_elsewhere(op):
            return
        batch = lobby_effects(self.lobby, op, self.now_ms())
        if batch:  # a move's new ply, with nobody following the lobby, asks for nothing
            await self.perform(batch)

    async def room_op(self, room_id: str, op: RoomOp) -> bool:
        """Perform ``op`` on the room ``room_id`` (here, or on the node that owns it);
        ``False`` if no such room is being played."""
        if room_id in self.rooms and await self.room_call(
            room_id, lambda room: room_effects(room, op, self.now_ms()), asker_of(op)
        ):
            return True
        if self.cluster is None:
            return False
        return await self.cluster.room_elsewhere(room_id, op)

    async def room_call(
        self, room_id: str, call: Callable[[Room], list[Effect]], asker: Asker | None = None
    ) -> bool:
        """Call a room and perform its batch; ``False`` if no such room is in memory.

        If the batch cannot be stored, the room goes back to where it was and ``asker``
        (the connection and request the call answers, if any) is told to try again. If
        another node holds the room's game now (its epoch moved on), the room leaves
        this node's memory, nothing of the batch is sent, and the answer is ``False``.
        """
        handle = self.rooms.get(room_id)
        if handle is None:
            return False
        async with handle.lock:
            if self.rooms.get(room_id) is not handle:
                return False
            room = handle.room
            mark = room.mark()
            batch = call(room)
            try:
                await self.perform(batch, handle.epoch)
            except FencedError:
                room.rewind(mark)
                await self._moved_away(room_id, handle)
                return False
            except StorageError:
                room.rewind(mark)
                handle.failures += 1
                self._tell(unstored_notices(room_id, room.members.everyone(), batch, asker))
            else:
                handle.failures = 0
            self._after_batch(room_id, handle)
        return True

    def add_room(self, room: Room, epoch: int | None = None) -> RoomHandle:
        """Put ``room`` in memory (a new or a restored one), held at ``epoch``."""
        handle = RoomHandle(room, epoch=epoch)
        self.rooms[room.room_id] = handle
        return handle

    async def _moved_away(self, room_id: str, handle: RoomHandle) -> None:
        """Another node holds the room's game now: forget the room here (its followers
        here resume it on its new node once that node announces it)."""
        log.warning("room %s is held by another node now: it leaves this one", room_id)
        self.forget_room(room_id, handle)
        if self.cluster is not None:
            await self.cluster.room_lost(room_id)

    def forget_room(self, room_id: str, handle: RoomHandle | None = None) -> bool:
        """Take the room out of memory without a word to anyone (another node holds it);
        whether it was here (as ``handle``, if given)."""
        current = self.rooms.get(room_id)
        if current is None or (handle is not None and current is not handle):
            return False
        del self.rooms[room_id]
        for timer in (current.timer, current.removal):
            if timer is not None:
                timer.cancel()
        return True

    async def perform(self, batch: Sequence[Effect], epoch: int | None = None) -> None:
        """Perform one batch: storage and new rooms first, then messages and the rest;
        a room's writes are fenced by ``epoch`` (see :class:`RoomHandle`).

        If a write fails, nothing of the batch is sent and the
        :class:`~gamut_server.storage.StorageError` propagates.
        """
        try:
            for effect, ending in paired(first_phase(batch)):
                if isinstance(effect, OpenRoom):
                    await self._open_room(effect)
                elif isinstance(effect, SeekKept):
                    if self.cluster is not None:
                        self.cluster.seek_kept(effect)
                else:
                    await store_effect(self.store, effect, ending, epoch)
                    if isinstance(effect, StoreMove):
                        self.on_move_stored()
        except StorageError as error:
            log.warning("a storage write failed; the batch's messages are not sent: %s", error)
            raise
        for effect in second_phase(batch):
            await self._second(effect)

    def spawn(self, work: Coroutine[Any, Any, Any], name: str) -> None:
        """Run ``work`` in a task the driver keeps and cancels on :meth:`close`."""
        if self.closing:
            work.close()
            return
        task = asyncio.create_task(work, name=name)
        self._tasks.add(task)
        task.add_done_callback(self._task_done)

    async def close(self) -> None:
        """Cancel the timers, let batches being stored finish, cancel what is left."""
        self.closing = True
        for handle in self.rooms.values():
            for timer in (handle.timer, handle.removal):
                if timer is not None:
                    timer.cancel()
        busy = [task for task in self._tasks if not task.get_name().startswith("ai-")]
        if busy:
            await asyncio.wait(busy, timeout=CLOSE_GRACE_S)
        tasks = list(self._tasks)
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    async def _open_room(self, effect: OpenRoom) -> None:
        """Create a room (on the node of the connection it answers, in a cluster) and
        perform its whole start batch before going on."""
        if self.cluster is not None and await self.cluster.open_elsewhere(effect):
            return
        await self.open_room(effect.room_id, effect.spec, effect.members, effect.reply_to)

    async def open_room(
        self,
        room_id: str,
        spec: RoomSpec,
        members: Sequence[Who],
        reply_to: tuple[ConnectionId, CorrelationId] | None = None,
        config: RoomConfig | None = None,
    ) -> None:
        """Create a room (with ``config``, else the server's) and perform its start batch."""
        room = Room(room_id, spec, config or self.room_config)
        if self.cluster is not None:
            await self.cluster.room_opened(room_id)
        handle = self.add_room(room, None if self.cluster is None else 0)
        async with handle.lock:
            try:
                await self.perform(room.start(members, self.now_ms(), reply_to), handle.epoch)
            except StorageError:
                await self._not_started(room_id, members)
                return
            self._after_batch(room_id, handle)

    async def _not_started(self, room_id: str, members: Sequence[Who]) -> None:
        """A new room's game could not be stored: it is forgotten and its players told."""
        self.rooms.pop(room_id, None)
        if self.cluster is not None:
            await self.cluster.room_closed(room_id)
        notice = ErrorMessage(code=UNAVAILABLE, message=NOT_STARTED, room_id=room_id)
        self._tell([Send(tuple(who.conn for who in members), notice)])

    def _tell(self, effects: Sequence[Effect]) -> None:
        """Send what ``effects`` sends (notices made outside a batch)."""
        for effect in effects:
            if isinstance(effect, Send) and effect.to:
                self.deliver(effect)

    async def _second(self, effect: Effect) -> None:
        """Perform one effect of the second phase."""
        match effect:
            case Send():
                self.deliver(effect)
            case RoomChanged(summary=summary):
                await self.lobby_op(Listed(summary))
            case RoomMoved(room_id=room_id, ply=ply):
                await self.lobby_op(Moved(room_id, ply))
            case RequestAIMove():
                self.spawn(self._ai_turn(effect), name=f"ai-{effect.room_id}-{effect.ply}")
            case Log(level=level, message=message):
                log.log(_LOG_LEVELS[level], message)

    def deliver(self, effect: Send, texts: dict[bool, str] | None = None) -> None:
        """Queue one message on each recipient still connected; serialise each form once
        (see :mod:`gamut_server.core.delivery`). ``texts`` holds the forms already
        serialised (lean or not), if any. Recipients on other nodes of a cluster get the
        message through the cluster.
        """
        texts = {} if texts is None else texts
        elsewhere = deliver_here(effect, self._connections, texts, self._move_texts)
        if elsewhere and self.cluster is not None:
            self.cluster.deliver_elsewhere(effect, elsewhere)

    async def _ai_turn(self, effect: RequestAIMove) -> None:
        """Ask the pool for the AI's move and hand it to the room; hand it again after a
        pause while it cannot be stored."""
        answer = await ai_answer(self.pool, self.config.ai_max_think_s, effect)
        if answer is None:
            return
        room_id, ply = effect.room_id, effect.ply
        while await self.room_call(
            room_id, lambda room: room.ai_move(ply, answer.move, self.now_ms())
        ):
            handle = self.rooms.get(room_id)
            if handle is None or not handle.failures:
                return
            if handle.room.ai_pending != ply or handle.room.match.ply != ply:
                return
            await asyncio.sleep(self._retry_s(handle))

    @staticmethod
    def _retry_s(handle: RoomHandle) -> float:
        """The pause before a room's unstored batch is tried again."""
        return RETRY_S[min(handle.failures, len(RETRY_S)) - 1] if handle.failures else 0.0

    def _after_batch(self, room_id: str, handle: RoomHandle) -> None:
        """Reschedule the room's deadline if it moved, and its removal once its game is over."""
        deadline = handle.room.next_deadline_ms()
        if deadline is not None and handle.failures:
            deadline = max(deadline, self.now_ms() + round(self._retry_s(handle) * 1000))
        if deadline != handle.deadline_ms:
            if handle.timer is not None:
                handle.timer.cancel()
            handle.timer, handle.deadline_ms = None, deadline
            if deadline is not None:
                handle.timer = self._running_loop().call_at(
                    (deadline + 1) / 1000, self._expire_soon, room_id, f"expire-{room_id}"
                )
        if handle.room.over and handle.removal is None:
            handle.removal = self._running_loop().call_later(
                self.config.finished_room_linger_s, self._remove_soon, room_id
            )
            self.on_game_over(handle.room)

    def _expire_soon(self, room_id: str, name: str) -> None:
        """Timer callback: apply the room's due deadline in a task."""
        handle = self.rooms.get(room_id)
        if handle is not None:  # the timer has fired: the next batch sets a new one
            handle.timer, handle.deadline_ms = None, None
        self.spawn(self.room_call(room_id, lambda room: room.expire(self.now_ms())), name=name)

    def _remove_soon(self, room_id: str) -> None:
        """Timer callback: take a finished room out of memory in a task."""
        self.spawn(self._remove(room_id), name=f"remove-{room_id}")

    async def _remove(self, room_id: str) -> None:
        """Forget a finished room and take it off the lobby's list."""
        handle = self.rooms.pop(room_id, None)
        if handle is None:
            return
        if handle.timer is not None:
            handle.timer.cancel()
        for conn in self._connections.values():
            conn.rooms.discard(room_id)
        self.on_room_removed(handle.room)
        if self.cluster is not None:
            await self.cluster.room_closed(room_id)
        await self.lobby_op(Unlisted(room_id))

    def _task_done(self, task: asyncio.Task[Any]) -> None:
        """Forget a finished task, logging what it raised."""
        self._tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.error("task %s failed", task.get_name(), exc_info=task.exception())

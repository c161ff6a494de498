"""The steps a room's handlers share: seating, playing, ending, sending.

:class:`RoomCore` is the part of :class:`~gamut_server.rooms.room.Room` that changes
its state (:class:`~gamut_server.rooms.room_state.RoomState`) without reading messages:
the steps every handler is made of. See :mod:`gamut_server.rooms.room` for the rules.
"""

from __future__ import annotations

from typing import Any, TypeAlias

from gamut_protocol import (
    GameOver,
    GameRated,
    MoveMade,
    PlayerConnected,
    PlayerDisconnected,
    RematchDeclined,
    RematchStarted,
    SequencedEvent,
)
from gamut_server.rooms.effects import (
    ConnectionId,
    CorrelationId,
    Effect,
    OpenRoom,
    RequestAIMove,
    RoomChanged,
    RoomMoved,
    Send,
    StoreAbort,
    StoreMove,
    StoreResult,
    Who,
)
from gamut_server.rooms.rollback import RoomMark
from gamut_server.rooms.room_state import RoomState, wire_side
from gamut_server.rooms.stored import stored_result

Reply: TypeAlias = tuple[ConnectionId, CorrelationId | None]
"""The connection a message came on and the message's ``id``, for ``reply_to``."""


class RoomCore(RoomState):
    """A room's shared steps; :class:`Room` adds the message handlers."""

    # --- going back ------------------------------------------------------------------

    def mark(self) -> RoomMark:
        """The room as it is now, to :meth:`rewind` to if the next batch is not stored."""
        return RoomMark(
            match=self.match.mark(),
            last_seq=self.log.last_seq,
            chat=tuple(self.chat),
            draw_offer=self.draw_offer,
            rematch_offer=self.rematch_offer,
            rematch_room=self.rematch_room,
            ai_pending=self.ai_pending,
            finished_at_ms=self.finished_at_ms,
            rating=self.rating,
            listed=(self._last_summary, self._last_changes, self._listed_ply),
        )

    def rewind(self, mark: RoomMark) -> None:
        """Go back to ``mark``: a batch made since was not stored (see
        :mod:`gamut_server.rooms.rollback`). Who follows the room stays as it is."""
        self.match.rewind(mark.match)
        self.log.rewind(mark.last_seq)
        self.chat.clear()
        self.chat.extend(mark.chat)
        self.draw_offer, self.rematch_offer = mark.draw_offer, mark.rematch_offer
        self.rematch_room, self.ai_pending = mark.rematch_room, mark.ai_pending
        self.finished_at_ms, self.rating = mark.finished_at_ms, mark.rating
        self._last_summary, self._last_changes, self._listed_ply = mark.listed

    # --- comings and goings ----------------------------------------------------------

    def rated(self, rating: GameRated) -> list[Effect]:
        """The game was rated: everyone following the room is told the new ratings."""
        self.rating = rating
        everyone = self.members.everyone()
        return [Send(everyone, rating)] if everyone else []

    def _admit(self, who: Who, side: int | None, now_ms: int) -> list[Effect]:
        """``who`` follows the room, playing ``side``; an away seat comes back."""
        effects: list[Effect] = []
        if side is not None:
            if side in self.members.away_since:
                event = PlayerConnected(room_id=self.room_id, seq=self._seq(), side=wire_side(side))
                effects += self._publish(event, None)
            self.members.restart_absence(1 - side, now_ms)
        self.members.add(who, side)
        return effects

    def _dismiss(self, conn: ConnectionId, now_ms: int) -> list[Effect]:
        """``conn`` no longer follows the room; its seat may now be away."""
        member = self.members.remove(conn)
        if member is None or member.side is None or self.members.seated(member.side):
            return []
        side = member.side
        self.members.mark_away(side, now_ms)
        grace = None if self.match.over else self._grace_ms()
        event = PlayerDisconnected(
            room_id=self.room_id, seq=self._seq(), side=wire_side(side), grace_ms=grace
        )
        effects = self._publish(event, None)
        if self.match.over and self.rematch_offer == side:
            self.rematch_offer = None
            declined = RematchDeclined(room_id=self.room_id, seq=self._seq(), side=wire_side(side))
            effects += self._publish(declined, None)
        return effects

    def _mark_absent_seats(self, now_ms: int) -> None:
        """Start the absence of every human seat nobody occupies."""
        for side, seat in enumerate(self.spec.seats):
            if not seat.is_ai and not self.members.seated(side):
                self.members.mark_away(side, now_ms)

    def _absence_deadline(self) -> tuple[int, int | None] | None:
        """When an absence ends the game, and the winner then (``None``: a draw)."""
        away = self.members.away_since
        if len(away) == 2:
            return max(away.values()) + max(self.config.abandon_ms, self._grace_ms()), None
        for side, since in away.items():
            return since + self._grace_ms(), 1 - side
        return None

    def _grace_ms(self) -> int:
        """How long an away player has: without a clock, a long time (a closed laptop
        must not lose) unless the opponent is the server's AI, which waits for nobody (a
        closed tab must not keep the game running and listed for days); else the
        server's grace period."""
        if self.spec.time_control.kind != "untimed":
            return self.config.grace_ms
        if any(seat.is_ai for seat in self.spec.seats):
            return self.config.untimed_ai_grace_ms
        return self.config.untimed_grace_ms

    # --- playing ---------------------------------------------------------------------

    def _play(self, move: Any, now_ms: int, reply: Reply | None) -> list[Effect]:
        """Play a checked move: store it, tell everyone, then end the game or ask the AI."""
        played = self.match.play(move, now_ms)
        if self.draw_offer is not None and self.draw_offer != played.side:
            self.draw_offer = None
        clock = self.match.clock
        # Every field comes from the engine, the clocks or the room, already as the
        # protocol has them: the event is built without validating its position and legal
        # moves again, every move (the protocol tests check that it reads back the same).
        event = MoveMade.model_construct(
            room_id=self.room_id,
            seq=self._seq(),
            ply=played.ply,
            side=wire_side(played.side),
            move=played.text,
            cells=played.cells,
            think_ms=played.think_ms,
            clocks=clock.clocks(now_ms),
            position=self.match.position(),
            legal_moves=self.match.legal(),
        )
        stored = clock.stored(now_ms)
        effects: list[Effect] = [
            StoreMove(
                self.room_id,
                played.ply,
                played.text,
                played.side,
                played.think_ms,
                stored,
                event.seq,
            )
        ]
        effects += self._publish(event, reply)
        result = self.match.ended_by_rules()
        if result is not None:
            return effects + self._finish(result, now_ms)
        return effects + self._ask_ai(now_ms)

    def _finish(
        self, result: Any, now_ms: int, reply: Reply | None = None, *, aborted: bool = False
    ) -> list[Effect]:
        """End the game with ``result``: store it, then announce ``game_over``."""
        self.match.finish(result, now_ms, aborted=aborted)
        self.draw_offer = None
        self.ai_pending = None
        self.finished_at_ms = now_ms
        clock = self.match.clock
        event = GameOver(
            room_id=self.room_id, seq=self._seq(), result=result, clocks=clock.clocks(now_ms)
        )
        store: Effect
        if aborted:
            store = StoreAbort(self.room_id, result.reason, event.seq)
        else:
            stopped = clock.stored(now_ms) if clock.timed else None
            store = StoreResult(self.room_id, stored_result(result), stopped, event.seq)
        return [store, *self._publish(event, reply)]

    def _ask_ai(self, now_ms: int) -> list[Effect]:
        """Ask the AI for a move if it is to move and has not been asked yet."""
        match = self.match
        seat = self.spec.seats[match.to_move]
        if match.over or not seat.is_ai or self.ai_pending == match.ply:
            return []
        self.ai_pending = match.ply
        request = RequestAIMove(
            room_id=self.room_id,
            game=self.spec.game,
            options=dict(self.descriptor.options),
            moves=match.move_texts(),
            ply=match.ply,
            side=match.to_move,
            level=seat.level or 1,
            budget_ms=match.ai_budget_ms(now_ms),
        )
        return [request]

    def _start_rematch(self, reply: Reply) -> list[Effect]:
        """Both want a rematch: open the new room with the sides exchanged."""
        new_id = self.config.new_room_id()
        self.rematch_room = new_id
        self.rematch_offer = None
        players = self.members.of_side(0) + self.members.of_side(1)
        opening = OpenRoom(room_id=new_id, spec=self.spec.swapped(), members=players)
        event = RematchStarted(room_id=self.room_id, seq=self._seq(), new_room_id=new_id)
        return [opening, *self._publish(event, reply)]

    # --- sending ---------------------------------------------------------------------

    def _seq(self) -> int:
        """The number of the next event."""
        return self.log.next_seq()

    def _publish(self, event: SequencedEvent, reply: Reply | None) -> list[Effect]:
        """Log ``event`` and send it to everyone in the room; the asker's copy answers it."""
        self.log.append(event)
        if reply is None or reply[1] is None or self.members.get(reply[0]) is None:
            return self._sends(self.members.everyone(), event)
        conn, answered = reply
        effects = self._sends(self.members.others(conn), event)
        return effects + self._sends((conn,), event.model_copy(update={"reply_to": answered}))

    def _sends(self, to: tuple[ConnectionId, ...], event: SequencedEvent) -> list[Effect]:
        """The sends of ``event`` to ``to``: a ``move_made``'s legal moves go in full to
        the player to move, and to the others only if they speak a protocol before 3."""
        if not to:
            return []
        if not isinstance(event, MoveMade) or not event.legal_moves:
            return [Send(to, event)]
        side = self.match.to_move
        movers = tuple(conn for conn in to if self._side_of_conn(conn) == side)
        others = tuple(conn for conn in to if conn not in movers)
        lean = event.model_copy(update={"legal_moves": ()})
        sends: list[Effect] = [Send(movers, event)] if movers else []
        return sends + ([Send(others, event, lean)] if others else [])

    def _side_of_conn(self, conn: ConnectionId) -> int | None:
        """The side connection ``conn`` plays here, if any."""
        member = self.members.get(conn)
        return None if member is None else member.side

    def _send_snapshot(self, who: Who, now_ms: int, reply_to: CorrelationId | None) -> Send:
        """A snapshot for ``who``, answering their message ``reply_to``."""
        snapshot = self.snapshot(who, now_ms)
        if reply_to is not None:
            snapshot = snapshot.model_copy(update={"reply_to": reply_to})
        return Send((who.conn,), snapshot)

    def _with_summary(self, effects: list[Effect]) -> list[Effect]:
        """``effects``, plus a :class:`RoomChanged` if the lobby's summary of the room changed,
        or a :class:`RoomMoved` if only its ply did (the summary is not rebuilt per move)."""
        if not self.started:
            return effects
        changes = (self.match.status, self.members.changes)
        if changes != self._last_changes:
            self._last_changes = changes
            summary = self.summary()
            if summary != self._last_summary:
                self._last_summary, self._listed_ply = summary, summary.ply
                effects.append(RoomChanged(summary))
        if self.match.ply != self._listed_ply:
            self._listed_ply = self.match.ply
            effects.append(RoomMoved(self.room_id, self.match.ply))
        return effects

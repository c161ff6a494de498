"""A room: one game between two seats, refereed by the engine, as a synchronous state machine.

The async layer drives a room by calling its methods with the current time in
milliseconds (``now_ms``, from any monotonic source) and performing the effects each
call returns (see :mod:`gamut_server.rooms.effects`). A room never reads the time,
never sleeps and never does I/O.

The rules a room keeps:

- A message is checked in order: who is asking (``not_in_room`` unless the connection
  follows the room, ``not_a_player`` for a spectator), whether the game is still on
  (``game_over``), whose turn it is (``not_your_turn``), the ply answered
  (``stale_ply``), then the engine's notation (``invalid_move``) and rules
  (``illegal_move`` with the engine's reason code and sentence).
- Every room event carries the next sequence number and is kept for replay on
  ``resume`` (up to ``RoomConfig.max_events``); older or unknown ranges get a snapshot.
- Every call first applies whatever fell due by ``now_ms`` (a flag, a grace period), so
  a move that arrives after the flag fell loses on time even if the timer was late.
- Reconnection: when a seat loses its last connection (a drop or a ``leave`` during
  the game), a ``player_disconnected`` event gives the grace period. If the player is
  not back when it runs out *while the opponent is present*, the opponent wins
  automatically (``abandoned``); no claim message is needed. If the opponent is away
  too, the absence only counts again once the opponent returns; when both have been
  away for ``RoomConfig.abandon_ms``, the game ends drawn (``abandoned``, no winner).
  Clocks keep running meanwhile.
- Draws: an offer lapses when the offerer's opponent moves or declines; offering while
  the opponent's offer is pending accepts it. The server's AI declines every offer.
- Abort: either player, while fewer than two moves have been played.
- Rematch: after the game, ``rematch`` offers one or accepts the opponent's; the AI
  accepts at once. The rematch is a new room with the sides exchanged
  (an :class:`~gamut_server.rooms.effects.OpenRoom` effect plus ``rematch_started``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, TypeAlias

from gamut_protocol import (
    Abort,
    AcceptDraw,
    AnyRoomRequest,
    Chat,
    ChatEntry,
    ChatLine,
    ChatRemoved,
    DeclineDraw,
    DeclineRematch,
    DrawDeclined,
    DrawOffered,
    Join,
    Leave,
    Move,
    OfferDraw,
    Rematch,
    RematchDeclined,
    RematchOffered,
    Resign,
    Resume,
    RoomLeft,
)
from gamut_server.records.games import REMOVED_LINE, GameRecord
from gamut_server.records.games import ChatLine as StoredChatLine
from gamut_server.rooms.clock import GameClock
from gamut_server.rooms.describe import game_result
from gamut_server.rooms.effects import (
    ConnectionId,
    CorrelationId,
    Effect,
    Log,
    RequestAIMove,
    Send,
    StartGame,
    StoreChat,
    Who,
)
from gamut_server.rooms.events import EventLog
from gamut_server.rooms.refusal import RefusalError
from gamut_server.rooms.room_core import RoomCore
from gamut_server.rooms.room_state import wire_side
from gamut_server.rooms.spec import RoomConfig
from gamut_server.rooms.stored import new_game, spec_from_record

RoomMessage: TypeAlias = AnyRoomRequest | Chat
"""The client messages a room handles: every room request of the protocol, and a
``chat`` with a ``room_id``."""


Handler: TypeAlias = Callable[["Room", Who, Any, int], list[Effect]]


class Room(RoomCore):
    """One game: seats, spectators, the engine state, clocks and the numbered event log."""

    # --- life cycle ------------------------------------------------------------------

    @classmethod
    def restore(
        cls,
        record: GameRecord,
        chat: Sequence[StoredChatLine] = (),
        config: RoomConfig | None = None,
        *,
        now_ms: int,
    ) -> Room:
        """A room rebuilt from storage after a restart, its moves replayed through the engine.

        The clocks restart from the stored ones at ``now_ms``: the downtime is charged
        to nobody. Nobody is connected; each player has the grace period to come back.
        Call :meth:`resume_play` next. Raises ``ValueError`` for a record that cannot be
        played on (an empty seat, a finished game, a move the rules refuse).
        """
        info = record.info
        if info.status not in ("waiting", "running"):
            raise ValueError(f"game {info.id} is {info.status}, not unfinished")
        room = cls(info.id, spec_from_record(info), config)
        moves = record.moves
        room.match.replay([m.move for m in moves], [m.think_ms for m in moves])
        room.match.clock = GameClock(
            room.spec.time_control,
            lag_allowance_ms=room.config.lag_allowance_ms,
            remaining=info.clock.remaining_ms,
        )
        room.match.clock.start(room.match.to_move, now_ms)
        seqs = [info.last_seq, *(m.seq for m in moves), *(line.seq for line in chat)]
        room.log = EventLog(max(seqs), keep=room.config.max_events)
        room.chat.extend(ChatEntry(author=c.author, text=c.text, seq=c.seq) for c in chat)
        room.started = True
        room._mark_absent_seats(now_ms)
        return room

    def start(
        self,
        members: Sequence[Who],
        now_ms: int,
        reply_to: tuple[ConnectionId, CorrelationId] | None = None,
    ) -> list[Effect]:
        """Start the game: store it, seat ``members``, send each a snapshot, start the clock.

        A seat whose player is not among ``members`` starts its grace period at once.
        """
        if self.started:
            raise RuntimeError(f"room {self.room_id} has already started")
        self.started = True
        self.match.clock.start(0, now_ms)
        effects: list[Effect] = [
            StartGame(new_game(self.room_id, self.spec, self.match.clock.stored(now_ms)))
        ]
        effects += self._play_opening(now_ms)
        for who in members:
            self.members.add(who, self._seat_of(who))
        self._mark_absent_seats(now_ms)
        for who in members:
            answers = reply_to[1] if reply_to and reply_to[0] == who.conn else None
            effects.append(self._send_snapshot(who, now_ms, answers))
        effects += self._ask_ai(now_ms)
        return self._with_summary(effects)

    def _play_opening(self, now_ms: int) -> list[Effect]:
        """Play the spec's opening moves, each stored and numbered like any move (the AI
        is asked only once the opening is over)."""
        effects: list[Effect] = []
        for text in self.spec.opening:
            move = self.match.check(self.match.to_move, text, self.match.ply)
            played = self._play(move, now_ms, None)
            effects += [effect for effect in played if not isinstance(effect, RequestAIMove)]
        return effects

    def resume_play(self, now_ms: int) -> list[Effect]:
        """After :meth:`restore`: ask the AI if it is to move, or end a game already over."""
        effects = self.expire(now_ms)
        result = None if self.match.over else self.match.ended_by_rules()
        if result is not None:
            effects += self._finish(result, now_ms)
        else:
            effects += self._ask_ai(now_ms)
        return self._with_summary(effects)

    # --- driving ---------------------------------------------------------------------

    def handle(self, who: Who, message: RoomMessage, now_ms: int) -> list[Effect]:
        """Answer one client message about this room."""
        effects = self.expire(now_ms)
        handler = _HANDLERS[type(message)]
        try:
            effects += handler(self, who, message, now_ms)
        except RefusalError as refusal:
            error = refusal.to_message(message.type, message.id, self.room_id)
            effects.append(Send((who.conn,), error))
        return self._with_summary(effects)

    def connected(self, who: Who, now_ms: int) -> list[Effect]:
        """Add a connection to the room (a player takes their seat back); no snapshot is sent."""
        effects = self.expire(now_ms)
        effects += self._admit(who, self._seat_of(who), now_ms)
        return self._with_summary(effects)

    def disconnected(self, who: Who, now_ms: int) -> list[Effect]:
        """A connection closed; a player's grace period starts when their last one goes."""
        effects = self.expire(now_ms)
        effects += self._dismiss(who.conn, now_ms)
        return self._with_summary(effects)

    def stop(self, now_ms: int) -> list[Effect]:
        """A moderator calls the game off, however far it went: it ends aborted, unrated
        (nothing if it is over already)."""
        if self.over:
            return []
        result = game_result(self.match.game, None, "aborted")
        return self._with_summary(self._finish(result, now_ms, aborted=True))

    def remove_chat(self, seq: int) -> list[Effect]:
        """A moderator removes the chat line numbered ``seq`` for everyone: it leaves the
        chat snapshots show, a resume replays it without its words, and everyone in the
        room is told (nothing if no such line is kept)."""
        entry = next((line for line in self.chat if line.seq == seq), None)
        if entry is None:
            return []
        self.chat.remove(entry)
        self.log.redact(seq, REMOVED_LINE)
        everyone = self.members.everyone()
        removed = ChatRemoved(
            room_id=self.room_id, line_seq=seq, author=entry.author, text=entry.text
        )
        return [Send(everyone, removed)] if everyone else []

    def expire(self, now_ms: int) -> list[Effect]:
        """Apply what is due by ``now_ms``: a flag falling, a grace period running out."""
        if not self.started or self.match.over:
            return []
        flag = self.match.clock.deadline_ms()
        absence = self._absence_deadline()
        if flag is not None and flag <= now_ms and (absence is None or flag <= absence[0]):
            loser = self.match.to_move
            result = game_result(self.match.game, 1 - loser, "timeout")
            return self._with_summary(self._finish(result, now_ms))
        if absence is not None and absence[0] <= now_ms:
            result = game_result(self.match.game, absence[1], "abandoned")
            return self._with_summary(self._finish(result, now_ms))
        return []

    def next_deadline_ms(self) -> int | None:
        """When :meth:`expire` next has something to do; ``None`` when nothing is pending."""
        if not self.started or self.match.over:
            return None
        absence = self._absence_deadline()
        times = [self.match.clock.deadline_ms(), absence[0] if absence else None]
        due = [time for time in times if time is not None]
        return min(due) if due else None

    def ai_move(self, ply: int, text: str, now_ms: int) -> list[Effect]:
        """The AI's answer to a :class:`~gamut_server.rooms.effects.RequestAIMove` for ``ply``.

        An answer for another ply, or after the game ended, is ignored (with a
        :class:`~gamut_server.rooms.effects.Log`). A move the rules refuse is logged and
        replaced by the first legal move, so a faulty AI never stalls a game.
        """
        effects = self.expire(now_ms)
        side = self.match.to_move
        if self.match.over or self.ai_pending != ply or self.match.ply != ply:
            note = f"room {self.room_id}: AI answer {text!r} for ply {ply} ignored"
            return [*effects, Log("info", note)]
        self.ai_pending = None
        try:
            move = self.match.check(side, text, ply)
        except RefusalError as refusal:
            note = f"room {self.room_id}: AI move {text!r} refused ({refusal.message})"
            effects.append(Log("error", note))
            move = self.match.game.legal_moves(self.match.state)[0]
        effects += self._play(move, now_ms, None)
        return self._with_summary(effects)

    # --- message handlers ------------------------------------------------------------

    def _on_join(self, who: Who, message: Join, now_ms: int) -> list[Effect]:
        """Enter as a player (one's own seat) or as a spectator; answered by a snapshot."""
        side = self._seat_of(who)
        if message.role == "player" and side is None:
            raise RefusalError("seat_taken", "the seats of this room belong to other players")
        if message.role == "spectator":
            member = self.members.get(who.conn)
            side = member.side if member is not None else None
        effects = self._admit(who, side, now_ms)
        effects.append(self._send_snapshot(who, now_ms, message.id))
        return effects

    def _on_resume(self, who: Who, message: Resume, now_ms: int) -> list[Effect]:
        """Come back: replay the events after ``after_seq``, or send a snapshot."""
        effects = self._admit(who, self._seat_of(who), now_ms)
        events = self.log.after(message.after_seq)
        if not events:
            effects.append(self._send_snapshot(who, now_ms, message.id))
            return effects
        effects += [Send((who.conn,), event) for event in events[:-1]]
        last = events[-1].model_copy(update={"reply_to": message.id})
        effects.append(Send((who.conn,), last))
        if self.rating is not None:
            effects.append(Send((who.conn,), self.rating))
        return effects

    def _on_leave(self, who: Who, message: Leave, now_ms: int) -> list[Effect]:
        """Stop following the room; a player's seat counts as away."""
        self._member_side(who)
        effects = self._dismiss(who.conn, now_ms)
        left = RoomLeft(room_id=self.room_id, reply_to=message.id)
        effects.append(Send((who.conn,), left))
        return effects

    def _on_move(self, who: Who, message: Move, now_ms: int) -> list[Effect]:
        """Check and play a move."""
        side = self._player(who)
        move = self.match.check(side, message.move, message.ply)
        return self._play(move, now_ms, (who.conn, message.id))

    def _on_resign(self, who: Who, message: Resign, now_ms: int) -> list[Effect]:
        """The opponent wins."""
        side = self._running_player(who)
        result = game_result(self.match.game, 1 - side, "resign")
        return self._finish(result, now_ms, (who.conn, message.id))

    def _on_abort(self, who: Who, message: Abort, now_ms: int) -> list[Effect]:
        """Call the game off while fewer than two moves have been played."""
        self._running_player(who)
        if self.match.ply >= 2:
            raise RefusalError(
                "too_late_to_abort", "both sides have moved: resign or offer a draw instead"
            )
        result = game_result(self.match.game, None, "aborted")
        return self._finish(result, now_ms, (who.conn, message.id), aborted=True)

    def _on_offer_draw(self, who: Who, message: OfferDraw, now_ms: int) -> list[Effect]:
        """Offer a draw, or accept the opponent's pending offer."""
        side = self._running_player(who)
        reply = (who.conn, message.id)
        if self.draw_offer == 1 - side:
            return self._finish(game_result(self.match.game, None, "agreement"), now_ms, reply)
        if self.draw_offer == side:
            raise RefusalError("unavailable", "you have already offered a draw")
        effects = self._publish(
            DrawOffered(room_id=self.room_id, seq=self._seq(), side=wire_side(side)), reply
        )
        if self.spec.seats[1 - side].is_ai:
            declined = DrawDeclined(room_id=self.room_id, seq=self._seq(), side=wire_side(1 - side))
            return effects + self._publish(declined, None)
        self.draw_offer = side
        return effects

    def _on_accept_draw(self, who: Who, message: AcceptDraw, now_ms: int) -> list[Effect]:
        """End the game drawn by agreement."""
        side = self._running_player(who)
        if self.draw_offer != 1 - side:
            raise RefusalError("nothing_offered", "your opponent has not offered a draw")
        result = game_result(self.match.game, None, "agreement")
        return self._finish(result, now_ms, (who.conn, message.id))

    def _on_decline_draw(self, who: Who, message: DeclineDraw, now_ms: int) -> list[Effect]:
        """Turn the opponent's draw offer down."""
        side = self._running_player(who)
        if self.draw_offer != 1 - side:
            raise RefusalError("nothing_offered", "your opponent has not offered a draw")
        self.draw_offer = None
        event = DrawDeclined(room_id=self.room_id, seq=self._seq(), side=wire_side(side))
        return self._publish(event, (who.conn, message.id))

    def _on_rematch(self, who: Who, message: Rematch, now_ms: int) -> list[Effect]:
        """Offer a rematch after the game, or accept the opponent's."""
        side = self._player(who)
        if self.spec.pool is not None:
            raise RefusalError("unavailable", "ladder games have no rematch: the pool pairs anew")
        if not self.match.over:
            raise RefusalError("unavailable", "a rematch can be offered once the game is over")
        if self.rematch_room is not None:
            raise RefusalError("unavailable", f"the rematch is in room {self.rematch_room}")
        reply = (who.conn, message.id)
        if self.rematch_offer == 1 - side or self.spec.seats[1 - side].is_ai:
            return self._start_rematch(reply)
        if self.rematch_offer == side:
            raise RefusalError("unavailable", "you have already offered a rematch")
        self.rematch_offer = side
        return self._publish(
            RematchOffered(room_id=self.room_id, seq=self._seq(), side=wire_side(side)), reply
        )

    def _on_decline_rematch(self, who: Who, message: DeclineRematch, now_ms: int) -> list[Effect]:
        """Turn the opponent's rematch offer down."""
        side = self._player(who)
        if self.rematch_offer != 1 - side:
            raise RefusalError("nothing_offered", "your opponent has not offered a rematch")
        self.rematch_offer = None
        event = RematchDeclined(room_id=self.room_id, seq=self._seq(), side=wire_side(side))
        return self._publish(event, (who.conn, message.id))

    def _on_chat(self, who: Who, message: Chat, now_ms: int) -> list[Effect]:
        """Say something to everyone in the room; it is stored and numbered."""
        self._member_side(who)
        seq = self._seq()
        line = ChatLine(room_id=self.room_id, seq=seq, author=who.name, text=message.text)
        self.chat.append(ChatEntry(author=who.name, text=message.text, seq=seq))
        effects: list[Effect] = [StoreChat(self.room_id, seq, who.name, message.text)]
        return effects + self._publish(line, (who.conn, message.id))


_HANDLERS: dict[type, Handler] = {
    Join: Room._on_join,
    Resume: Room._on_resume,
    Leave: Room._on_leave,
    Move: Room._on_move,
    Resign: Room._on_resign,
    Abort: Room._on_abort,
    OfferDraw: Room._on_offer_draw,
    AcceptDraw: Room._on_accept_draw,
    DeclineDraw: Room._on_decline_draw,
    Rematch: Room._on_rematch,
    DeclineRematch: Room._on_decline_rematch,
    Chat: Room._on_chat,
}

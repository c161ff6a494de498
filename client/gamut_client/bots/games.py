"""The games a bot plays: each followed move by move, its moves asked for and checked.

:class:`BotGames` is the part of :class:`~gamut_client.bots.runner.BotRunner` that sits
at the bot's tables: it follows each game with a
:class:`~gamut_client.bots.view.GameTracker`, asks the bot for a move whenever it is the
bot's turn (in a worker thread, one call at a time per game), checks the move against
the engine when it knows the game, counts refused moves and resigns after too many.
The runner tells it what the server said about its games, and looks for the next game
when one starts or ends.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Coroutine
from dataclasses import dataclass, field
from typing import Any, Final

from gamut_client.bots.base import Bot
from gamut_client.bots.plan import SeekBook
from gamut_client.bots.view import GameTracker, GameView
from gamut_client.bots.workers import Workers
from gamut_engine import IllegalMoveError, InvalidMoveError
from gamut_protocol import (
    ClientMessage,
    ErrorMessage,
    GameOver,
    Move,
    MoveMade,
    Resign,
    RoomSnapshot,
)

log = logging.getLogger(__name__)

MAX_BAD_MOVES: Final = 3
"""Refused moves in a row after which the runner resigns the game for the bot."""

BAD_MOVE_ERRORS: Final = frozenset({"invalid_move", "illegal_move"})
"""Refusals of a move that mean the bot should choose another one (others, such as
``stale_ply`` after a reconnection, only mean the move arrived late)."""


@dataclass
class Table:
    """One game the bot plays."""

    tracker: GameTracker
    """The game as the messages reveal it."""
    lane: asyncio.Lock = field(default_factory=asyncio.Lock)
    """Held while bot code runs for this game, so its calls keep their order."""
    thinking: int | None = None
    """The ply the bot is thinking about."""
    sent: Move | None = None
    """The move sent and not yet seen played."""
    bad_moves: int = 0
    """Moves refused in a row."""

    @property
    def view(self) -> GameView:
        """The game as it is now."""
        return self.tracker.view


class BotGames:
    """The games one bot is playing, and those it has finished."""

    def __init__(
        self,
        bot: Bot,
        book: SeekBook,
        workers: Workers,
        send: Callable[[ClientMessage], Coroutine[Any, Any, None]],
        new_id: Callable[[str], str],
        on_game_end: Callable[[GameView], None] | None = None,
    ) -> None:
        """The games of ``bot``, whose messages go out through ``send`` (with ids from
        ``new_id``); ``on_game_end`` hears of each game as it ends."""
        self.bot = bot
        self.book = book
        self.workers = workers
        self._send = send
        self._new_id = new_id
        self.on_game_end = on_game_end
        self.tables: dict[str, Table] = {}
        """The games being played, by room."""
        self.ended: list[GameView] = []
        """The games that ended, as last seen, in the order they ended."""

    def playing(self, room_id: str) -> bool:
        """Whether the bot is playing a game in ``room_id``."""
        return room_id in self.tables

    def view_of(self, room_id: str) -> GameView | None:
        """The bot's game in ``room_id``, running or ended, if it has one."""
        table = self.tables.get(room_id)
        if table is not None:
            return table.view
        return next((view for view in reversed(self.ended) if view.room_id == room_id), None)

    def snapshot(self, snapshot: RoomSnapshot) -> bool:
        """A game starts (or is seen afresh after a resume); whether it is one of the
        bot's games (started, going on or just over)."""
        if snapshot.your_side is None:
            return False
        table = self.tables.get(snapshot.room_id)
        if table is None:
            if snapshot.status != "running":
                return False
            if not self.book.game_started(snapshot.room_id, snapshot.reply_to):
                return False
            table = Table(GameTracker.from_snapshot(snapshot))
            self.tables[snapshot.room_id] = table
            log.info("game %s started: %s", snapshot.room_id, snapshot.game.title)
            self.workers.in_lane_later(table.lane, self.bot.on_game_start, table.view)
        else:
            table.tracker = GameTracker.from_snapshot(snapshot)
            if table.sent is not None and table.sent.ply != table.view.ply:
                table.sent = None
        if snapshot.status != "running":
            self._finish(table)
        else:
            self._maybe_think(table)
        return True

    def move_made(self, event: MoveMade) -> None:
        """Follow a move; think if it is the bot's turn."""
        table = self.tables.get(event.room_id)
        if table is None:
            return
        table.tracker.move_made(event)
        if event.side == table.view.my_side:
            table.sent = None
            table.bad_moves = 0
        self._maybe_think(table)

    def game_over(self, event: GameOver) -> bool:
        """A game ended; whether it was one of the bot's."""
        table = self.tables.get(event.room_id)
        if table is None:
            return False
        table.tracker.game_over(event)
        self._finish(table)
        return True

    def move_refused(self, error: ErrorMessage) -> bool:
        """Handle the refusal of one of the bot's moves; whether ``error`` was one."""
        if error.request != "move" or error.room_id not in self.tables:
            return False
        table = self.tables[error.room_id]
        if error.code in BAD_MOVE_ERRORS and table.sent is not None:
            self._bad_move(table, f"{table.sent.move!r} refused: {error.message}")
        return True

    async def send_again(self) -> None:
        """After a reconnection, send again the moves the server may not have seen."""
        for table in self.tables.values():
            if table.sent is not None and table.sent.ply == table.view.ply:
                await self._send(table.sent)

    def _finish(self, table: Table) -> None:
        """Record the end of a game and tell the bot."""
        view = table.view
        self.tables.pop(view.room_id, None)
        self.book.game_ended(view.room_id)
        self.ended.append(view)
        if self.on_game_end is not None:
            self.on_game_end(view)
        result = view.result
        log.info("game %s over: %s", view.room_id, result.message if result else "?")
        self.workers.in_lane_later(table.lane, self.bot.on_game_end, view)

    def _maybe_think(self, table: Table) -> None:
        """Ask the bot for a move if it is its turn and it is not already on it."""
        view = table.view
        if not view.my_turn or table.thinking == view.ply:
            return
        if table.sent is not None and table.sent.ply == view.ply:
            return
        table.thinking = view.ply
        self.workers.spawn(self._think(table, view))

    async def _think(self, table: Table, view: GameView) -> None:
        """Run the bot's ``choose_move`` off the loop and send its move if still wanted."""
        try:
            text = await self.workers.in_lane(table.lane, self.bot.choose_move, view)
        except Exception:
            log.exception("the bot failed to choose a move in %s; resigning", view.room_id)
            await self._send(Resign(room_id=view.room_id))
            return
        finally:
            if table.thinking == view.ply:
                table.thinking = None
        current = table.view
        if text is None or current.ply != view.ply or not current.my_turn:
            return
        move = self._checked_move(table, view, text)
        if move is not None:
            table.sent = move
            await self._send(move)

    def _checked_move(self, table: Table, view: GameView, text: str) -> Move | None:
        """The move to send for ``text`` (in canonical notation when the engine knows the game),
        or ``None`` after counting a bad move."""
        if view.game is not None:
            try:
                text = view.game.format_move(view.game.parse_move(view.state, text))
            except (InvalidMoveError, IllegalMoveError) as error:
                self._bad_move(table, f"{text!r}: {error}")
                return None
        return Move(id=self._new_id("move"), room_id=view.room_id, move=text, ply=view.ply)

    def _bad_move(self, table: Table, why: str) -> None:
        """Ask again after a refused move, or resign after too many."""
        table.bad_moves += 1
        table.sent = None
        view = table.view
        log.warning("bad move in %s (%d in a row): %s", view.room_id, table.bad_moves, why)
        if table.bad_moves >= MAX_BAD_MOVES:
            self.workers.spawn(self._send(Resign(room_id=view.room_id)))
        else:
            self._maybe_think(table)

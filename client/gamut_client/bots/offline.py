"""Bots as the engine's players, so ``gamut match`` can play anything ``gamut bot`` runs.

A :class:`BotPlayer` shows a :class:`~gamut_client.bots.base.Bot` (a bridge to a
Gomocup engine, a line-protocol program or a single-move program, or a bot class) the same
:class:`~gamut_client.bots.view.GameView` a server would, built from the engine's game
and state: the game's descriptor, the position, the legal moves, every move played so
far (the match tells the player the opening; later moves are read off the positions),
and the time control, untimed or a fixed time a move. No server is involved.
"""

from __future__ import annotations

import logging
import time
from dataclasses import replace
from typing import Any, Final

from gamut_client.bots.base import Bot, BotError
from gamut_client.bots.specs import load_bot
from gamut_client.bots.view import GameView
from gamut_client.bridges.process import BridgeError
from gamut_engine import AnyGame
from gamut_engine.match import seeded_player
from gamut_engine.players import Player, held_to_move_time
from gamut_protocol import (
    Clocks,
    GameDescriptor,
    GameResult,
    HexGeometry,
    NotationHint,
    PerMove,
    Position,
    Seat,
    Side,
    SquareGeometry,
    TimeControl,
    Untimed,
)

log = logging.getLogger(__name__)

ENGINE_PREFIXES: Final = ("random", "ai")
"""Spec kinds the engine's own players handle directly."""


def describe(game: AnyGame) -> GameDescriptor:
    """The descriptor of an engine game, as a server would send it."""
    rows = game.geometry.rows
    areas = {name: tuple(sorted(cells)) for name, cells in game.geometry.areas.items()}
    geometry: SquareGeometry | HexGeometry
    if game.geometry.kind == "hex":
        geometry = HexGeometry(n=len(rows[0]), rows=rows, areas=areas)
    else:
        geometry = SquareGeometry(width=len(rows[0]), height=len(rows), rows=rows, areas=areas)
    options = {key: value for key, value in game.options.items() if isinstance(value, int | str)}
    return GameDescriptor(
        name=game.name,
        options=options,
        title=game.title,
        sides=game.sides,
        geometry=geometry,
        notation=NotationHint(summary="moves in the game's notation"),
    )


def position(game: AnyGame, state: Any) -> Position:
    """The protocol position of an engine state."""
    return Position.model_validate(
        {
            "encoding": game.encode(state),
            "board": game.occupancy(state),
            "to_move": game.to_move(state),
            "ply": game.ply(state),
        }
    )


class BotPlayer:
    """An engine player that asks a bot for its moves, one game at a time."""

    def __init__(self, bot: Bot, *, move_seconds: float | None = None, name: str = "bot") -> None:
        """Play with ``bot``; ``move_seconds`` is the time a move it is told (else untimed)."""
        self.bot = bot
        self.move_seconds = move_seconds
        self.name = name
        self.room_id = f"match-{id(self):x}"
        self.moves: list[str] = []
        self.seen: Any = None
        """The last position this player saw or made, to read the opponent's move off."""
        self.view: GameView | None = None

    def start_game(self, game: AnyGame, state: Any, moves: tuple[Any, ...]) -> None:
        """A game begins at ``state``, reached from the start by ``moves``."""
        self.moves = [game.format_move(move) for move in moves]
        self.seen = state

    def choose_move(self, game: AnyGame, state: Any) -> Any:
        """The bot's move, or ``None`` (which loses the game) if it resigns or fails."""
        self._catch_up(game, state)
        view = self._view(game, state)
        try:
            if self.view is None:
                self.bot.on_game_start(view)
            self.view = view
            text = self.bot.choose_move(view)
            move = None if text is None else game.parse_move(state, text)
        except (BotError, BridgeError, ValueError) as error:
            log.warning("%s gives up the game: %s", self.name, error)
            return None
        if move is None:
            return None
        self.moves.append(game.format_move(move))
        self.seen = game.play(state, move)
        return move

    def end_game(self, winner: int | None, reason: str) -> None:
        """The game is over (``winner`` is a side or ``None``): tell the bot, then close it."""
        try:
            if self.view is not None:
                side = None if winner is None else _side(winner)
                result = GameResult(winner=side, reason=reason)
                self.bot.on_game_end(replace(self.view, result=result, legal_moves=()))
        finally:
            self.bot.close()

    def _catch_up(self, game: AnyGame, state: Any) -> None:
        """Add the opponent's move since the last position seen, found by trying each."""
        if self.seen is None:
            self.seen = game.initial_state()
        if state == self.seen or game.outcome(self.seen) is not None:
            return
        for move in game.legal_moves(self.seen):
            if game.play(self.seen, move) == state:
                self.moves.append(game.format_move(move))
                self.seen = state
                return
        raise ValueError("the game moved on by more than one move since this player last saw it")

    def _view(self, game: AnyGame, state: Any) -> GameView:
        """What the bot is shown of ``state``."""
        side = _side(game.to_move(state))
        control: TimeControl = Untimed()
        clocks = None
        if self.move_seconds is not None:
            move_ms = max(100, round(self.move_seconds * 1000))
            control = PerMove(move_ms=move_ms)
            clocks = Clocks(remaining_ms=(move_ms, move_ms), running=side)
        return GameView(
            room_id=self.room_id,
            descriptor=describe(game),
            my_side=side,
            players=(Seat(name=self.name, kind="bot"), Seat(name="opponent", kind="bot")),
            time_control=control,
            position=position(game, state),
            legal_moves=tuple(game.format_move(move) for move in game.legal_moves(state)),
            moves=tuple(self.moves),
            clocks=clocks,
            received_at=time.monotonic(),
            game=game,
            state=state,
        )


def _side(index: int) -> Side:
    """A side index as the protocol types it."""
    return 1 if index else 0


def match_player(spec: str, seed: int, move_seconds: float | None = None) -> Player:
    """The player ``spec`` names: an engine player, or any bot ``gamut bot`` runs.

    Engine specs (``random``, ``ai:…``, ``module:Class`` of an engine player) are the
    engine's own players, seeded with ``seed``, an AI held to ``move_seconds`` a move
    unless its spec sets its own search; bridges and bot classes are wrapped in a
    :class:`BotPlayer`, told they have ``move_seconds`` a move. ``ValueError`` with the
    reason for a bad spec.
    """
    kind = spec.strip().partition(":")[0]
    if kind in ENGINE_PREFIXES:
        player = seeded_player(spec, seed)
        return player if move_seconds is None else held_to_move_time(player, move_seconds)
    bot = load_bot(spec)
    return BotPlayer(bot, move_seconds=move_seconds, name=kind)

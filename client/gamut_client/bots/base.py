"""The :class:`Bot` a bot author subclasses, and :class:`PlayerBot` for the engine's players.

A bot implements one synchronous method, :meth:`Bot.choose_move`: a
:class:`~gamut_client.bots.view.GameView` in, a move in the game's notation out. The
runner calls it in a worker thread, so it may think as long as its clock allows while
the connection keeps answering the server. ``on_game_start`` and ``on_game_end`` run
there too, in order with the game's moves; ``on_chat`` and the offers are answered
in another worker thread, even while the bot thinks. :meth:`Bot.chat`,
:meth:`Bot.resign` and :meth:`Bot.offer_draw` may be called from any of them.
"""

from __future__ import annotations

import threading
from abc import ABC, abstractmethod
from collections.abc import Callable
from typing import Protocol

from gamut_client.bots.view import GameView
from gamut_engine.players import AIPlayer, Player, parse_player
from gamut_engine.search.result import Limits
from gamut_protocol import Chat, ClientMessage, OfferDraw, Resign, SeekInfo


class BotError(Exception):
    """The bot cannot play this game any more (its engine crashed, say); the runner resigns."""


class Actions(Protocol):
    """Where a bot's own messages go: the runner, which sends them on its event loop."""

    def submit(self, message: ClientMessage) -> None:
        """Send ``message`` soon; callable from any thread."""


class Bot(ABC):
    """A program that plays: implement :meth:`choose_move`, override hooks as you like."""

    def __init__(self) -> None:
        self._actions: Actions | None = None
        self._lock = threading.Lock()

    @abstractmethod
    def choose_move(self, view: GameView) -> str | None:
        """The move to play, in the game's notation (``view.legal_moves`` lists them all).

        Return ``None`` to play nothing, after :meth:`resign` say.
        """

    def on_game_start(self, view: GameView) -> None:  # noqa: B027 (an optional hook)
        """A game begins (or, after a restart, is found running)."""

    def on_game_end(self, view: GameView) -> None:  # noqa: B027 (an optional hook)
        """A game ended: ``view.result`` says how."""

    def on_chat(self, view: GameView | None, author: str, text: str) -> str | None:
        """Someone else said ``text`` in one of this bot's games (``view``) or the lobby
        (``None``); return a line to answer with, or ``None``."""
        return None

    def on_draw_offer(self, view: GameView) -> bool:
        """The opponent offers a draw; return ``True`` to accept it."""
        return False

    def on_rematch_offer(self, view: GameView) -> bool:
        """The opponent offers a rematch after the game; return ``True`` to play it."""
        return False

    def accepts(self, seek: SeekInfo) -> bool:
        """Whether to accept this challenge or open seek (only ones the runner may accept)."""
        return True

    def close(self) -> None:  # noqa: B027 (an optional hook)
        """The bot stops: release what it holds (engine processes, files)."""

    def bind(self, actions: Actions | None) -> None:
        """Attach the runner that sends this bot's messages (done by the runner)."""
        with self._lock:
            self._actions = actions

    def chat(self, room_id: str | None, text: str) -> None:
        """Say ``text`` in a room (``None``: in the lobby)."""
        self._submit(Chat(room_id=room_id, text=text))

    def resign(self, view: GameView) -> None:
        """Give up the game; the opponent wins."""
        self._submit(Resign(room_id=view.room_id))

    def offer_draw(self, view: GameView) -> None:
        """Offer the opponent a draw."""
        self._submit(OfferDraw(room_id=view.room_id))

    def _submit(self, message: ClientMessage) -> None:
        """Hand a message to the runner."""
        with self._lock:
            actions = self._actions
        if actions is None:
            raise RuntimeError("this bot is not running: start it with run_bot or gamut bot")
        actions.submit(message)


class PlayerBot(Bot):
    """Plays with one of the engine's players (``random``, ``ai:LEVEL``…), one per game.

    An AI player's thinking time is capped by the clock (see
    :meth:`~gamut_client.bots.view.GameView.think_seconds`).
    """

    def __init__(self, spec: str | Callable[[], Player]) -> None:
        """A bot making its players from a :func:`~gamut_engine.players.parse_player` spec
        or a factory; raises ``ValueError`` for a bad spec."""
        super().__init__()
        if isinstance(spec, str):
            parse_player(spec)
            text = spec
            self._make: Callable[[], Player] = lambda: parse_player(text)
        else:
            self._make = spec
        self._players: dict[str, tuple[Player, Limits | None]] = {}

    def choose_move(self, view: GameView) -> str:
        """The engine player's move."""
        if view.game is None:
            raise BotError(f"this program's engine cannot play {view.game_name}")
        player = self._player(view)
        return view.game.format_move(player.choose_move(view.game, view.state))

    def on_game_end(self, view: GameView) -> None:
        """Forget the game's player."""
        self._players.pop(view.room_id, None)

    def _player(self, view: GameView) -> Player:
        """The game's player, its thinking time capped by the clock."""
        if view.room_id not in self._players:
            player = self._make()
            base = player.limits if isinstance(player, AIPlayer) else None
            self._players[view.room_id] = (player, base)
        player, base = self._players[view.room_id]
        cap = view.think_seconds()
        if isinstance(player, AIPlayer) and base is not None:
            time = base.time if cap is None else min(cap, base.time or cap)
            player.limits = Limits(depth=base.depth, time=time, nodes=base.nodes)
        return player

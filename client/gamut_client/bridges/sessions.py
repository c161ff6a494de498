"""A bot that runs one external program for each game it plays."""

from __future__ import annotations

import threading
from abc import abstractmethod
from collections.abc import Sequence
from typing import Generic, TypeVar

from gamut_client.bots.base import Bot
from gamut_client.bots.view import GameView
from gamut_client.bridges.process import command_words

SessionT = TypeVar("SessionT")


class SessionBot(Bot, Generic[SessionT]):
    """Starts a session (a program, and what the bridge knows of it) when a game begins,
    and ends it when the game ends or the bot stops."""

    def __init__(self, command: str | Sequence[str]) -> None:
        """A bot running ``command`` (a command line or its words) for every game."""
        super().__init__()
        self.command = command_words(command)
        """The program's command line, word by word."""
        self._sessions: dict[str, SessionT] = {}
        self._guard = threading.Lock()

    @abstractmethod
    def start_session(self, view: GameView) -> SessionT:
        """Start the program for the game ``view`` shows."""

    @abstractmethod
    def end_session(self, session: SessionT, view: GameView | None) -> None:
        """Tell the program the game is over (``view``; ``None`` when the bot stops) and
        stop it."""

    def session(self, view: GameView) -> SessionT:
        """The game's session, started now if it has not been."""
        with self._guard:
            session = self._sessions.get(view.room_id)
        if session is None:
            session = self.start_session(view)
            with self._guard:
                self._sessions[view.room_id] = session
        return session

    def on_game_start(self, view: GameView) -> None:
        """Start the program."""
        self.session(view)

    def on_game_end(self, view: GameView) -> None:
        """Stop the game's program."""
        with self._guard:
            session = self._sessions.pop(view.room_id, None)
        if session is not None:
            self.end_session(session, view)

    def close(self) -> None:
        """Stop every program still running."""
        with self._guard:
            sessions = list(self._sessions.values())
            self._sessions.clear()
        for session in sessions:
            self.end_session(session, None)

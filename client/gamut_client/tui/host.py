"""What the screens need from the application: the session, a way to send, and the time.

Screens take a :class:`Host` rather than the application class, so they import
nothing of it and can be driven by anything that keeps a session and sends.
"""

from __future__ import annotations

from typing import Protocol

from gamut_client.tui.session import Session, Update
from gamut_protocol import ClientMessage


class Host(Protocol):
    """The application, as screens see it."""

    @property
    def session(self) -> Session:
        """Everything the client knows."""

    def send(self, message: ClientMessage) -> None:
        """Queue ``message`` for the server; never waits."""

    def now(self) -> float:
        """The time now, in seconds on a monotonic clock."""

    def show_lobby(self) -> None:
        """Go back to the lobby screen."""

    def show_room(self, room_id: str) -> None:
        """Show the game screen of a room the session follows."""


class SessionView(Protocol):
    """A screen that redraws what an :class:`Update` changed."""

    def refresh_view(self, update: Update) -> None:
        """Redraw the parts ``update`` names."""

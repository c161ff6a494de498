"""The terminal client's application: the connection's workers and the screen stack.

Two workers run beside the interface on its event loop, so a slow link never
freezes it: the reader opens the :class:`~gamut_client.connection.Connection`
(retrying until the server answers, and trying ``NAME-2``, ``NAME-3``… when the
name is taken; with an :class:`~gamut_client.identities.IdentityFile`, showing the token
saved for each name and saving the one the server gives, so a restarted client gets
its name and its games back) and feeds everything it yields to the
:class:`~gamut_client.tui.session.Session`;
the writer sends what the screens queued, in order, waiting while the link is down.
The connection itself reconnects and resumes every room after a drop, so a game
survives it; the screens show the link's state meanwhile.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from dataclasses import replace
from typing import ClassVar, Final

from textual import events
from textual.app import App
from textual.binding import Binding, BindingType
from textual.screen import Screen

from gamut_client.addresses import server_url
from gamut_client.connection import Connection
from gamut_client.identities import IdentityFile
from gamut_client.link import Backoff, ConnectError, HelloRefusedError, Incoming
from gamut_client.tui.game_screen import GameScreen
from gamut_client.tui.lobby_screen import LobbyScreen
from gamut_client.tui.redraw import RedrawThrottle
from gamut_client.tui.session import LinkState, Session, Update
from gamut_protocol import ClientMessage, Join, ListGames, Welcome
from gamut_protocol.common import MAX_NAME_LENGTH

log = logging.getLogger(__name__)

CLIENT_NAME: Final = "gamut-tui 0.1"
"""How the client names itself in ``hello``."""

NAME_ATTEMPTS: Final = 9
"""Names tried when the one asked for is taken: ``NAME``, ``NAME-2``… ``NAME-9``."""


class GamutApp(App[int]):
    """``gamut play``: the lobby and the game screens of one server."""

    TITLE = "Gamut"

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+q", "quit", "Quit", priority=True),
    ]

    def __init__(
        self,
        server: str,
        name: str,
        *,
        token: str | None = None,
        heartbeat: float | None = 15.0,
        backoff: Backoff | None = None,
        clock: Callable[[], float] = time.monotonic,
        identities: IdentityFile | None = None,
    ) -> None:
        """A client of ``server`` playing as ``name``, keeping its guest token in
        ``identities`` if given."""
        super().__init__()
        self.server = server_url(server)
        """The server's WebSocket URL."""
        self.player_name = name
        """The name asked for."""
        self.token = token
        """An account's token, if any."""
        self.heartbeat = heartbeat
        """Seconds between the connection's pings."""
        self.backoff = backoff or Backoff()
        """How connection attempts are spaced."""
        self.identities = identities
        """Where guest tokens are kept between runs; ``None``: nowhere."""
        self.connection: Connection | None = None
        """The connection, once open."""
        self._session = Session()
        self._clock = clock
        self._outbox: asyncio.Queue[ClientMessage] = asyncio.Queue()
        self._lobby = LobbyScreen(self, self.server)
        self._throttle = RedrawThrottle(self._redraw, self._after, time.monotonic)

    @property
    def session(self) -> Session:
        """Everything the client knows."""
        return self._session

    def now(self) -> float:
        """The time now, on the clock the models count with."""
        return self._clock()

    def send(self, message: ClientMessage) -> None:
        """Queue ``message`` for the writer; never waits."""
        self._outbox.put_nowait(message)

    def on_mount(self) -> None:
        """Show the lobby and start the reader."""
        self.push_screen(self._lobby)
        self.run_worker(self._read(), name="gamut-reader", exit_on_error=False)

    async def on_event(self, event: events.Event) -> None:
        """Let the screen move the focus for a typed key before the key is routed (see
        :mod:`gamut_client.tui.focus`)."""
        if isinstance(event, events.Key) and not event.is_forwarded:
            screen = self.screen
            if isinstance(screen, LobbyScreen | GameScreen):
                screen.focus_for_key(event)
        await super().on_event(event)

    async def on_unmount(self) -> None:
        """Close the connection."""
        if self.connection is not None:
            await self.connection.close()

    async def _read(self) -> None:
        """Open the connection, then apply everything it yields until it ends."""
        connection = await self._open()
        if connection is None:
            return
        self.connection = connection
        self._save(connection.welcome)
        self._tell_name(connection.welcome.name)
        self.deliver(connection.welcome)
        self.run_worker(self._write(connection), name="gamut-writer", exit_on_error=False)
        self.send(ListGames())
        for room_id in connection.welcome.rooms:
            self.send(Join(room_id=room_id, role="player"))
        try:
            async for item in connection:
                self.deliver(item)
                # A backlog is read without the queue ever waiting: let key presses in.
                await asyncio.sleep(0)
        except ConnectError as error:
            self._link_failed(f"disconnected: {error}")

    async def _open(self) -> Connection | None:
        """Connect, retrying while the server cannot be reached; ``None`` if refused."""
        delays = self.backoff.delays()
        while True:
            try:
                return await self._hello()
            except HelloRefusedError as refusal:
                self._link_failed(f"refused: {refusal.error.message}")
                return None
            except ConnectError as error:
                delay = next(delays, None)
                if delay is None:
                    self._link_failed(f"cannot connect: {error}")
                    return None
                self._link_failed(f"cannot connect ({error}); retrying in {delay:.1f} s")
                await asyncio.sleep(delay)

    async def _hello(self) -> Connection:
        """Say hello under the first free name of ``NAME``, ``NAME-2``…"""
        stem = self.player_name[: MAX_NAME_LENGTH - 3]
        others = [f"{stem}-{number}" for number in range(2, NAME_ATTEMPTS + 1)]
        for name in [self.player_name, *others[:-1]]:
            try:
                return await self._hello_as(name)
            except HelloRefusedError as refusal:
                if not self._held_by_another(name, refusal):
                    raise
        return await self._hello_as(others[-1])

    async def _hello_as(self, name: str) -> Connection:
        """Open the connection as ``name``, with the token given for the name asked for
        or the one saved for ``name``."""
        return await Connection.open(
            self.server,
            name,
            token=self.token if self._given_token(name) else self._saved_token(name),
            client=CLIENT_NAME,
            heartbeat=self.heartbeat,
            backoff=self.backoff,
        )

    def _given_token(self, name: str) -> bool:
        """Whether ``name`` says hello with the token given on the command line."""
        return self.token is not None and name == self.player_name

    def _saved_token(self, name: str) -> str | None:
        """The token saved for ``name`` on this server, if any."""
        return self.identities.token(self.server, name) if self.identities else None

    def _held_by_another(self, name: str, refusal: HelloRefusedError) -> bool:
        """Whether a refused ``hello`` only means that someone else holds ``name`` (so the
        next name is worth trying): it is taken, or bound to a token other than the saved one."""
        code = refusal.error.code
        return code == "name_taken" or (code == "bad_token" and not self._given_token(name))

    def _save(self, welcome: Welcome) -> None:
        """Keep the guest token ``welcome`` gave, for the next run."""
        if self.identities is None or not welcome.guest or welcome.token is None:
            return
        if not self.identities.remember(self.server, welcome.name, welcome.token):
            where = self.identities.path
            self.notify(f"could not save your token in {where}", severity="warning")

    def _tell_name(self, name: str) -> None:
        """Say so when the server gave another name than the one asked for."""
        if name != self.player_name:
            self._lobby.say(f"{self.player_name} is taken on this server: you play as {name}")

    async def _write(self, connection: Connection) -> None:
        """Send queued messages in order; each waits while the link is down."""
        while True:
            message = await self._outbox.get()
            try:
                await connection.send(message)
            except ConnectError as error:
                self._link_failed(f"disconnected: {error}")
                return

    def deliver(self, item: Incoming) -> None:
        """Apply one incoming item and redraw what it changed: its rooms, the link and any
        notice at once, the lobby with the next throttled lobby redraw."""
        log.debug("received %r", item)
        update = self._session.handle(item, self.now())
        if update.lobby:
            self._throttle.add(Update(lobby=True))
        if update.rooms or update.link or update.notice:
            self._redraw(replace(update, lobby=False, open_room=None))
        if update.open_room is not None:
            self._offer_room(update.open_room)
        for join in update.refresh:
            self.send(join)

    def _after(self, delay: float, callback: Callable[[], None]) -> None:
        """Call ``callback`` after ``delay`` seconds, or once queued events are handled."""
        if delay > 0:
            self.set_timer(delay, callback)
        else:
            self.call_later(callback)

    def _offer_room(self, room_id: str) -> None:
        """Show a new game, unless it would take the screen from a game being played."""
        shown = self.screen.room_id if isinstance(self.screen, GameScreen) else None
        if self._session.may_replace(shown, room_id):
            self.show_room(room_id)
        else:
            room = self._session.rooms[room_id]
            title = room.descriptor.title
            self.notify(f"{title} has started in room {room_id}: open it from the lobby")

    def _link_failed(self, text: str) -> None:
        """Show that the link is down for good (or not up yet)."""
        self._session.link = LinkState(False, text)
        self._redraw(Update(link=True))

    def _redraw(self, update: Update) -> None:
        """Let every screen on the stack redraw what ``update`` changed."""
        for screen in self.screen_stack:
            if isinstance(screen, LobbyScreen | GameScreen) and screen.is_mounted:
                screen.refresh_view(update)

    def show_lobby(self) -> None:
        """Close every screen above the lobby."""
        while self.screen is not self._lobby and len(self.screen_stack) > 1:
            self.pop_screen()

    def show_room(self, room_id: str) -> None:
        """Show the game screen of ``room_id`` in place of whatever is above the lobby."""
        if room_id not in self._session.rooms:
            return
        while not isinstance(self.screen, LobbyScreen | GameScreen):
            self.pop_screen()
        current = self.screen
        if isinstance(current, GameScreen) and current.room_id == room_id:
            return
        screen: Screen[None] = GameScreen(self, room_id)
        if current is self._lobby:
            self.push_screen(screen)
        else:
            self.switch_screen(screen)

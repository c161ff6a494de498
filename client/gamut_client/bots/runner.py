"""The bot runner: the SDK's side of the conversation, so a bot only chooses moves.

:class:`BotRunner` reads a :class:`~gamut_client.connection.Connection`, seeks and
accepts games as its :class:`~gamut_client.bots.plan.Plan` says, follows each game
with a :class:`~gamut_client.bots.view.GameTracker`, and asks the bot for a move
whenever it is the bot's turn (:mod:`gamut_client.bots.games`). Bot code runs in
worker threads, never on the event loop, one call at a time per game (so a game's hooks
and moves keep their order) and several games at once, so a thinking bot still answers
the server's heartbeats.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable
from concurrent.futures import Executor
from dataclasses import dataclass
from typing import Final

from gamut_client.bots.base import Bot
from gamut_client.bots.games import BotGames
from gamut_client.bots.outbox import Outbox
from gamut_client.bots.plan import TRANSIENT_ERRORS, Plan, PlanError, SeekBook
from gamut_client.bots.view import GameView
from gamut_client.bots.workers import Workers
from gamut_client.connection import Connection
from gamut_client.link import Incoming, Reconnected
from gamut_protocol import (
    AcceptDraw,
    AcceptSeek,
    CancelSeek,
    Chat,
    ChatLine,
    ClientMessage,
    DrawOffered,
    ErrorMessage,
    GameOver,
    Join,
    JoinLadder,
    JoinTournament,
    LadderResult,
    LadderStatus,
    LeaveLadder,
    LobbySnapshot,
    MoveMade,
    Rematch,
    RematchOffered,
    RoomSnapshot,
    SeekCreated,
    SeekInfo,
    SeekRemoved,
    TournamentStatus,
)

log = logging.getLogger(__name__)

RETRY_DELAY: Final = 2.0
"""Seconds before asking again for a seek the server could not take just then."""

LEAVE_WAIT: Final = 10.0
"""Seconds a stopping bot waits for the server to confirm it left its ladder pool."""


@dataclass(frozen=True)
class Summary:
    """What a run did."""

    games: tuple[GameView, ...]
    """Every game that ended, as last seen (``result`` says how), in the order they ended."""

    def lines(self) -> list[str]:
        """One line for each game: room, game and result, such as ``r4 Network: won (network)…``."""
        return [game_line(view) for view in self.games]


def game_line(view: GameView) -> str:
    """One finished game in a line: room, game and result."""
    return f"{view.room_id} {view.descriptor.title}: {view.outcome_text()}"


class BotRunner:
    """Runs one :class:`~gamut_client.bots.base.Bot` on an open connection."""

    def __init__(
        self,
        bot: Bot,
        connection: Connection,
        plan: Plan | None = None,
        *,
        executor: Executor | None = None,
        on_game_end: Callable[[GameView], None] | None = None,
    ) -> None:
        """Prepare to run ``bot``; :meth:`run` does it, calling ``on_game_end`` with each
        game as it ends (a bot that plays until stopped reports as it goes)."""
        self.bot = bot
        self.connection = connection
        self.plan = plan or Plan()
        self.book = SeekBook(self.plan, connection.name)
        self.workers = Workers(self.plan.parallel + 1, executor)
        """Where the bot's code runs."""
        self.outbox = Outbox(connection, self.workers.spawn)
        """Where the runner's messages go."""
        self.games = BotGames(
            bot, self.book, self.workers, self._send, self.outbox.new_id, on_game_end
        )
        """The games the bot plays and has played."""
        self._stop = asyncio.Event()
        self._loop: asyncio.AbstractEventLoop | None = None

    async def run(self) -> Summary:
        """Play until the plan's games are over, :meth:`stop` is called or the link fails."""
        self._loop = asyncio.get_running_loop()
        self.bot.bind(self)
        try:
            await self._begin()
            while not self.book.finished and not self._stop.is_set():
                incoming = await self._next()
                if incoming is None:
                    break
                await self._handle(incoming)
            await self._end()
        finally:
            self.bot.bind(None)
            await self.workers.settle()
            await self.workers.call(self.bot.close)
            self.workers.shutdown()
        return Summary(tuple(self.games.ended))

    def stop(self) -> None:
        """Ask :meth:`run` to finish: it withdraws its seeks and returns."""
        self._stop.set()

    def submit(self, message: ClientMessage) -> None:
        """Send ``message`` soon; callable from any thread (the bot's actions use it)."""
        loop = self._loop
        if loop is None:
            raise RuntimeError("the runner is not running")
        try:
            here = asyncio.get_running_loop()
        except RuntimeError:
            here = None
        if here is loop:
            self.workers.spawn(self._send(message))
        else:
            loop.call_soon_threadsafe(lambda: self.workers.spawn(self._send(message)))

    async def _begin(self) -> None:
        """Take back the seats of unfinished games (a restarted bot has some), join the
        ladder pool and post the first seeks."""
        for room_id in self.connection.welcome.rooms:
            await self._send(Join(room_id=room_id, role="player"))
        if self.plan.ladder is not None:
            await self._send(JoinLadder(pool=self.plan.ladder))
        if self.plan.tournament is not None:
            await self._send(JoinTournament(tournament=self.plan.tournament))
        await self._post_seeks()

    async def _end(self) -> None:
        """Withdraw this bot's seeks and leave the ladder pool."""
        for seek_id in list(self.book.listed):
            await self._send(CancelSeek(seek_id=seek_id))
        if self.plan.ladder is not None:
            await self._leave_ladder(self.plan.ladder)

    async def _leave_ladder(self, pool: str) -> None:
        """Leave ``pool`` and wait (a little) for the server to confirm, sending again if it
        was too busy, so a stopped bot is no longer listed as a member."""
        leave = LeaveLadder(id=self.outbox.new_id("leave"), pool=pool)
        await self._send(leave)
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(LEAVE_WAIT):
                while (incoming := await self._receive()) is not None:
                    if self._left(incoming, leave):
                        return
        log.warning("the server did not confirm leaving %s", pool)

    def _left(self, incoming: Incoming, leave: LeaveLadder) -> bool:
        """Whether ``incoming`` settles ``leave``: confirmed, or refused for good."""
        if getattr(incoming, "reply_to", None) != leave.id:
            return False
        if isinstance(incoming, ErrorMessage) and self.outbox.retry(incoming):
            return False
        if isinstance(incoming, ErrorMessage):
            log.warning("could not leave %s: %s", leave.pool, incoming.message)
        return True

    async def _next(self) -> Incoming | None:
        """The next message, or ``None`` when stopped or the stream ended."""
        receiving = asyncio.ensure_future(self._receive())
        stopping = asyncio.ensure_future(self._stop.wait())
        done, _ = await asyncio.wait({receiving, stopping}, return_when=asyncio.FIRST_COMPLETED)
        stopping.cancel()
        if receiving in done:
            return receiving.result()
        receiving.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await receiving
        return None

    async def _receive(self) -> Incoming | None:
        """The connection's next message, or ``None`` once its stream has ended."""
        try:
            return await self.connection.receive()
        except StopAsyncIteration:
            return None

    async def _handle(self, incoming: Incoming) -> None:
        """Dispatch one message."""
        if isinstance(incoming, RoomSnapshot):
            if self.games.snapshot(incoming):
                await self._post_seeks()
        elif isinstance(incoming, MoveMade):
            self.games.move_made(incoming)
        elif isinstance(incoming, GameOver):
            if self.games.game_over(incoming):
                await self._post_seeks()
        elif isinstance(incoming, LobbySnapshot):
            await self._consider_seeks(incoming.seeks)
        elif isinstance(incoming, SeekCreated):
            await self._seek_created(incoming)
        elif isinstance(incoming, SeekRemoved):
            self.book.seek_gone(incoming.seek_id)
            await self._post_seeks()
        elif isinstance(incoming, ErrorMessage):
            await self._error(incoming)
        elif isinstance(incoming, ChatLine):
            self._chat(incoming)
        elif isinstance(incoming, DrawOffered | RematchOffered):
            self._offer(incoming)
        elif isinstance(incoming, Reconnected):
            await self._reconnected()
        elif isinstance(incoming, LadderResult):
            self._rated(incoming)
        elif isinstance(incoming, LadderStatus):
            self._ladder_status(incoming)
        elif isinstance(incoming, TournamentStatus):
            await self._tournament_status(incoming)

    async def _tournament_status(self, status: TournamentStatus) -> None:
        """Follow the latest pairing: a game in a room the bot does not play yet (it was
        not seated when the room opened, or its director paired it again) is joined."""
        log.info("tournament %s: %s", status.tournament, status.message or status.status)
        if status.room_id is not None and self.games.view_of(status.room_id) is None:
            await self._send(Join(room_id=status.room_id, role="player"))

    async def _error(self, error: ErrorMessage) -> None:
        """Handle a refusal of one of the runner's messages."""
        if self.outbox.retry(error) or self.games.move_refused(error):
            return
        if error.reply_to is not None and self.book.refused(error.reply_to):
            if error.request == "seek" and error.code not in TRANSIENT_ERRORS:
                raise PlanError(f"the server refuses the seek: {error.message}")
            log.info("%s refused: %s", error.request, error.message)
            self.workers.spawn(self._post_seeks_later())
            return
        log.info("server error %s: %s", error.code, error.message)

    async def _seek_created(self, event: SeekCreated) -> None:
        """Note one of this bot's seeks, or consider someone else's."""
        if event.seek.author == self.connection.name:
            self.book.seek_listed(event.seek, event.reply_to)
        else:
            await self._consider_seeks((event.seek,))

    async def _consider_seeks(self, seeks: tuple[SeekInfo, ...]) -> None:
        """Accept the seeks and challenges the plan and the bot want."""
        for seek in seeks:
            if self.book.wants(seek) and await self.workers.call(self.bot.accepts, seek):
                request = self.outbox.new_id("accept")
                self.book.accepting[request] = seek.seek_id
                await self._send(AcceptSeek(id=request, seek_id=seek.seek_id))

    async def _post_seeks(self) -> None:
        """Post seeks for the free slots."""
        if self._stop.is_set():
            return
        for seek in self.book.seeks_to_post(lambda: self.outbox.new_id("seek")):
            await self._send(seek)

    async def _post_seeks_later(self) -> None:
        """Post seeks again after a short wait."""
        await asyncio.sleep(RETRY_DELAY)
        await self._post_seeks()

    def _chat(self, line: ChatLine) -> None:
        """Pass others' chat in the bot's games (running or ended) or the lobby to the bot,
        and send its answer. Chat is heard while the bot thinks, not after."""
        if line.author == self.connection.name:
            return
        view = self.games.view_of(line.room_id) if line.room_id is not None else None
        if line.room_id is not None and view is None:
            return
        self.workers.aside_later(lambda: self._hear(view, line))

    def _hear(self, view: GameView | None, line: ChatLine) -> None:
        """Give the bot a chat line and send its answer (in a worker thread)."""
        answer = self.bot.on_chat(view, line.author, line.text)
        if answer:
            self.submit(Chat(room_id=line.room_id, text=answer))

    def _offer(self, offer: DrawOffered | RematchOffered) -> None:
        """Ask the bot about the opponent's draw or rematch offer."""
        view = self.games.view_of(offer.room_id)
        if view is None or offer.side == view.my_side:
            return
        if isinstance(offer, DrawOffered) and self.games.playing(offer.room_id):
            self.workers.aside_later(lambda: self._answer_draw(view))
        elif isinstance(offer, RematchOffered) and self.book.room_slots() > 0:
            self.workers.aside_later(lambda: self._answer_rematch(view))

    def _answer_draw(self, view: GameView) -> None:
        """Accept the draw offer if the bot wants to (in a worker thread)."""
        if self.bot.on_draw_offer(view):
            self.submit(AcceptDraw(room_id=view.room_id))

    def _answer_rematch(self, view: GameView) -> None:
        """Accept the rematch offer if the bot wants to (in a worker thread)."""
        if self.bot.on_rematch_offer(view):
            self.submit(Rematch(room_id=view.room_id))

    def _rated(self, result: LadderResult) -> None:
        """Log the ratings after a rated ladder game."""
        for player in result.players:
            log.info(
                "%s rated %d ± %d (%+d) in %s",
                player.name,
                player.rating,
                player.uncertainty,
                player.change,
                result.pool,
            )

    def _ladder_status(self, status: LadderStatus) -> None:
        """Join the plan's pool again when the server took the bot out (it lost on time)."""
        if status.reply_to is not None or status.member or status.pool != self.plan.ladder:
            return
        if self._stop.is_set() or self.book.finished:
            return
        log.warning("out of ladder pool %s (a game lost on time): joining again", status.pool)
        self.workers.spawn(self._join_later(status.pool))

    async def _join_later(self, pool: str) -> None:
        """Join a ladder pool again after a short wait."""
        await asyncio.sleep(RETRY_DELAY)
        if not self._stop.is_set():
            await self._send(JoinLadder(pool=pool))

    async def _reconnected(self) -> None:
        """Send again the moves the server may not have seen; seek afresh."""
        self.book.link_lost()
        await self.games.send_again()
        await self._post_seeks()

    async def _send(self, message: ClientMessage) -> None:
        """Send a message through the outbox."""
        await self.outbox.send(message)

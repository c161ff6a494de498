"""The bot runner on a real server: thinking off the loop, dropped links, challenges,
games at once, chat and resignation."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable
from pathlib import Path

import pytest

from gamut_client.bots import (
    Bot,
    BotRunner,
    GameView,
    Plan,
    PlayerBot,
    run_bot,
    seek_terms,
)
from gamut_client.connection import connect
from gamut_client.link import Backoff
from tests.e2e.live import gamut_server
from tests.e2e.proxy import Proxy
from tests.e2e.test_bot_games import assert_engine_agrees, only_game

pytestmark = pytest.mark.timeout(120)

WAIT = 60.0
"""Seconds a test waits for its games (never reached when all is well)."""


class PatientBot(PlayerBot):
    """Plays random moves, but before each of its first moves waits until its connection
    has exchanged three more heartbeats: that can only happen if the runner keeps the
    event loop free while the bot thinks."""

    def __init__(self) -> None:
        super().__init__("random:5")
        self.beats: Callable[[], int] = lambda: 0
        self.waits = 2

    def choose_move(self, view: GameView) -> str:
        if self.waits > 0:
            self.waits -= 1
            wanted = self.beats() + 3
            for _ in range(2000):
                if self.beats() >= wanted:
                    break
                threading.Event().wait(0.01)
            else:
                raise AssertionError("no heartbeat while the bot was thinking")
        return super().choose_move(view)


async def test_a_thinking_bot_still_answers_heartbeats(tmp_path: Path) -> None:
    bot = PatientBot()
    terms = seek_terms("connect5", {"size": 5}, time_control="untimed")
    async with (
        gamut_server(tmp_path, heartbeat=0.2) as url,
        connect(url, "patient", kind="bot", heartbeat=0.05) as connection,
    ):
        bot.beats = lambda: connection.beats
        runner = BotRunner(bot, connection, Plan(seek=terms, games=1))
        other = run_bot(PlayerBot("random:6"), url, "other", plan=Plan(accept_open=True, games=1))
        ran = await asyncio.wait_for(asyncio.gather(runner.run(), other), WAIT)
        assert connection.reconnections == 0
    view = only_game(ran[0])
    assert bot.waits == 0
    assert_engine_agrees(view)


class CuttingBot(PlayerBot):
    """Plays random moves, and once, just before its third move, cuts its own link."""

    def __init__(self, proxy: Proxy, loop: asyncio.AbstractEventLoop) -> None:
        super().__init__("random:7")
        self.proxy = proxy
        self.loop = loop

    def choose_move(self, view: GameView) -> str:
        if view.ply >= 4 and self.proxy.cuts == 0:
            self.loop.call_soon_threadsafe(self.proxy.cut)
            while self.proxy.cuts == 0:
                threading.Event().wait(0.01)
        return super().choose_move(view)


async def test_a_bot_plays_on_after_its_link_drops(tmp_path: Path) -> None:
    terms = seek_terms("network", {}, time_control="untimed")
    fast = Backoff(initial=0.05, jitter=0.0, attempts=40)
    async with gamut_server(tmp_path) as url, Proxy(url).running() as proxy:
        bot = CuttingBot(proxy, asyncio.get_running_loop())
        async with connect(proxy.url, "cutter", kind="bot", backoff=fast) as connection:
            runner = BotRunner(bot, connection, Plan(seek=terms, games=1))
            other = run_bot(
                PlayerBot("random:8"), url, "steady", plan=Plan(accept_open=True, games=1)
            )
            ran = await asyncio.wait_for(asyncio.gather(runner.run(), other), WAIT)
            assert connection.reconnections >= 1
    cutter, steady = (only_game(summary) for summary in ran)
    assert proxy.cuts >= 1
    assert cutter.moves == steady.moves
    assert len(cutter.moves) > 4
    assert_engine_agrees(cutter)


async def test_a_bot_plays_two_challenges_at_once(tmp_path: Path) -> None:
    terms = seek_terms("crusher", {"n": 3}, time_control="untimed", opponent="player:taker")
    async with gamut_server(tmp_path) as url:
        taker = asyncio.create_task(
            run_bot(PlayerBot("random:9"), url, "taker", plan=Plan(games=2, parallel=2))
        )
        await asyncio.sleep(0)
        challenger = run_bot(
            PlayerBot("random:10"),
            url,
            "challenger",
            plan=Plan(seek=terms, games=2, parallel=2),
        )
        ran = await asyncio.wait_for(asyncio.gather(challenger, taker), WAIT)
    for summary in ran:
        assert len(summary.games) == 2
        assert len({view.room_id for view in summary.games}) == 2
        for view in summary.games:
            assert_engine_agrees(view)


class Greeter(Bot):
    """Wishes its opponent luck, and resigns instead of moving once it has been answered
    (it hears chat while it thinks)."""

    def __init__(self) -> None:
        super().__init__()
        self.heard: list[tuple[str, str]] = []
        self.answered = threading.Event()

    def on_game_start(self, view: GameView) -> None:
        self.chat(view.room_id, "good luck")

    def on_chat(self, view: GameView | None, author: str, text: str) -> str | None:
        self.heard.append((author, text))
        self.answered.set()
        return None

    def choose_move(self, view: GameView) -> str | None:
        self.answered.wait(WAIT)
        self.resign(view)
        return None


class Polite(PlayerBot):
    """Thanks whoever speaks to it."""

    def __init__(self) -> None:
        super().__init__("random")

    def on_chat(self, view: GameView | None, author: str, text: str) -> str | None:
        return f"thank you, {author}"


async def test_bots_chat_and_resign(tmp_path: Path) -> None:
    greeter = Greeter()
    terms = seek_terms("loa", {"size": 6}, time_control="untimed", side=0)
    async with gamut_server(tmp_path) as url:
        ran = await asyncio.wait_for(
            asyncio.gather(
                run_bot(greeter, url, "greeter", plan=Plan(seek=terms, games=1)),
                run_bot(Polite(), url, "polite", plan=Plan(accept_open=True, games=1)),
            ),
            WAIT,
        )
    view = only_game(ran[0])
    assert view.result is not None
    assert (view.result.reason, view.result.winner) == ("resign", 1)
    assert view.moves == ()
    assert greeter.heard == [("polite", "thank you, greeter")]

"""The bot SDK's parts: game views, plans and seek bookkeeping, bot specs, and the runner's
handling of refused moves against a scripted server."""

from __future__ import annotations

import asyncio
import time
from dataclasses import replace

import pytest

from gamut_client.bots import (
    Bot,
    BotRunner,
    GameTracker,
    GameView,
    Plan,
    PlayerBot,
    load_bot,
    seek_terms,
)
from gamut_client.bots.offline import position
from gamut_client.bots.plan import (
    SeekBook,
    parse_opponent,
    parse_time_control,
    seed_time_control,
)
from gamut_client.bridges.gomocup import GomocupBot
from gamut_client.bridges.line import LineBot
from gamut_client.bridges.seed import SeedProgramBot
from gamut_client.connection import connect
from gamut_engine import load_game
from gamut_engine.players import AIPlayer, RandomPlayer
from gamut_protocol import (
    AiOpponent,
    AnyOpponent,
    Clocks,
    ErrorMessage,
    Fischer,
    GameOver,
    GameResult,
    Move,
    MoveMade,
    NamedOpponent,
    PerMove,
    Resign,
    SeekInfo,
    Untimed,
)
from tests.client.fake_server import FakeServer
from tests.client.views import snapshot_after, view_after

pytestmark = pytest.mark.timeout(30)


def test_the_view_follows_the_game_with_the_engine() -> None:
    tracker = GameTracker.from_snapshot(snapshot_after("loa", ["b1-b3"], size=6))
    game = load_game("loa", size=6)
    state = game.play(game.initial_state(), game.parse_move(game.initial_state(), "b1-b3"))
    assert tracker.view.state == state
    assert tracker.view.moves == ("b1-b3",)
    assert not tracker.view.my_turn
    reply = game.legal_moves(state)[0]
    after = game.play(state, reply)
    tracker.move_made(
        MoveMade(
            room_id="r1",
            seq=2,
            ply=1,
            side=1,
            move=game.format_move(reply),
            position=position(game, after),
            legal_moves=tuple(game.format_move(m) for m in game.legal_moves(after)),
        )
    )
    moved = tracker.view
    assert moved.state == after
    assert moved.my_turn
    assert moved.ply == 2
    tracker.game_over(GameOver(room_id="r1", seq=3, result=GameResult(winner=0, reason="resign")))
    ended = tracker.view
    assert not ended.my_turn
    assert ended.outcome_text() == "won (resign) as Black in 2 moves"


def test_a_game_the_engine_does_not_know_has_no_engine_state() -> None:
    snapshot = snapshot_after("connect5", ["a1"], size=5)
    unknown = snapshot.model_copy(
        update={"game": snapshot.game.model_copy(update={"name": "tictactoe"})}
    )
    view = GameTracker.from_snapshot(unknown).view
    assert (view.game, view.state) == (None, None)
    assert view.legal_moves == snapshot.legal_moves


def test_a_finished_position_is_nobodys_turn() -> None:
    moves = ["a1", "a2", "b1", "b2", "c1", "c2", "d1", "d2", "e1"]
    view = view_after("connect5", moves, my_side=1, size=5)
    assert view.position.to_move == 1
    assert view.legal_moves == ()
    assert not view.my_turn


def test_thinking_time_follows_the_clock() -> None:
    untimed = view_after("network")
    assert untimed.think_seconds() is None
    per_move = replace(
        view_after("network", time_control=PerMove(move_ms=5000)),
        clocks=Clocks(remaining_ms=(5000, 5000), running=0),
        received_at=time.monotonic(),
    )
    assert per_move.think_seconds() == pytest.approx(3.75, abs=0.1)
    fischer = replace(
        per_move,
        time_control=Fischer(initial_ms=60_000, increment_ms=1000),
        clocks=Clocks(remaining_ms=(30_000, 60_000), running=0),
    )
    assert fischer.think_seconds() == pytest.approx(1.55, abs=0.1)
    assert fischer.time_left_ms(1) == 60_000


def test_opponents_and_time_controls_from_text() -> None:
    assert parse_opponent("anyone") == AnyOpponent()
    assert parse_opponent("ai:7") == AiOpponent(level=7)
    assert parse_opponent("player:bob") == NamedOpponent(name="bob")
    assert parse_time_control("untimed") == Untimed()
    assert parse_time_control("move:2.5") == PerMove(move_ms=2500)
    assert parse_time_control("fischer:300+2") == Fischer(initial_ms=300_000, increment_ms=2000)
    assert seed_time_control("connect5", {"size": 15}) == PerMove(move_ms=45_000)
    assert seed_time_control("loa", {}) == PerMove(move_ms=10_000)
    for bad in ("ai:strong", "someone"):
        with pytest.raises(ValueError, match=r"opponent|level"):
            parse_opponent(bad)
    for bad in ("move:soon", "fischer:1+x", "blitz"):
        with pytest.raises(ValueError, match="time control"):
            parse_time_control(bad)


def seek(seek_id: str, author: str = "ada", game: str = "network", **fields: object) -> SeekInfo:
    """An open seek in the lobby."""
    return SeekInfo.model_validate(
        {"seek_id": seek_id, "author": author, "title": "T", "game": game, **fields}
    )


def test_the_seek_book_keeps_to_the_plan() -> None:
    terms = seek_terms("network", {}, time_control="untimed")
    book = SeekBook(Plan(seek=terms, games=3, parallel=2), "bot")
    ids = iter(["s1", "s2", "s3"])
    posted = book.seeks_to_post(lambda: next(ids))
    assert [message.id for message in posted] == ["s1", "s2"]
    assert book.seeks_to_post(lambda: "never") == []
    book.seek_listed(seek("k1", author="bot"), "s1")
    assert book.game_started("r1", "s2")
    assert not book.game_started("r1", None)
    book.seek_gone("k1")
    assert book.room_slots() == 1
    book.game_ended("r1")
    assert book.room_slots() == 2
    assert not book.finished
    book.link_lost()
    assert book.pending == 0


def test_the_seek_book_chooses_what_to_accept() -> None:
    book = SeekBook(Plan(accept_open=True, only_game="network", games=1), "bot")
    assert book.wants(seek("k1"))
    assert not book.wants(seek("k2", game="loa"))
    assert not book.wants(seek("k3", author="bot"))
    assert book.wants(seek("k4", opponent={"kind": "player", "name": "bot"}))
    assert not book.wants(seek("k5", opponent={"kind": "player", "name": "eve"}))
    book.accepting["a1"] = "k1"
    assert not book.wants(seek("k6"))
    assert book.refused("a1")
    assert not book.refused("a1")
    picky = SeekBook(Plan(accept_challenges=False), "bot")
    assert not picky.wants(seek("k7", opponent={"kind": "player", "name": "bot"}))


class Named(Bot):
    """A bot class for loading by name."""

    def choose_move(self, view: GameView) -> str:
        return view.legal_moves[-1]


def test_bots_by_spec() -> None:
    assert isinstance(load_bot("random"), PlayerBot)
    assert isinstance(load_bot("ai:3"), PlayerBot)
    assert isinstance(load_bot("tests.client.test_bot_sdk:Named"), Named)
    assert isinstance(load_bot("gamut_engine.players:RandomPlayer"), PlayerBot)
    assert isinstance(load_bot("gomocup:pbrain --fast"), GomocupBot)
    assert isinstance(load_bot("line:./engine"), LineBot)
    seed = load_bot("seed5:racket connect5.ss", board="rows")
    assert isinstance(seed, SeedProgramBot)
    assert (seed.command, seed.board) == (["racket", "connect5.ss"], "rows")
    for bad in ("nonsense", "ai:99", "tests.client.test_bot_sdk:Missing", "no.such:Thing"):
        with pytest.raises(ValueError, match="gomocup:COMMAND"):
            load_bot(bad)


def test_an_engine_player_thinks_within_the_clock() -> None:
    bot = PlayerBot("ai:8")
    view = replace(
        view_after("network", time_control=PerMove(move_ms=1000)),
        clocks=Clocks(remaining_ms=(1000, 1000), running=0),
        received_at=time.monotonic(),
    )
    assert bot.choose_move(view) in view.legal_moves
    player, _ = bot._players["r1"]  # the player the bot made for this game
    assert isinstance(player, AIPlayer)
    assert player.limits.time is not None
    assert player.limits.time <= 0.6
    random_bot = PlayerBot(RandomPlayer)
    assert random_bot.choose_move(view) in view.legal_moves


def test_an_unbound_bot_cannot_act() -> None:
    with pytest.raises(RuntimeError, match="not running"):
        Named().chat(None, "hello")


class Stubborn(Bot):
    """Insists on a move that is never legal."""

    def __init__(self) -> None:
        super().__init__()
        self.asked = 0

    def choose_move(self, view: GameView) -> str:
        self.asked += 1
        return "z99"


async def test_a_bot_that_keeps_choosing_bad_moves_resigns() -> None:
    server = FakeServer()
    bot = Stubborn()
    async with server.running(), connect(server.url, "ada", heartbeat=None) as conn:
        runner = asyncio.create_task(BotRunner(bot, conn, Plan(games=1)).run())
        await server.send(snapshot_after("connect5", size=5))
        resign = await asyncio.wait_for(server.expect(Resign), 10)
        assert resign.room_id == "r1"
        await server.send(
            GameOver(room_id="r1", seq=1, result=GameResult(winner=1, reason="resign"))
        )
        summary = await asyncio.wait_for(runner, 10)
    assert bot.asked == 3
    assert summary.games[0].result == GameResult(winner=1, reason="resign")


async def test_refused_moves_are_chosen_again_or_sent_again() -> None:
    server = FakeServer()
    async with server.running(), connect(server.url, "ada", heartbeat=None) as conn:
        runner = asyncio.create_task(BotRunner(Named(), conn, Plan(games=1)).run())
        await server.send(snapshot_after("connect5", size=5))
        first = await asyncio.wait_for(server.expect(Move), 10)
        assert (first.move, first.ply) == ("e1", 0)
        busy = ErrorMessage(
            reply_to=first.id, code="rate_limited", message="slow down", request="move"
        )
        await server.send(busy)
        again = await asyncio.wait_for(server.expect(Move), 10)
        assert again == first
        illegal = ErrorMessage(
            reply_to=first.id,
            code="illegal_move",
            message="no",
            request="move",
            room_id="r1",
            reason="occupied",
        )
        await server.send(illegal)
        chosen_again = await asyncio.wait_for(server.expect(Move), 10)
        assert chosen_again.move == "e1"
        assert chosen_again.id != first.id
        await server.send(GameOver(room_id="r1", seq=1, result=GameResult(reason="aborted")))
        summary = await asyncio.wait_for(runner, 10)
    assert summary.lines() == ["r1 Connect Five 5×5: drawn (aborted) as X in 0 moves"]

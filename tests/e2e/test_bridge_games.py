"""External programs play whole games on a real server through the bridges."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from gamut_client.bots import Bot, GameView, Plan, PlayerBot, load_bot, run_bot, seek_terms
from gamut_protocol import Side
from tests.client.test_bridges import script
from tests.e2e.live import gamut_server
from tests.e2e.test_bot_games import assert_engine_agrees, only_game

pytestmark = pytest.mark.timeout(120)


async def play(
    url: str, seeker: Bot, taker: Bot, game: str, side: Side | None = None, **options: int
) -> GameView:
    """``seeker`` seeks a game that ``taker`` accepts; both play it to the end. Returns the
    seeker's view of it."""
    terms = seek_terms(game, options, time_control="untimed", side=side)
    ran = await asyncio.wait_for(
        asyncio.gather(
            run_bot(seeker, url, "seeker", plan=Plan(seek=terms, games=1)),
            run_bot(taker, url, "taker", plan=Plan(accept_open=True, games=1)),
        ),
        100,
    )
    first, second = (only_game(summary) for summary in ran)
    assert first.moves == second.moves
    assert_engine_agrees(first)
    return first


async def test_a_gomocup_engine_plays_connect_five(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    log = tmp_path / "pbrain.log"
    monkeypatch.setenv("PBRAIN_LOG", str(log))
    engine = load_bot("gomocup:" + script("pbrain_first.py"))
    async with gamut_server(tmp_path) as url:
        await play(url, engine, PlayerBot("random:3"), "connect5", size=9)
    commands = log.read_text().splitlines()
    assert commands[0] == "START 9"
    assert "INFO rule 0" in commands
    assert commands[-1] == "END"
    assert any(line.startswith("TURN ") for line in commands)


async def test_a_line_protocol_program_plays_network(tmp_path: Path) -> None:
    program = load_bot("line:" + script("line_first.py"))
    async with gamut_server(tmp_path) as url:
        await play(url, PlayerBot("random:4"), program, "network")


async def test_a_seed_002_program_plays_o_against_a_gomocup_engine(tmp_path: Path) -> None:
    seed = load_bot("seed5:" + script("seed_program.py"))
    engine = load_bot("gomocup:" + script("pbrain_first.py"))
    async with gamut_server(tmp_path) as url:
        seen = await play(url, seed, engine, "connect5", side=1, size=7)
    assert seen.my_side == 1
    assert seen.moves[0] == "d4"

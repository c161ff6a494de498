"""Bots written with the SDK play whole games on a real server, one of each game."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from gamut_client.bots import GameView, Plan, PlayerBot, Summary, run_bot, seek_terms
from gamut_engine import load_game
from tests.e2e.live import gamut_server

pytestmark = pytest.mark.timeout(120)

GAMES: list[tuple[str, dict[str, Any]]] = [
    ("network", {}),
    ("connect5", {"size": 7}),
    ("loa", {"size": 6}),
    ("crusher", {"n": 3}),
]


def assert_engine_agrees(view: GameView) -> None:
    """The moves replayed by the engine end the game the way the server says."""
    assert view.result is not None
    game = load_game(view.game_name, **view.options)
    state = game.initial_state()
    for move in view.moves:
        state = game.apply(state, game.parse_move(state, move))
    outcome = game.outcome(state)
    assert outcome is not None
    assert (outcome.winner, outcome.reason) == (view.result.winner, view.result.reason)
    assert tuple(outcome.line) == view.result.line


def only_game(summary: Summary) -> GameView:
    """The one game a run played."""
    assert len(summary.games) == 1
    return summary.games[0]


@pytest.mark.parametrize(("game", "options"), GAMES, ids=[name for name, _ in GAMES])
async def test_two_sdk_bots_play_a_game_to_the_end(
    tmp_path: Path, server_db: str, game: str, options: dict[str, Any]
) -> None:
    async with gamut_server(tmp_path, db=server_db) as url:
        terms = seek_terms(game, options, time_control="untimed")
        seeker = run_bot(PlayerBot("random:1"), url, "seeker", plan=Plan(seek=terms, games=1))
        taker = run_bot(
            PlayerBot("random:2"),
            url,
            "taker",
            plan=Plan(accept_open=True, only_game=game, games=1),
        )
        ran = await asyncio.wait_for(asyncio.gather(seeker, taker), 100)
    first, second = (only_game(summary) for summary in ran)
    assert first.room_id == second.room_id
    assert {first.my_side, second.my_side} == {0, 1}
    assert first.moves == second.moves
    assert first.result == second.result
    assert_engine_agrees(first)

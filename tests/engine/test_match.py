"""The match runner: games add up, colours alternate, openings pair up, and the scoring."""

from __future__ import annotations

from typing import Any

import pytest

from gamut_engine import AnyGame, IllegalMoveError
from gamut_engine.match import (
    ILLEGAL_MOVE,
    MatchResult,
    MatchSpec,
    play_match_game,
    random_opening,
    read_openings,
    run_match,
    written_opening,
)
from gamut_engine.match_score import (
    MAX_ELO,
    Interval,
    elo_difference,
    match_score,
    wilson_interval,
)
from gamut_engine.match_tally import Tally, search_figures, search_token
from gamut_engine.players import AIPlayer
from gamut_engine.registry import load_game
from gamut_engine.search.result import Stats


class IllegalPlayer:
    """Always plays the first move of the start position: legal once, then on a taken cell."""

    def choose_move(self, game: AnyGame, state: Any) -> Any:
        return game.legal_moves(game.initial_state())[0]


class StaleStatsPlayer:
    """Reports the same statistics object after every move, though it never searches."""

    last_stats = Stats(3, 3, 100, 0, 0, 0, 0, 0, 0, 0.1)

    def choose_move(self, game: AnyGame, state: Any) -> Any:
        return game.legal_moves(state)[-1]


CRUSHER_MATCH = MatchSpec("crusher", ("ai:depth=1", "random"), games=6, options={"n": 3}, seed=7)


@pytest.fixture(scope="module")
def crusher_result() -> MatchResult:
    return run_match(CRUSHER_MATCH)


# --- the runner ----------------------------------------------------------------------------


def test_results_add_up(crusher_result: MatchResult) -> None:
    result = crusher_result
    assert len(result.records) == 6
    assert result.wins + result.draws + result.losses == 6
    assert sum(result.reasons.values()) == 6
    assert result.score == pytest.approx(sum(r.a_points for r in result.records) / 6)
    assert [record.index for record in result.records] == list(range(6))


def test_colours_alternate(crusher_result: MatchResult) -> None:
    assert [record.a_side for record in crusher_result.records] == [0, 1, 0, 1, 0, 1]


def test_every_move_is_counted(crusher_result: MatchResult) -> None:
    game = CRUSHER_MATCH.load_game()
    for record in crusher_result.records:
        a, b = record.tallies
        assert a.moves + b.moves == record.plies
        first, second = (a, b) if record.a_side == 0 else (b, a)
        assert first.moves - second.moves in (0, 1), "side 0 moves first, then they alternate"
        assert a.searches == a.moves, "the AI reports every search"
        assert a.depth == a.moves, "depth 1 each time"
        assert b.searches == 0
        state = game.initial_state()
        for text in record.moves:
            state = game.apply(state, game.parse_move(state, text))
        outcome = game.outcome(state)
        assert outcome is not None
        assert outcome.reason == record.reason
        winner_side = outcome.winner
        expected = None if winner_side is None else int(winner_side != record.a_side)
        assert record.winner == expected


def test_winner_is_told_by_player_not_side() -> None:
    spec = MatchSpec("loa", ("ai:depth=2", "random"), games=2, options={"size": 5}, seed=3)
    result = run_match(spec)
    assert result.wins == 2, "the AI wins with either colour"
    assert result.tally(0).mean_depth == 2


def test_same_seed_same_match(crusher_result: MatchResult) -> None:
    again = run_match(CRUSHER_MATCH)
    assert [r.moves for r in again.records] == [r.moves for r in crusher_result.records]
    other = run_match(MatchSpec("crusher", ("ai:depth=1", "random"), 6, {"n": 3}, seed=8))
    assert [r.moves for r in other.records] != [r.moves for r in crusher_result.records]


def test_openings_are_shared_by_each_pair() -> None:
    spec = MatchSpec("network", ("ai:depth=1", "ai:depth=2"), games=4, seed=2, opening_plies=3)
    records = [play_match_game(spec, index) for index in range(4)]
    openings = [record.moves[: record.opening_plies] for record in records]
    assert all(record.opening_plies == 3 for record in records)
    assert openings[0] == openings[1]
    assert openings[2] == openings[3]
    assert openings[0] != openings[2]
    assert records[0].moves != records[1].moves, "colours swapped after the same opening"


def test_written_openings_start_each_pair_in_turn() -> None:
    openings = (("d5", "e4"), ("b2",))
    spec = MatchSpec(
        "connect5",
        ("ai:depth=1", "random"),
        games=6,
        seed=1,
        openings=openings,
        options={"size": 9},
    )
    records = [play_match_game(spec, index) for index in range(6)]
    starts = [record.moves[: record.opening_plies] for record in records]
    assert starts == [("d5", "e4"), ("d5", "e4"), ("b2",), ("b2",), ("d5", "e4"), ("d5", "e4")]
    assert [record.a_side for record in records[:2]] == [0, 1]


def test_written_opening_refuses_what_is_not_a_running_game() -> None:
    game = load_game("connect5", size=9)
    state, moves = written_opening(game, ("d5", "e4"))
    assert len(moves) == 2
    assert game.to_move(state) == 0
    with pytest.raises(IllegalMoveError):
        written_opening(game, ("d5", "d5"))
    five = ("a1", "a9", "b1", "b9", "c1", "c9", "d1", "d9", "e1", "e9")
    with pytest.raises(ValueError, match="ends the game"):
        written_opening(game, five)
    with pytest.raises(ValueError, match="not both"):
        MatchSpec("connect5", ("random", "random"), opening_plies=2, openings=(("d5",),))


def test_read_openings_skips_comments_and_blank_lines() -> None:
    text = "# balanced openings\nd5 e4  # kept\n\n  b2 c3 \n"
    assert read_openings(text) == (("d5", "e4"), ("b2", "c3"))


def test_random_opening_is_reproducible_and_running() -> None:
    game = load_game("connect5", size=7)
    state, moves = random_opening(game, 5, seed=11)
    assert (state, moves) == random_opening(game, 5, seed=11)
    assert len(moves) == 5
    assert game.outcome(state) is None
    replayed = game.initial_state()
    for move in moves:
        replayed = game.apply(replayed, move)
    assert replayed == state


def test_illegal_move_loses() -> None:
    spec = MatchSpec("connect5", ("tests.engine.test_match:IllegalPlayer", "random"), 2, seed=1)
    result = run_match(spec)
    assert result.losses == 2
    assert set(result.reasons) == {ILLEGAL_MOVE}
    first, second = result.records
    assert first.plies == 2, "A's first move was legal, its second not"
    assert second.plies == 3


def test_stale_statistics_are_not_counted_again() -> None:
    player = StaleStatsPlayer()
    token = search_token(player)
    assert search_figures(player, None) == (3, 100)
    assert search_figures(player, token) == (None, None)
    spec = MatchSpec("crusher", ("tests.engine.test_match:StaleStatsPlayer", "random"), 2, {"n": 3})
    result = run_match(spec)
    assert result.tally(0).searches == 0, "the same statistics never count as a new search"


def test_partial_iterations_do_not_count_as_depth() -> None:
    game = load_game("loa", size=8)
    player = AIPlayer(nodes=300)
    player.choose_move(game, game.initial_state())
    result = player.last_result
    assert result is not None
    depth, nodes = search_figures(player, None)
    assert depth == (result.depth if result.complete else result.depth - 1)
    assert nodes == result.stats.nodes


def test_bad_specs() -> None:
    with pytest.raises(ValueError, match="at least one game"):
        MatchSpec("network", ("random", "random"), games=0)
    with pytest.raises(ValueError, match="opening"):
        MatchSpec("network", ("random", "random"), opening_plies=-1)


def test_tally_means() -> None:
    tally = Tally().add(0.5, 4, 1000).add(1.5, None, None).add(1.0, 6, 3000)
    assert tally.moves == 3
    assert tally.mean_time == pytest.approx(1.0)
    assert tally.mean_depth == pytest.approx(5.0)
    assert tally.nodes_per_second == pytest.approx(4000 / 3.0)
    assert Tally().mean_time is None
    assert Tally().add(0.1, None, None).mean_depth is None
    assert tally.merged(Tally()) == tally


# --- scoring -------------------------------------------------------------------------------


def test_score_counts_draws_as_half() -> None:
    assert match_score(3, 2, 5) == pytest.approx(0.4)
    assert match_score(0, 4, 0) == pytest.approx(0.5)


@pytest.mark.parametrize(
    ("counts", "low", "high"),
    [
        ((8, 0, 2), 0.4902, 0.9433),
        ((100, 0, 0), 0.9630, 1.0),
        ((0, 0, 100), 0.0, 0.0370),
        ((50, 0, 50), 0.4038, 0.5962),
        ((1, 0, 0), 0.2065, 1.0),
    ],
)
def test_wilson_interval_known_values(
    counts: tuple[int, int, int], low: float, high: float
) -> None:
    interval = wilson_interval(*counts)
    assert interval.low == pytest.approx(low, abs=1e-4)
    assert interval.high == pytest.approx(high, abs=1e-4)


def test_interval_holds_the_score_and_narrows_with_games() -> None:
    few = wilson_interval(6, 2, 2)
    many = wilson_interval(60, 20, 20)
    assert match_score(6, 2, 2) in few
    assert match_score(60, 20, 20) in many
    assert many.high - many.low < few.high - few.low


def test_interval_is_symmetric_between_the_players() -> None:
    a = wilson_interval(7, 3, 2)
    b = wilson_interval(2, 3, 7)
    assert a.low == pytest.approx(1 - b.high)
    assert a.high == pytest.approx(1 - b.low)
    assert wilson_interval(10, 0, 0).high == 1.0
    assert wilson_interval(0, 0, 10).low == 0.0
    even = wilson_interval(0, 10, 0)
    assert even.low == pytest.approx(1 - even.high)


def test_interval_contains() -> None:
    assert 0.5 in Interval(0.4, 0.6)
    assert 0.7 not in Interval(0.4, 0.6)
    assert "0.5" not in Interval(0.4, 0.6)


def test_elo_difference() -> None:
    assert f"{elo_difference(0.5):+.0f}" == "+0"
    assert elo_difference(0.75) == pytest.approx(190.85, abs=0.01)
    assert elo_difference(0.25) == pytest.approx(-190.85, abs=0.01)
    assert elo_difference(1.0) == MAX_ELO
    assert elo_difference(0.0) == -MAX_ELO
    with pytest.raises(ValueError, match="between 0 and 1"):
        elo_difference(1.5)


def test_scores_need_games() -> None:
    with pytest.raises(ValueError, match="at least one game"):
        match_score(0, 0, 0)
    with pytest.raises(ValueError, match="negative"):
        wilson_interval(-1, 0, 3)

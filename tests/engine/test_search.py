"""The alpha-beta search: exact minimax values, wins, blocks, limits, statistics and trace."""

from __future__ import annotations

import io
import random
from typing import Any

import pytest

from gamut_engine import AnyGame, Game, load_game
from gamut_engine.search import (
    WIN,
    Limits,
    Searcher,
    describe_score,
    iterate,
    minimax,
    minimax_values,
    nodes,
    search,
)
from tests.engine.toy_games import TakeAway, TicTacToe


def assert_exact(game: Game[Any, Any], state: Any, depth: int) -> None:
    """The depth-limited search agrees with plain minimax on the score and the move's value."""
    result = search(game, state, Limits(depth=depth))
    values = minimax_values(game, state, depth)
    best = max(values.values())
    assert result.score == best, f"depth {depth}: search {result.score}, minimax {best}"
    assert values[result.move] == best
    assert result.move in game.legal_moves(state)
    assert result.depth == depth
    assert result.complete


def random_states(game: AnyGame, seed: int, count: int) -> list[Any]:
    """Running positions from random games, spread over the game."""
    rng = random.Random(seed)
    states: list[Any] = []
    while len(states) < count:
        state = game.initial_state()
        while game.outcome(state) is None:
            if rng.random() < 0.3:
                states.append(state)
            state = game.play(state, rng.choice(game.legal_moves(state)))
    return states[:count]


def winning_moves(game: AnyGame, state: Any) -> set[Any]:
    """The moves that win at once for the side to move."""
    side = game.to_move(state)
    wins = set()
    for move in game.legal_moves(state):
        outcome = game.outcome(game.play(state, move))
        if outcome is not None and outcome.winner == side:
            wins.add(move)
    return wins


def safe_moves(game: AnyGame, state: Any) -> set[Any]:
    """The moves after which the opponent has no immediate win."""
    safe = set()
    for move in game.legal_moves(state):
        child = game.play(state, move)
        if game.outcome(child) is not None or not winning_moves(game, child):
            safe.add(move)
    return safe


# --- exactness on the toy games --------------------------------------------------------------


@pytest.mark.parametrize("seed", range(4))
def test_tictactoe_matches_minimax(seed: int) -> None:
    game = TicTacToe()
    for state in random_states(game, seed, 3):
        for depth in range(1, 5):
            assert_exact(game, state, depth)


def test_tictactoe_from_the_start_is_a_draw_at_full_depth() -> None:
    game = TicTacToe()
    result = search(game, game.initial_state(), Limits(depth=9))
    assert result.score == 0
    assert_exact(game, game.initial_state(), 5)


@pytest.mark.parametrize("misere", [False, True])
@pytest.mark.parametrize("stones", [5, 9, 14])
def test_takeaway_matches_minimax_across_transpositions(stones: int, misere: bool) -> None:
    """Positions recur after different numbers of plies; win scores must still be exact."""
    game = TakeAway(stones, misere)
    for depth in range(1, 10):
        assert_exact(game, game.initial_state(), depth)


def test_takeaway_solved_by_a_timeless_search() -> None:
    game = TakeAway(21)
    results = list(iterate(game, game.initial_state()))
    final = results[-1]
    assert final.move == 1
    assert final.score == WIN - 11
    assert describe_score(final.score) == "win in 11"
    assert [r.depth for r in results] == list(range(1, 12))


def test_sooner_win_scores_higher_and_is_chosen() -> None:
    game = TakeAway(3)
    result = search(game, game.initial_state(), Limits(depth=5))
    assert result.move == 3
    assert result.score == WIN - 1
    assert result.pv == (3,)


def test_later_loss_scores_higher_than_a_sooner_one() -> None:
    game = TakeAway(4)
    result = search(game, game.initial_state(), Limits(depth=6))
    assert result.score == -(WIN - 2)
    assert minimax(game, game.initial_state(), 6) == result.score


def test_ending_the_game_can_lose_it() -> None:
    """In misère take-away the mover who takes the last stone loses, as in Network's rule."""
    game = TakeAway(2, misere=True)
    assert search(game, game.initial_state(), Limits(depth=1)).move == 1
    result = search(game, game.initial_state(), Limits(depth=2))
    assert (result.move, result.score) == (1, WIN - 2)


def test_depth_one_looks_at_own_moves_only() -> None:
    game = TicTacToe()
    result = search(game, game.initial_state(), Limits(depth=1))
    stats = result.stats
    assert stats.max_depth == 1
    assert stats.nodes == 1 + 9
    assert stats.evals_max == 0
    assert stats.evals_min == 9
    assert result.pv == (result.move,)


# --- limits, iterations and results ------------------------------------------------------------


def test_iterate_yields_every_depth_in_order() -> None:
    game = TicTacToe()
    results = list(iterate(game, game.initial_state(), Limits(depth=6)))
    assert [r.depth for r in results] == [1, 2, 3, 4, 5, 6]
    assert all(r.complete for r in results)
    nodes = [r.stats.nodes for r in results]
    assert nodes == sorted(nodes)


def test_node_limit_is_respected_and_deterministic() -> None:
    game = TicTacToe()
    first = search(game, game.initial_state(), Limits(nodes=300))
    second = search(game, game.initial_state(), Limits(nodes=300))
    assert first.stats.nodes <= 300
    assert (first.move, first.score, first.depth) == (second.move, second.score, second.depth)
    assert first.move in game.legal_moves(game.initial_state())


def test_cut_short_iteration_keeps_a_safe_move() -> None:
    """A partial iteration reports only once its first move, the previous best, is done."""
    game = TicTacToe()
    state = game.initial_state()
    full = list(iterate(game, state, Limits(depth=5)))
    partials = []
    for budget in range(full[3].stats.nodes + 1, full[4].stats.nodes, 10):
        results = list(iterate(game, state, Limits(depth=5, nodes=budget)))
        assert [r.depth for r in results[:4]] == [1, 2, 3, 4]
        assert all(r.complete for r in results[:4])
        if len(results) == 5:
            partials.append(results[-1])
    assert partials, "some budget ends inside the first iteration at depth 5"
    values = minimax_values(game, state, 5)
    for partial in partials:
        assert not partial.complete
        assert partial.depth == 5
        assert partial.move in game.legal_moves(state)
        assert partial.pv[0] == partial.move
        assert partial.score == values[partial.move]


def test_a_tiny_node_limit_still_gives_a_legal_move() -> None:
    game = TicTacToe()
    state = game.play(game.initial_state(), 4)
    result = search(game, state, Limits(nodes=1))
    assert result.move in game.legal_moves(state)
    assert not result.complete


def test_time_limit_gives_a_legal_move() -> None:
    game = TakeAway(60)
    result = search(game, game.initial_state(), Limits(time=0.05))
    assert result.move in game.legal_moves(game.initial_state())


class FakeClock:
    """A clock that moves on ``tick`` seconds each time it is read, and counts the reads."""

    def __init__(self, tick: float) -> None:
        self.tick = tick
        self.reads = 0

    def __call__(self) -> float:
        self.reads += 1
        return self.reads * self.tick


def test_a_timed_search_reads_the_clock_at_every_node() -> None:
    game = TakeAway(60)
    clock = FakeClock(tick=1e-9)
    result = Searcher(game, clock=clock).search(game.initial_state(), Limits(time=1.0, depth=8))
    assert result.complete
    assert clock.reads >= result.stats.nodes


def test_a_timed_search_stops_at_the_clocks_deadline_not_a_node_count() -> None:
    game = TakeAway(60)
    clock = FakeClock(tick=0.001)
    result = Searcher(game, clock=clock).search(game.initial_state(), Limits(time=0.05))
    # Fifty reads of a millisecond each reach the deadline: far fewer nodes than the 256
    # the node-limit check waits for.
    assert result.move in game.legal_moves(game.initial_state())
    assert clock.reads <= 60
    assert result.stats.nodes <= 55


class OnlyOneMove(TakeAway):
    """Take-away where the search is offered a single move."""

    def search_moves(self, state: tuple[int, int]) -> list[int]:
        return [1]


def test_a_single_move_is_played_without_deepening() -> None:
    game = OnlyOneMove(20)
    result = search(game, game.initial_state(), Limits(time=60))
    assert (result.move, result.depth) == (1, 1)
    assert search(game, game.initial_state(), Limits(depth=3)).depth == 3


def test_searcher_reuses_its_table_between_searches() -> None:
    game = TicTacToe()
    searcher = Searcher(game)
    state = game.initial_state()
    first = searcher.search(state, Limits(depth=4))
    second = searcher.search(state, Limits(depth=4))
    assert second.score == first.score
    assert second.stats.tt_hits > first.stats.tt_hits
    assert searcher.table
    searcher.clear()
    assert not searcher.table


def test_each_horizon_position_is_evaluated_once() -> None:
    game = load_game("connect5", size=9)
    state = game.play(game.play(game.initial_state(), 40), 41)
    evaluated: list[int] = []
    evaluate = game.evaluate

    def counting(position: Any) -> int:
        evaluated.append(game.key(position))
        return evaluate(position)

    game.evaluate = counting  # type: ignore[method-assign,assignment]
    searcher = Searcher(game)
    result = searcher.search(state, Limits(depth=3))
    # Re-searches and transpositions meet the same positions again, and take their
    # values from the searcher rather than from the game.
    assert result.stats.evals_max + result.stats.evals_min > len(evaluated)
    assert len(evaluated) == len(set(evaluated))
    assert result.score == search(load_game("connect5", size=9), state, Limits(depth=3)).score


def test_table_is_trimmed_to_its_size() -> None:
    game = TicTacToe()
    searcher = Searcher(game, table_size=50)
    result = searcher.search(game.initial_state(), Limits(depth=6))
    assert result.score == minimax(game, game.initial_state(), 6)
    assert len(searcher.table) <= 50 + 256


def test_noise_varies_the_choice_but_reports_exact_values() -> None:
    game = TicTacToe()
    state = game.play(game.initial_state(), 0)
    values = minimax_values(game, state, 3)
    chosen = set()
    for seed in range(12):
        result = Searcher(game, noise=40, seed=seed).search(state, Limits(depth=3))
        assert result.score == values[result.move]
        assert result.pv[0] == result.move
        chosen.add(result.move)
    assert len(chosen) > 1


def test_noise_keeps_wins_and_legality() -> None:
    game = TakeAway(3)
    searcher = Searcher(game, noise=1000, seed=5)
    for _ in range(5):
        assert searcher.search(game.initial_state(), Limits(depth=2)).move == 3


def test_finished_games_and_bad_limits_are_refused() -> None:
    game = TakeAway(1)
    over = game.play(game.initial_state(), 1)
    with pytest.raises(ValueError, match="over"):
        search(game, over, Limits(depth=1))
    with pytest.raises(ValueError, match="depth"):
        Limits(depth=0)
    with pytest.raises(ValueError, match="time"):
        Limits(time=0)
    with pytest.raises(ValueError, match="limit"):
        search(game, game.initial_state(), Limits())


# --- statistics and trace ---------------------------------------------------------------------


def test_statistics_count_max_and_min_nodes() -> None:
    game = TicTacToe()
    result = search(game, game.initial_state(), Limits(depth=4))
    stats = result.stats
    assert stats.depth == 4
    assert stats.max_depth == 4
    assert stats.evals_max > 0
    assert stats.evals_min > 0
    assert stats.cutoffs_max > 0
    assert stats.cutoffs_min > 0
    assert stats.tt_hits >= stats.tt_cutoffs > 0
    assert stats.nodes > stats.evals_max + stats.evals_min
    text = stats.format()
    for label in (
        "Maximum depth reached",
        "Nodes generated",
        "Evaluations in MAX",
        "Evaluations in MIN",
        "Cutoffs in MAX",
        "Cutoffs in MIN",
        "Transposition table hits",
        "Elapsed time",
    ):
        assert label in text
    assert str(stats) == text
    assert f"{stats.nodes:,}" in stats.summary()
    assert "Principal variation: b2" in result.format(game.format_move)


def test_trace_shows_nodes_and_values_indented_by_depth() -> None:
    game = TicTacToe()
    stream = io.StringIO()
    search(game, game.initial_state(), Limits(depth=2), trace=stream)
    lines = stream.getvalue().splitlines()
    assert lines[0].startswith("depth 1: 9 moves from [")
    assert "  b2  = +40 (eval)" in lines
    assert any(line.startswith("  b2  min [") and "window [-inf, +inf]" in line for line in lines)
    assert any(line.startswith("    b2 a3  = ") for line in lines)
    assert "depth 2 best b2 = +10" in lines


def test_trace_is_bounded() -> None:
    game = TicTacToe()
    stream = io.StringIO()
    search(game, game.initial_state(), Limits(depth=5), trace=stream, trace_lines=25)
    lines = stream.getvalue().splitlines()
    assert len(lines) == 26
    assert lines[-1].startswith("... ")
    assert lines[-1].endswith(" more trace lines left out")


def test_trace_can_name_positions_by_text() -> None:
    game = TakeAway(3)
    stream = io.StringIO()
    search(game, game.initial_state(), Limits(depth=2), trace=stream, trace_positions=True)
    assert "depth 1: 3 moves from [3 0]" in stream.getvalue()
    assert "(end)" in stream.getvalue()


def horizon_plies(game: Game[Any, Any], depth: int) -> set[int]:
    """Plies of the evaluated positions in iteration ``depth`` of a search without limits."""
    stream = io.StringIO()
    results = Searcher(game, trace=stream, trace_lines=10**7).iterate(game.initial_state())
    for _ in range(depth):
        next(results)
    results.close()
    section = stream.getvalue().split(f"depth {depth}:")[1]
    return {
        len(line.split("=")[0].split()) for line in section.splitlines() if line.endswith("(eval)")
    }


def test_the_latest_moves_are_searched_two_plies_short(monkeypatch: pytest.MonkeyPatch) -> None:
    game = load_game("loa", size=5)
    monkeypatch.setattr(nodes, "DEEP_REDUCTION_START", 99)
    assert horizon_plies(game, 5) == {4, 5}
    monkeypatch.setattr(nodes, "DEEP_REDUCTION_START", 6)
    assert horizon_plies(game, 5) == {3, 4, 5}


def test_a_search_limited_by_depth_reduces_nothing() -> None:
    game = TicTacToe()
    stream = io.StringIO()
    search(game, game.initial_state(), Limits(depth=4), trace=stream, trace_lines=10**6)
    section = stream.getvalue().split("depth 4:")[1]
    plies = {
        len(line.split("=")[0].split()) for line in section.splitlines() if line.endswith("(eval)")
    }
    assert plies == {4}

"""Connect Five evaluation, move ordering and the continuous-fours (VCF) search."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gamut_engine.games.connect5 import ConnectFiveGame, load_board
from gamut_engine.games.connect5_board import Connect5State
from gamut_engine.games.connect5_eval import OPEN_FOUR_NEXT, WIN_NEXT
from gamut_engine.games.connect5_scan import Patterns, line_threats, patterns
from gamut_engine.games.connect5_threats import find_forced_win


def board(rows: str) -> tuple[ConnectFiveGame, Connect5State]:
    """A game and position from rows of X, O and - (the side with fewer stones to move)."""
    return load_board(rows)


def row_patterns(line: str) -> Patterns:
    """X's pattern counts when ``line`` is the middle row of an otherwise empty 9×9 board."""
    game = ConnectFiveGame(size=9)
    bits = game.board.bits[4 * 9 : 5 * 9]
    x = sum(bit for bit, symbol in zip(bits, line, strict=False) if symbol == "X")
    o = sum(bit for bit, symbol in zip(bits, line, strict=False) if symbol == "O")
    return patterns(line_threats(game.board, x, o)[0])


def mirrored(game: ConnectFiveGame, state: Connect5State) -> Connect5State:
    """``state`` reflected left to right."""
    n = game.size
    bits = game.board.bits
    x = sum(
        bits[r * n + (n - 1 - c)] for r in range(n) for c in range(n) if state.x & bits[r * n + c]
    )
    o = sum(
        bits[r * n + (n - 1 - c)] for r in range(n) for c in range(n) if state.o & bits[r * n + c]
    )
    return game.state_from_stones(x, o, state.turn)


def random_position(game: ConnectFiveGame, rng: random.Random, plies: int) -> Connect5State:
    """A position reached by ``plies`` moves among the ones the search would try."""
    state = game.initial_state()
    for _ in range(plies):
        if game.outcome(state) is not None:
            break
        state = game.play(state, rng.choice(game.search_moves(state)[:8]))
    return state


def wins_at(game: ConnectFiveGame, state: Connect5State, side: int) -> set[int]:
    """Empty cells where a stone of ``side`` would make five (found by trying each one)."""
    trial = state._replace(turn=side, key=0, won=False)
    found = set()
    for move in game.legal_moves(state):
        outcome = game.outcome(game.play(trial, move))
        if outcome is not None and outcome.winner == side:
            found.add(move)
    return found


# Pattern counts


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("-XXXX-", {"win_cells": 2, "open_fours": 1, "fours": 0}),
        ("OXXXX-", {"win_cells": 1, "open_fours": 0, "fours": 1}),
        ("XX-XX", {"win_cells": 1, "open_fours": 0, "fours": 1}),
        ("--XXX--", {"open_threes": 2, "fours": 0, "threes": 3}),
        ("-XX-X-", {"open_threes": 1}),
        ("O-XXX-O", {"open_threes": 0, "threes": 1}),
        ("--XX---", {"open_threes": 0, "threes": 0, "twos": 3}),
    ],
)
def test_pattern_counts_of_one_row(line: str, expected: dict[str, int]) -> None:
    counts = row_patterns(line)._asdict()
    assert {name: counts[name] for name in expected} == expected


# Evaluation


def test_a_win_next_move_and_an_unstoppable_open_four() -> None:
    game, state = board("-----\nXXXX-\n-OOOO\n-----\n-----")
    assert game.evaluate(state) == WIN_NEXT
    game, state = board("-------\n-XXXX--\n-------\n-O-O---\n-------\n---O---\n-------")
    assert game.to_move(state) == 1
    assert game.evaluate(state) == -WIN_NEXT


def test_a_finished_game_scores_as_lost_for_the_side_to_move() -> None:
    game, state = board("-----\nXXXX-\n-OOOO\n-----\n-----")
    assert game.evaluate(game.play(state, 9)) == -WIN_NEXT


def test_an_open_three_against_no_four_is_a_win_in_three() -> None:
    game, state = board("---------\n" * 4 + "--XXX----\n---------\nO-O---O--\n" + "---------\n" * 2)
    assert game.to_move(state) == 0
    assert game.evaluate(state) == OPEN_FOUR_NEXT


def test_an_open_three_is_worth_more_than_a_blocked_one() -> None:
    empty = "-" * 9
    _, opened = board("\n".join([empty] * 4 + ["--XXX----", empty, empty, "--O-O----", empty]))
    game, closed = board("\n".join([empty] * 4 + ["-OXXX----", empty, empty, "----O----", empty]))
    assert game.to_move(opened) == game.to_move(closed) == 1
    assert game.evaluate(opened) < game.evaluate(closed)


def test_more_stones_in_line_score_higher() -> None:
    empty = "-" * 9
    game, two = board("\n".join([empty] * 4 + ["---XX----", empty, "---O-O---", empty, empty]))
    _, scattered = board("\n".join([empty] * 4 + ["-X-----X-", empty, "---O-O---", empty, empty]))
    assert game.evaluate(two) > game.evaluate(scattered)


def test_the_side_to_move_is_better_off_in_a_symmetric_position() -> None:
    empty = "-" * 9
    game, state = board("\n".join([empty] * 3 + ["---XX----", "---OO----"] + [empty] * 4))
    assert game.evaluate(state) > 0


@settings(max_examples=40, deadline=None)
@given(size=st.sampled_from([7, 9, 15]), rng=st.randoms(use_true_random=False))
def test_evaluation_is_bounded_and_blind_to_reflection(size: int, rng: random.Random) -> None:
    game = ConnectFiveGame(size=size)
    state = random_position(game, rng, rng.randrange(0, 30))
    if game.outcome(state) is not None:
        return
    score = game.evaluate(state)
    assert abs(score) < 1_000_000
    assert game.evaluate(mirrored(game, state)) == score


# Move ordering


def test_the_first_stone_goes_in_the_centre() -> None:
    game = ConnectFiveGame(size=15)
    assert [game.format_move(m) for m in game.search_moves(game.initial_state())] == ["h8"]


def test_a_winning_move_is_all_there_is_to_search() -> None:
    game, state = board("-----\nXXXX-\n-OOOO\n-----\n-----")
    assert [game.format_seed_move(m) for m in game.search_moves(state)] == ["(4 1)"]


def test_a_threat_of_five_leaves_only_its_block() -> None:
    game, state = board("-------\n-XXXX--\n-------\n-O-O---\n-------\n---O---\n-------")
    assert game.to_move(state) == 1
    assert sorted(game.format_move(m) for m in game.search_moves(state)) == ["a6", "f6"]


def test_own_open_four_comes_before_blocking_an_open_three() -> None:
    empty = "-" * 9
    game, state = board(
        "\n".join([empty] * 2 + ["--XXX----", empty, empty, "--OOO----", "X-----O--", empty, empty])
    )
    assert game.to_move(state) == 0
    first = {game.format_move(m) for m in game.search_moves(state)[:2]}
    assert first == {"b7", "f7"}
    assert game.search_moves(state)[2:4] == [game.parse_move(state, c) for c in ("b4", "f4")]


@settings(max_examples=60, deadline=None)
@given(size=st.sampled_from([7, 9, 15]), rng=st.randoms(use_true_random=False))
def test_search_moves_never_drop_a_win_or_a_needed_block(size: int, rng: random.Random) -> None:
    game = ConnectFiveGame(size=size)
    state = random_position(game, rng, rng.randrange(1, 40))
    if game.outcome(state) is not None:
        assert game.search_moves(state) == []
        return
    moves = game.search_moves(state)
    legal = set(game.legal_moves(state))
    assert moves
    assert len(moves) == len(set(moves))
    assert set(moves) <= legal
    stones = [divmod(c, size) for c in game.board.cells_of(state.x | state.o)]
    near = {
        c
        for c in range(size * size)
        if any(max(abs(c // size - r), abs(c % size - k)) <= 2 for r, k in stones)
    }
    assert set(moves) <= near
    mine, theirs = wins_at(game, state, state.turn), wins_at(game, state, 1 - state.turn)
    if mine:
        assert set(moves) == mine
    elif theirs:
        assert set(moves) == theirs
    else:
        # Every near cell is kept, unless the opponent threatens an open or double four:
        # then a dropped move makes no four and leaves the opponent that threat.
        dropped = sorted((near & legal) - set(moves))
        for move in rng.sample(dropped, min(2, len(dropped))):
            after = game.play(state, move)
            assert not wins_at(game, after, state.turn)
            assert any(
                len(wins_at(game, game.play(after, reply), 1 - state.turn)) >= 2
                for reply in game.legal_moves(after)
            )


def test_an_open_three_leaves_only_its_blocks() -> None:
    empty = "-" * 9
    game, state = board(
        "\n".join(
            [empty] * 2 + ["X-------X", empty, empty, "--OOO----", empty, "X-------X", "----O----"]
        )
    )
    assert game.to_move(state) == 0
    assert sorted(game.format_move(m) for m in game.search_moves(state)) == ["b4", "f4"]


# Victory by continuous fours


VCF_ROWS = [
    "O-----O-------O",
    "---------------",
    "---------------",
    "------O--------",
    "------X--------",
    "------X--------",
    "--------XXXO---",
    "--OXXX---------",
    "---------------",
    "---------------",
    "---------------",
    "---------------",
    "---------------",
    "---------------",
    "O-------------O",
]
"""X to move wins by g9 (forcing h9), then g8 (fours on row 8 and column g at once)."""


def wins_by_force(game: ConnectFiveGame, state: Connect5State, depth: int) -> bool:
    """Whether ``find_forced_win``'s moves beat every defence within ``depth`` stones."""
    move = find_forced_win(game, state, depth)
    if move is None:
        return False
    after = game.play(state, move)
    outcome = game.outcome(after)
    if outcome is not None:
        return outcome.winner == game.to_move(state)
    replies = game.legal_moves(after)
    return all(wins_by_force(game, game.play(after, reply), depth - 1) for reply in replies)


def test_vcf_finds_the_four_that_sets_up_a_double_four() -> None:
    game, state = board("\n".join(VCF_ROWS))
    assert game.to_move(state) == 0
    assert find_forced_win(game, state, 2) is None
    move = find_forced_win(game, state, 3)
    assert move is not None
    assert game.format_move(move) == "g9"
    assert wins_by_force(game, state, 3)


def test_vcf_takes_an_immediate_win_and_respects_the_ply_cap() -> None:
    text = "\n".join(VCF_ROWS)
    game, state = board(text)
    capped, capped_state = load_board(text, max_plies=game.ply(state) + 3)
    assert find_forced_win(capped, capped_state, 3) is None
    seed, seed_state = board("-----\nXXXX-\n-OOOO\n-----\n-----")
    assert find_forced_win(seed, seed_state, 1) == 9


def test_vcf_blocks_a_five_threat_before_attacking() -> None:
    rows = list(VCF_ROWS)
    rows[0] = "---------------"
    rows[10] = "--XOOOO--------"
    game, state = board("\n".join(rows))
    assert game.to_move(state) == 0
    assert find_forced_win(game, state, 6) is None, "h5 must be blocked and makes no four"
    rows[10] = "---OOOO--------"
    game, state = board("\n".join(rows))
    assert find_forced_win(game, state, 6) is None, "an open four cannot be stopped"


@settings(max_examples=40, deadline=None)
@given(rng=st.randoms(use_true_random=False))
def test_every_vcf_found_is_a_forced_win(rng: random.Random) -> None:
    game = ConnectFiveGame(size=9)
    state = random_position(game, rng, rng.randrange(8, 30))
    if game.outcome(state) is None and find_forced_win(game, state, 4) is not None:
        assert wins_by_force(game, state, 4)

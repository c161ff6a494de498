"""Lines of Action properties: the bitboard engine against the plain model, on any position."""

from __future__ import annotations

import itertools
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gamut_engine import IllegalMoveError, Outcome
from gamut_engine.games.loa import PASS, LinesOfActionGame, LoaMove, LoaState
from tests.engine import loa_reference

GAMES = {size: LinesOfActionGame(size=size) for size in (5, 6, 8)}


def model_board(game: LinesOfActionGame, state: LoaState) -> loa_reference.Board:
    """The plain model's board for ``state``."""
    board: loa_reference.Board = {}
    for sq in game.board.squares:
        rank, file = game.board.coordinates(sq)
        if state.black >> sq & 1:
            board[(file, rank)] = 0
        elif state.white >> sq & 1:
            board[(file, rank)] = 1
    return board


def model_moves(game: LinesOfActionGame, state: LoaState) -> set[LoaMove]:
    """The plain model's moves for ``state``, as engine moves."""
    found = loa_reference.moves(model_board(game, state), game.size, state.side)
    index = game.board.index
    return {
        LoaMove(index[cell_name(origin)], index[cell_name(target)], capture)
        for origin, target, capture in found
    }


def cell_name(cell: loa_reference.Cell) -> str:
    """The engine's name for a plain-model cell."""
    return f"{chr(ord('a') + cell[0])}{cell[1] + 1}"


@st.composite
def positions(draw: st.DrawFn) -> tuple[LinesOfActionGame, LoaState]:
    """Any position with two pieces a side or more: random cells, random side to move."""
    game = GAMES[draw(st.sampled_from(sorted(GAMES)))]
    squares = list(game.board.squares)
    chosen = draw(st.lists(st.sampled_from(squares), min_size=5, max_size=24, unique=True))
    split = draw(st.integers(2, len(chosen) - 2))
    black = sum(1 << sq for sq in chosen[:split])
    white = sum(1 << sq for sq in chosen[split:])
    return game, game.make_state(black, white, draw(st.integers(0, 1)), 0)


@st.composite
def played_games(draw: st.DrawFn) -> tuple[LinesOfActionGame, list[LoaState]]:
    """The states of a random game from the start, up to 60 plies or its end."""
    game = GAMES[draw(st.sampled_from(sorted(GAMES)))]
    rng = random.Random(draw(st.integers(0, 2**32)))
    states = [game.initial_state()]
    while len(states) < 60 and game.outcome(states[-1]) is None:
        states.append(game.play(states[-1], rng.choice(game.legal_moves(states[-1]))))
    return game, states


@settings(max_examples=150, deadline=None)
@given(positions())
def test_moves_and_winner_match_the_plain_model(case: tuple[LinesOfActionGame, LoaState]) -> None:
    game, state = case
    board = model_board(game, state)
    black, white = (loa_reference.connected(board, side) for side in (0, 1))
    outcome = game.outcome(state)
    if black or white:
        mover = 1 - state.side
        expected = mover if black and white else (0 if black else 1)
        assert outcome is not None
        assert outcome.winner == expected
        return
    assert outcome is None
    assert set(game.legal_moves(state)) == (model_moves(game, state) or {PASS})


@settings(max_examples=40, deadline=None)
@given(positions())
def test_check_move_refuses_exactly_the_moves_not_listed(
    case: tuple[LinesOfActionGame, LoaState],
) -> None:
    game, state = case
    legal = set(game.legal_moves(state))
    enemy = state.white if state.side == 0 else state.black
    own = state.black if state.side == 0 else state.white
    for origin in game.board.squares:
        if not own >> origin & 1 and origin % 3:
            continue  # every own piece, and a sample of the other squares
        for target in game.board.squares:
            move = LoaMove(origin, target, bool(enemy >> target & 1))
            if move in legal:
                game.check_move(state, move)
            else:
                with pytest.raises(IllegalMoveError, match=r"\w"):
                    game.check_move(state, move)


@settings(max_examples=30, deadline=None)
@given(played_games())
def test_incremental_keys_and_text_follow_every_move(
    case: tuple[LinesOfActionGame, list[LoaState]],
) -> None:
    game, states = case
    for state in states:
        assert state.key == game.board.key_of(state.black, state.white, state.side)
        assert state.black & state.white == 0
        assert (state.black | state.white) & ~game.board.board_mask == 0
        copy = game.decode(game.encode(state))
        assert copy[:5] == state[:5]
        if game.outcome(state) != Outcome(None, "repetition"):
            assert game.outcome(copy) == game.outcome(state)
        for move in game.legal_moves(state):
            assert game.parse_move(state, game.format_move(move)) == move


@settings(max_examples=30, deadline=None)
@given(played_games())
def test_pieces_only_ever_disappear_by_capture(
    case: tuple[LinesOfActionGame, list[LoaState]],
) -> None:
    _, states = case
    for before, after in itertools.pairwise(states):
        taken = before.black.bit_count() + before.white.bit_count()
        left = after.black.bit_count() + after.white.bit_count()
        assert taken - left in (0, 1)
        assert (after.history == ()) == (taken - left == 1)

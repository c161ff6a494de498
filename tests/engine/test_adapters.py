"""The original player interfaces: Network's MachinePlayer, the Connect Five single-move
program and the Crusher function, each checked against its original requirements."""

from __future__ import annotations

import io
import random
from typing import Any

import pytest

from gamut_engine.adapters import MachinePlayer, choose_seed_move, crusher, read_history
from gamut_engine.adapters.connect5_move import read_board
from gamut_engine.adapters.crusher_function import board_style
from gamut_engine.games.crusher import CrusherGame
from gamut_engine.games.network import NetworkGame
from gamut_engine.players import RandomPlayer

# --- Network (the CS 61B Network project) ------------------------------------------

# Alternating moves from the start, White first. White ends one chip short of the network
# 02-22-24-44-55-73 (or 75); Black plays harmless goal chips.
WHITE_THREAT = ["02", "10", "22", "30", "24", "60", "44", "17", "55", "37"]
# The same idea for Black (20-22-42-44-55 to 37 or 57), White playing harmless chips.
BLACK_THREAT = ["01", "20", "03", "22", "06", "42", "71", "44", "73", "55", "75"]


def set_up(player: MachinePlayer, moves: list[str]) -> None:
    """Play ``moves`` alternately from the start through the original two recording calls."""
    for ply, move in enumerate(moves):
        own = (ply % 2 == 0) == (player.color == 1)
        recorded = player.force_move(move) if own else player.opponent_move(move)
        assert recorded, move


def immediate_wins(game: NetworkGame, state: Any) -> list[int]:
    side = game.to_move(state)
    wins = []
    for move in game.legal_moves(state):
        outcome = game.outcome(game.play(state, move))
        if outcome is not None and outcome.winner == side:
            wins.append(move)
    return wins


def test_colours_map_to_sides_white_first() -> None:
    white, black = MachinePlayer(1, 1), MachinePlayer(0, 1)
    assert (white.side, black.side) == (0, 1)
    assert white.game.sides[white.side] == "White"
    assert black.game.sides[black.side] == "Black"
    move = white.choose_move()
    assert black.opponent_move(move)
    assert black.state == white.state


@pytest.mark.parametrize("bad", [2, -1, True])
def test_bad_colour_is_refused(bad: int) -> None:
    with pytest.raises(ValueError, match="colour"):
        MachinePlayer(bad)


def test_legal_moves_are_recorded_as_text_or_values() -> None:
    player = MachinePlayer(1)
    assert player.force_move("23")
    assert player.opponent_move(player.game.parse_move(player.state, "45"))
    assert player.force_move("[add to 25]")
    assert player.state.ply == 3


@pytest.mark.parametrize(
    ("history", "move", "why"),
    [
        ([], "00", "a corner"),
        ([], "30", "the opponent's goal"),
        (["23", "45"], "23", "an occupied square"),
        (["22", "45", "23"], "45", "a square holding its own chip"),
        ([], "hello", "no move at all"),
        ([], 10_000, "no move value"),
        ([], "23-24", "a step during the add phase"),
    ],
)
def test_illegal_moves_return_false_and_change_nothing(
    history: list[str], move: Any, why: str
) -> None:
    player = MachinePlayer(1)
    set_up(player, history)
    before = player.state
    recorder = player.force_move if len(history) % 2 == 0 else player.opponent_move
    assert not recorder(move), why
    assert player.state == before


def test_cluster_rule_refuses_a_third_chip() -> None:
    player = MachinePlayer(1)
    set_up(player, ["22", "50", "23", "60"])
    before = player.state
    assert not player.force_move("24")
    assert player.state == before
    assert player.force_move("25")


def test_moves_out_of_turn_are_refused() -> None:
    player = MachinePlayer(0)
    before = player.state
    assert not player.force_move("23"), "White moves first, not Black"
    assert player.state == before
    assert player.opponent_move("23")
    assert not player.opponent_move("45")
    with pytest.raises(ValueError, match="opponent's turn"):
        MachinePlayer(0, 1).choose_move()


@pytest.mark.parametrize(("color", "history"), [(1, WHITE_THREAT), (0, BLACK_THREAT)])
def test_takes_a_win(color: int, history: list[str]) -> None:
    player = MachinePlayer(color, 2)
    set_up(player, history)
    assert immediate_wins(player.game, player.state)
    player.choose_move()
    outcome = player.outcome
    assert outcome is not None
    assert outcome.winner == player.side
    assert outcome.reason == "network"


@pytest.mark.parametrize(("color", "history"), [(0, WHITE_THREAT[:-1]), (1, BLACK_THREAT[:-1])])
def test_blocks_a_loss(color: int, history: list[str]) -> None:
    player = MachinePlayer(color, 2)
    set_up(player, history)
    game, state = player.game, player.state
    assert not immediate_wins(game, state)
    losing = [m for m in game.legal_moves(state) if immediate_wins(game, game.play(state, m))]
    assert losing, "the position must offer moves that lose"
    player.choose_move()
    assert not immediate_wins(game, player.state)


@pytest.mark.parametrize("depth", [1, 2, 3])
def test_search_depth_is_exact(depth: int) -> None:
    player = MachinePlayer(1, depth)
    set_up(player, ["22", "50"])
    player.choose_move()
    result = player.last_result
    assert result is not None
    assert (result.depth, result.complete) == (depth, True)


def placed_out(seed: int) -> MachinePlayer | None:
    """A White player after twenty random chips, or ``None`` if the game ended first."""
    player = MachinePlayer(1, 1)
    chooser = RandomPlayer(seed)
    while player.state.ply < 20:
        move = chooser.choose_move(player.game, player.state)
        if player.state.ply % 2 == 0:
            assert player.force_move(move)
        else:
            assert player.opponent_move(player.game.format_move(move))
        if player.outcome is not None:
            return None
    return player


def test_step_moves_after_twenty_chips() -> None:
    player = next(p for p in map(placed_out, range(100)) if p is not None)
    choice = player.choose_move()
    assert "-" in player.format_move(choice), "a step move once the chips are all placed"
    if player.outcome is None:
        reply = random.Random(1).choice(player.game.legal_moves(player.state))
        assert player.opponent_move(player.format_move(reply))
        assert not player.opponent_move("23"), "a lone square is no step move"


@pytest.mark.parametrize("color", [0, 1])
def test_beats_the_random_player(color: int) -> None:
    for seed in range(3):
        player = MachinePlayer(color, 2)
        opponent = RandomPlayer(seed)
        while player.outcome is None:
            if player.game.to_move(player.state) == player.side:
                player.choose_move()
            else:
                assert player.opponent_move(opponent.choose_move(player.game, player.state))
        assert player.outcome is not None
        assert player.outcome.winner == player.side


def test_no_move_once_the_game_is_over() -> None:
    player = MachinePlayer(1, 2)
    set_up(player, [*WHITE_THREAT, "73"])
    assert player.outcome is not None
    assert not player.opponent_move("45")
    with pytest.raises(ValueError, match="over"):
        player.choose_move()


def test_2015_rules() -> None:
    player = MachinePlayer(1, 1, rules="2015")
    assert player.game.sides[player.side] == "Player 1"
    assert player.force_move("C3")
    assert player.opponent_move("D5")
    before = player.state
    assert player.choose_move() in player.game.legal_moves(before)
    assert player.state.ply == 3


# --- Connect Five (single-move programs) -------------------------------------------

SEED_BOARD = """(list (list '- '- '- '- '-)
      (list 'X 'X 'X 'X '-)
      (list '- 'O 'O 'O 'O)
      (list '- '- '- '- '-)
      (list '- '- '- '- '-))"""

# X cannot win at once; O threatens (0 2), which completes O's row.
BLOCK_BOARD = """-----
XXX--
-OOOO
X----
-----"""


def test_seed_example_is_won_at_4_1() -> None:
    answer = choose_seed_move(SEED_BOARD, depth=2)
    assert str(answer) == "(4 1)"
    assert (answer.column, answer.row) == (4, 1)


def test_blocks_when_it_cannot_win() -> None:
    answer = choose_seed_move(BLOCK_BOARD, depth=2)
    assert str(answer) == "(0 2)"


def test_x_is_to_move_when_it_has_fewer_stones() -> None:
    game, state = read_board("-----\n-----\n--O--\n-----\n-----")
    assert game.to_move(state) == 0
    answer = choose_seed_move("-----\n-----\n--O--\n-----\n-----", depth=1)
    assert (answer.column, answer.row) != (2, 2)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("XXX\n---\n---", "from 5 to 19"),
        ("-----\n-----\n-----\n-----", "square"),
        ("X----\nX----\n-----\n-----\n-----", "must have as many stones"),
        ("XXXXX\nOOOO-\n----O\n-----\n-----", "already has five"),
        ("--Z--\n-----\n-----\n-----\n-----", "not a board symbol"),
    ],
)
def test_bad_boards_are_refused(text: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        choose_seed_move(text, depth=1)


# --- Crusher (the CS 2360 function) ------------------------------------------------

SEED_HISTORY = "((w w w nil w w nil nil nil nil nil nil nil b b nil b b b))"
SEED_START = ["w", "w", "w", None, "w", "w", None, None, None, None]
SEED_START += [None, None, None, "b", "b", None, "b", "b", "b"]


def successor_boards(game: CrusherGame, history: list[Any], side: str) -> set[tuple[Any, ...]]:
    state = game.state_from_history(history, side)
    return {game.board(game.play(state, move)) for move in game.legal_moves(state)}


def test_seed_call_returns_a_legal_next_board() -> None:
    game = CrusherGame(n=3)
    board = crusher([SEED_START], "w", 2, None, 3)
    assert isinstance(board, list)
    assert len(board) == 19
    assert set(board) <= {"w", "b", None}
    assert game.board(game.state_from_board(board)) in successor_boards(game, [SEED_START], "w")


def test_trace_shows_boards_and_values_and_keeps_the_answer() -> None:
    stream = io.StringIO()
    traced = crusher(SEED_HISTORY, "w", 2, True, 3, stream=stream)
    assert traced == crusher(SEED_HISTORY, "w", 2, False, 3)
    trace = stream.getvalue()
    assert "WWW-WW-------BB-BBB w 0" in trace, "nodes are named by their boards"
    assert "(eval)" in trace
    assert "depth 2 best" in trace
    assert any(line.startswith("    ") for line in trace.splitlines()), "indented by depth"


def test_trace_is_bounded() -> None:
    stream = io.StringIO()
    crusher(SEED_HISTORY, "w", 3, True, 3, stream=stream, trace_lines=10)
    lines = stream.getvalue().splitlines()
    assert len(lines) == 11
    assert "more trace lines left out" in lines[-1]


def test_answer_keeps_the_input_representation() -> None:
    assert isinstance(crusher(SEED_HISTORY, "w", 1, False, 3), str)
    lisp = crusher(SEED_HISTORY, "w", 1, False, 3)
    assert isinstance(lisp, str)
    assert lisp.startswith("(")
    assert "nil" in lisp
    chars = crusher(["WWW-WW-------BB-BBB"], "w", 1, False, 3)
    assert isinstance(chars, str)
    assert len(chars) == 19
    assert set(chars) <= set("WB-")
    nils = crusher([["nil" if cell is None else cell for cell in SEED_START]], "w", 1, False, 3)
    assert isinstance(nils, list)
    assert "nil" in nils
    assert None not in nils


def test_history_forbids_repeating_a_board() -> None:
    game = CrusherGame(n=3)
    states = [game.initial_state()]
    for text in ("a1-b1", "d2-c2", "b1-a1"):
        states.append(game.play(states[-1], game.parse_move(states[-1], text)))
    boards = [game.board(state) for state in reversed(states)]
    # Black to move; c2-d2 would bring back the starting board, which the history forbids.
    for depth in (1, 2, 3):
        answer = crusher(boards, "b", depth, False, 3)
        assert isinstance(answer, list)
        owners = tuple(None if cell is None else "wb".index(cell) for cell in answer)
        assert owners not in boards
        assert owners in successor_boards(game, boards, "b")


def test_takes_a_winning_move() -> None:
    game = CrusherGame(n=2)
    for seed in range(100):
        rng = random.Random(seed)
        states = [game.initial_state()]
        while game.outcome(state := states[-1]) is None:
            after = {
                game.board(game.play(state, m)): game.play(state, m)
                for m in game.legal_moves(state)
            }
            wins = [
                b for b, s in after.items() if (o := game.outcome(s)) and o.winner == state.side
            ]
            if wins:
                history = [game.board(s) for s in reversed(states)]
                answer = crusher(history, "wb"[state.side], 1, False, 2)
                assert isinstance(answer, list)
                owners = tuple(None if cell is None else "wb".index(cell) for cell in answer)
                assert owners in wins
                return
            states.append(game.play(state, rng.choice(game.legal_moves(state))))
    pytest.fail("no random game offered a winning move")


def test_read_history_forms() -> None:
    assert read_history("'((w nil) (b nil))") == ["(w nil)", "(b nil)"]
    assert read_history("WWW-WW\n\nBBB-BB\n") == ["WWW-WW", "BBB-BB"]
    with pytest.raises(ValueError, match="no board"):
        read_history("  \n")


def test_board_style_detection() -> None:
    assert board_style("(w w nil)").kind == "lisp"
    assert board_style("WW-").kind == "chars"
    assert board_style(["w", None]).empty is None
    assert board_style(["W", "nil"]).upper


@pytest.mark.parametrize(
    ("history", "side", "depth", "n", "message"),
    [
        ([SEED_START], "x", 2, 3, "w or b"),
        ([SEED_START], "w", 0, 3, "depth"),
        ([SEED_START], "w", 2, 4, "cells"),
        ([], "w", 2, 3, "no board"),
    ],
)
def test_bad_crusher_calls(history: Any, side: str, depth: int, n: int, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        crusher(history, side, depth, False, n)

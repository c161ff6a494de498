"""The conformance checks, one function each: ``check(game, seed)`` raises
:class:`ConformanceError` naming the first broken promise of the game's contract."""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable
from typing import Any, Final

from gamut_engine.core import IllegalMoveError
from gamut_engine.declaration import check_colours
from gamut_engine.perft import perft
from gamut_engine.registry import AnyGame, load_game

Check = Callable[[AnyGame, int], None]
"""One check: the game with one variant's options, and a seed for its random playout."""

SAMPLED_MOVES: Final = 8
"""Legal moves of each position whose notation and cells are checked."""


class ConformanceError(AssertionError):
    """A game breaks its contract; the message says how."""


def require(condition: object, message: str) -> None:
    """Raise :class:`ConformanceError` with ``message`` unless ``condition`` holds."""
    if not condition:
        raise ConformanceError(message)


def random_playout(game: AnyGame, seed: int) -> list[Any]:
    """Every state of one random game from the start to its end."""
    rng = random.Random(seed)
    states = [game.initial_state()]
    while game.outcome(states[-1]) is None:
        moves = game.legal_moves(states[-1])
        require(moves, f"the running position {game.encode(states[-1])!r} has no legal move")
        states.append(game.play(states[-1], rng.choice(moves)))
    return states


def descriptive_attributes(game: AnyGame, seed: int) -> None:
    """A title, two distinct sides, unique cells, areas made of cells, colours well written."""
    require(game.title, "the game has no title")
    require(len(game.sides) == 2 and game.sides[0] != game.sides[1], "two distinct side names")
    cells = game.geometry.cells
    require(len(cells) == len(set(cells)), "a cell name appears twice in the geometry")
    for name, area in game.geometry.areas.items():
        require(area <= set(cells), f"area {name!r} names cells not on the board")
    require(
        load_game(game.name, **game.options).title == game.title,
        "the game's options do not recreate it through load_game",
    )
    try:
        check_colours(game.colours)
    except ValueError as error:
        raise ConformanceError(str(error)) from None


def declaration_matches(game: AnyGame, seed: int) -> None:
    """The options the game reports are the declared ones, with allowed values and defaults."""
    specs = game.declared_options()
    require(
        [spec.name for spec in specs] == list(game.options),
        f"options {list(game.options)} are not the declared {[s.name for s in specs]}",
    )
    defaults = load_game(game.name)
    require(
        dict(defaults.options) == {spec.name: spec.default for spec in specs},
        "the game made without options does not have the declared defaults",
    )
    for spec in specs:
        try:
            spec.check(game.options[spec.name])
        except ValueError as error:
            raise ConformanceError(str(error)) from None
    require(game.notation, "the game does not say how moves are written")
    require(game.move_budget() > 0, "the move budget must be positive")
    for reason, sentence in game.endings.items():
        try:
            sentence.format(winner=game.sides[0], loser=game.sides[1])
        except (KeyError, IndexError) as error:
            raise ConformanceError(f"ending {reason!r} names {error}; use {{winner}}") from None


def start_position(game: AnyGame, seed: int) -> None:
    """Side 0 moves first from a running, repeatable start with legal moves."""
    state = game.initial_state()
    require(game.to_move(state) == 0, "side 0 does not move first")
    require(game.ply(state) == 0, "the start position's ply is not 0")
    require(game.outcome(state) is None, "the game is over before it starts")
    require(game.legal_moves(state), "the start position has no legal move")
    again = game.initial_state()
    require(again == state and hash(again) == hash(state), "the start position is not repeatable")


def playouts_end(game: AnyGame, seed: int) -> None:
    """A random game ends with an outcome on the board's cells, and no move after it."""
    states = random_playout(game, seed)
    outcome = game.outcome(states[-1])
    require(outcome is not None and outcome.winner in (None, 0, 1), "a bad outcome")
    assert outcome is not None
    require(outcome.reason, "the outcome has no reason")
    require(set(outcome.line) <= set(game.geometry.cells), "the winning line leaves the board")
    require(game.legal_moves(states[-1]) == [], "a finished game still lists legal moves")
    for ply, state in enumerate(states):
        require(game.ply(state) == ply, f"ply {game.ply(state)} after {ply} moves")


def moves_round_trip(game: AnyGame, seed: int) -> None:
    """Every sampled legal move reads back from its notation, applies as it plays, touches
    only the board's cells, and leaves the position it was tried in unchanged."""
    rng = random.Random(1000 + seed)
    cells = set(game.geometry.cells)
    for state in random_playout(game, seed)[:-1]:
        before = (game.encode(state), game.key(state), hash(state))
        moves = game.legal_moves(state)
        require(len(moves) == len(set(moves)), "a move is listed twice")
        for move in rng.sample(moves, min(len(moves), SAMPLED_MOVES)):
            text = game.format_move(move)
            require(game.parse_move(state, text) == move, f"{text!r} does not read back")
            require(game.apply(state, move) == game.play(state, move), f"{text!r}: apply ≠ play")
            require(set(game.move_cells(move)) <= cells, f"{text!r} touches cells off the board")
        after = (game.encode(state), game.key(state), hash(state))
        require(after == before, "trying moves changed the position")


def encodings_round_trip(game: AnyGame, seed: int) -> None:
    """Every position of a random game encodes on one line and decodes to the same one."""
    for state in random_playout(game, seed):
        text = game.encode(state)
        require("\n" not in text, "an encoding spans several lines")
        copy = game.decode(text)
        require(game.encode(copy) == text, f"{text!r} does not decode to itself")
        require(game.key(copy) == game.key(state), f"{text!r} decodes to another key")
        require(game.to_move(copy) == game.to_move(state), f"{text!r}: another side to move")
        require(game.occupancy(copy) == game.occupancy(state), f"{text!r}: another board")
        owners = game.occupancy(state)
        require(len(owners) == len(game.geometry.cells), "occupancy is not one owner a cell")
        require(all(o in (None, 0, 1) for o in owners), "occupancy names a side besides 0, 1")
        require(game.render(state), "render gives nothing")


def illegal_moves_refused(game: AnyGame, seed: int) -> None:
    """A move legal one ply earlier but not now is refused with a reason and a sentence."""
    states = random_playout(game, seed)
    refused = 0
    for earlier, state in itertools.pairwise(states):
        legal = set(game.legal_moves(state))
        for move in game.legal_moves(earlier):
            if move in legal:
                continue
            try:
                game.check_move(state, move)
            except IllegalMoveError as error:
                require(error.reason and error.message, "a refusal without reason or sentence")
                refused += 1
            else:
                text = game.format_move(move)
                raise ConformanceError(f"{text!r} is not legal in {game.encode(state)!r}")
    require(refused, "no move legal one ply was ever refused the next")


def keys_follow_positions(game: AnyGame, seed: int) -> None:
    """Keys are 64-bit and depend on the position only, not on how it was reached."""
    for state in random_playout(game, seed):
        key = game.key(state)
        require(0 <= key < 2**64, f"key {key} is not 64-bit")
        require(game.key(game.decode(game.encode(state))) == key, "a key depends on history")


def perft_counts(game: AnyGame, seed: int) -> None:
    """Move paths from the default start at each depth are the counts the game declares."""
    declared = type(game).perft_counts
    if not declared or dict(game.options) != dict(load_game(game.name).options):
        return
    start = game.initial_state()
    for depth, expected in enumerate(declared, start=1):
        found = perft(game, start, depth)
        require(found == expected, f"perft {depth} is {found}, declared {expected}")


CHECKS: Final[dict[str, Check]] = {
    "descriptive_attributes": descriptive_attributes,
    "declaration_matches": declaration_matches,
    "start_position": start_position,
    "playouts_end": playouts_end,
    "moves_round_trip": moves_round_trip,
    "encodings_round_trip": encodings_round_trip,
    "illegal_moves_refused": illegal_moves_refused,
    "keys_follow_positions": keys_follow_positions,
    "perft_counts": perft_counts,
}
"""Every check by name, in the order they run."""

SEEDED: Final = frozenset(
    {
        "playouts_end",
        "moves_round_trip",
        "encodings_round_trip",
        "illegal_moves_refused",
        "keys_follow_positions",
    }
)
"""The checks that depend on their random playout's seed, run once per seed."""

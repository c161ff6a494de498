"""The engine's games in the protocol's words: descriptors, positions and results.

The protocol knows no game; the engine knows no protocol. This module is where the
server translates between them, so a generic client can draw any game it is sent.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from functools import lru_cache
from typing import Any, Final, cast

from gamut_engine import (
    ENGINE_ENDINGS,
    AnyGame,
    CellShape,
    Geometry,
    Outcome,
    Place,
    load_game,
)
from gamut_protocol import (
    BoardGeometry,
    CellPlace,
    GameDescriptor,
    GameResult,
    HexGeometry,
    NotationHint,
    Owner,
    Position,
    SquareGeometry,
    board_of,
)
from gamut_protocol.common import MAX_TEXT_LENGTH

DESCRIPTORS_KEPT: Final = 256
"""Games (name and options) whose descriptor is kept rather than made for each room."""

GAMES_KEPT: Final = 64
"""Games (name and options) kept built for every room that plays them."""

PLACES: Final = 4
"""Decimals a cell's centre is sent with."""

EXAMPLE_MOVES: Final = 4
"""How many legal moves of the start position a notation hint shows."""

ROOM_ENDINGS: Final[dict[str, str]] = {
    "resign": "{loser} resigns: {winner} wins",
    "timeout": "{loser} runs out of time: {winner} wins",
    "abandoned": "{loser} left the game: {winner} wins",
    "agreement": "drawn by agreement",
    "aborted": "the game was aborted",
}
"""The endings a room gives any game, as sentences; ``{winner}`` and ``{loser}`` are side
names. A game's own endings come from its declaration, the shared rule's from the engine."""

DRAWN_REASON_SENTENCES: Final[dict[str, str]] = {
    "abandoned": "both players left the game: a draw",
    "timeout": "time ran out: a draw",
}
"""Sentences for reasons that can also end a game without a winner."""


def wire_options(options: Mapping[str, object]) -> dict[str, bool | int | str]:
    """The options a game reports, keeping only values the protocol can carry."""
    return {name: value for name, value in options.items() if isinstance(value, bool | int | str)}


def hosted_game(name: str, options: Mapping[str, Any]) -> AnyGame:
    """The game ``name`` with ``options`` (``load_game``'s errors if it is none), built
    once for every room and seek that names it: a game's rules keep nothing between
    calls, and building one can take milliseconds (Connect Five's tables, say)."""
    return _game(name, tuple(sorted((key, type(value), value) for key, value in options.items())))


@lru_cache(maxsize=GAMES_KEPT)
def _game(name: str, options: tuple[tuple[str, type, Any], ...]) -> AnyGame:
    """The game ``name`` with ``options`` (their types are part of the key: ``True``
    equals ``1``, but only one of them is a valid number option)."""
    return load_game(name, **{key: value for key, _, value in options})


def describe(game: AnyGame) -> GameDescriptor:
    """Everything a generic client needs to draw ``game`` (protocol version 3's form)."""
    return _descriptor(game.name, tuple(sorted(wire_options(game.options).items())))


@lru_cache(maxsize=DESCRIPTORS_KEPT)
def _descriptor(name: str, options: tuple[tuple[str, bool | int | str], ...]) -> GameDescriptor:
    """The descriptor of the game ``name`` with ``options``, made once for all its rooms."""
    game = hosted_game(name, dict(options))
    return GameDescriptor(
        name=game.name,
        options=wire_options(game.options),
        title=game.title,
        sides=game.sides,
        geometry=board_geometry(game.geometry),
        notation=notation_hint(game),
        colours=game.colours,
    )


def board_geometry(geometry: Geometry) -> BoardGeometry:
    """The engine's board as the protocol's: every cell placed, rows and columns named,
    and the lines in which any cell picks a move, where the game declares some."""
    board = _placed(geometry)
    if geometry.pick_lines:
        return board.model_copy(update={"pick_lines": geometry.pick_lines})
    return board


def _placed(geometry: Geometry) -> BoardGeometry:
    """The engine's board with every cell placed, rows and columns named."""
    order = {cell: index for index, cell in enumerate(geometry.cells)}
    areas = {
        name: tuple(sorted(cells, key=order.__getitem__))
        for name, cells in sorted(geometry.areas.items())
    }
    if geometry.kind == "hex":
        return board_of(HexGeometry(rows=geometry.rows, areas=areas, n=len(geometry.rows[0])))
    if geometry.kind == "square":
        width, height = len(geometry.rows[0]), len(geometry.rows)
        return board_of(SquareGeometry(rows=geometry.rows, areas=areas, width=width, height=height))
    shapes = Counter(place.shape for place in geometry.places.values())
    shape = shapes.most_common(1)[0][0]
    return BoardGeometry(
        rows=geometry.rows,
        row_names=geometry.row_names,
        columns=tuple(line.cells for line in geometry.columns),
        column_names=tuple(line.name for line in geometry.columns),
        shape=shape,
        places={cell: _place(geometry.places[cell], shape) for cell in geometry.cells},
        areas=areas,
    )


def _place(place: Place, shape: CellShape) -> CellPlace:
    """A cell's place on the wire, its outline named only where it is not the board's."""
    return CellPlace(
        x=round(place.x, PLACES),
        y=round(place.y, PLACES),
        shape=None if place.shape == shape else place.shape,
    )


def notation_hint(game: AnyGame) -> NotationHint:
    """How ``game``'s moves are written, with a few legal first moves as examples."""
    start = game.initial_state()
    examples = tuple(game.format_move(move) for move in game.legal_moves(start)[:EXAMPLE_MOVES])
    return NotationHint(summary=game.notation, examples=examples)


def position(game: AnyGame, state: Any) -> Position:
    """``state`` as the protocol sends it: the encoding and the board spelt out."""
    side = game.to_move(state)
    # Made by the engine, whose owners are already 0, 1 or None: built without being
    # checked field by field again (a board's hundreds of cells, every move).
    return Position.model_construct(
        encoding=game.encode(state),
        board=cast(tuple[Owner, ...], tuple(game.occupancy(state))),
        to_move=0 if side == 0 else 1,
        ply=game.ply(state),
    )


_move_texts: dict[str, dict[Any, str]] = {}
"""Each variant's moves in canonical notation, by move, as they were first written out.
Bounded: a variant has a fixed, finite set of moves (at most a few thousand)."""


def variant_texts(game: AnyGame) -> dict[Any, str]:
    """The moves of ``game``'s variant written out so far, by move (shared by its rooms)."""
    variant = f"{type(game).__qualname__}{sorted(game.options.items())}"
    return _move_texts.setdefault(variant, {})


def legal_texts(game: AnyGame, state: Any, texts: dict[Any, str] | None = None) -> tuple[str, ...]:
    """Every legal move in ``state`` in canonical notation; empty once the game is over.

    ``texts`` is :func:`variant_texts` of ``game``, if the caller keeps it."""
    if game.outcome(state) is not None:
        return ()
    if texts is None:
        texts = variant_texts(game)
    moves = game.legal_moves(state)
    try:
        return tuple(map(texts.__getitem__, moves))
    except KeyError:  # some moves not written out before: write them out once
        for move in moves:
            if move not in texts:
                texts[move] = game.format_move(move)
        return tuple(map(texts.__getitem__, moves))


def result_message(game: AnyGame, winner: int | None, reason: str) -> str:
    """How a game ended, in a sentence: "White completes a network"."""
    sentences = {**game.endings, **ENGINE_ENDINGS, **ROOM_ENDINGS}
    if winner is None:
        template = DRAWN_REASON_SENTENCES.get(reason) or sentences.get(reason)
        text = template if template and "{" not in template else f"a draw ({reason})"
    else:
        template = sentences.get(reason, "{winner} wins ({reason})")
        text = template.format(
            winner=game.sides[winner], loser=game.sides[1 - winner], reason=reason
        )
    text = text[0].upper() + text[1:]
    return text[:MAX_TEXT_LENGTH]


def game_result(
    game: AnyGame, winner: int | None, reason: str, line: tuple[str, ...] = ()
) -> GameResult:
    """The protocol's result for an ending."""
    return GameResult(
        winner=None if winner is None else (0 if winner == 0 else 1),
        reason=reason,
        line=line,
        message=result_message(game, winner, reason),
    )


def outcome_result(game: AnyGame, outcome: Outcome) -> GameResult:
    """The protocol's result for the engine's ``outcome``."""
    return game_result(game, outcome.winner, outcome.reason, outcome.line)

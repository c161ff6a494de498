"""Choosing a move with the keyboard: which cells start a move, and where each may go.

The server lists every legal move in the game's notation. :class:`MoveIndex` finds
the cells each one touches (``(to,)`` to place, ``(from, to)`` to move) with the
engine's ``move_cells`` when the engine knows the game, and otherwise by reading
the cell names out of the move's text, so a game the client has never seen still
works. :func:`choose` then says what pressing Enter on a cell does: play a
placement, pick up a piece, or play the picked-up piece's move to that cell.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from gamut_engine import AnyGame, load_game
from gamut_protocol import GameDescriptor

log = logging.getLogger(__name__)


def cells_in_text(text: str, cells: Iterable[str]) -> tuple[str, ...]:
    """The cell names written in ``text``, in order, reading the longest name at each place.

    Anything between names (``-``, ``x``) is skipped, so ``d3xb2`` gives ``d3`` and
    ``b2`` even on a board that also has a cell called ``x1``.
    """
    names = set(cells)
    longest = max((len(name) for name in names), default=0)
    found: list[str] = []
    start = 0
    while start < len(text):
        for length in range(min(longest, len(text) - start), 0, -1):
            if text[start : start + length] in names:
                found.append(text[start : start + length])
                start += length
                break
        else:
            start += 1
    return tuple(found)


def engine_game(descriptor: GameDescriptor) -> AnyGame | None:
    """The engine's game for ``descriptor``, or ``None`` when this engine does not know it."""
    try:
        return load_game(descriptor.name, **descriptor.options)
    except ValueError:
        return None


def move_cells(
    descriptor: GameDescriptor, encoding: str, moves: Sequence[str], game: AnyGame | None = None
) -> dict[str, tuple[str, ...]]:
    """The cells each of ``moves`` touches in the position ``encoding``."""
    cells = descriptor.cells
    state = _decode(game, encoding)
    result: dict[str, tuple[str, ...]] = {}
    for text in moves:
        touched = _engine_cells(game, state, text) if game is not None else None
        result[text] = touched if touched is not None else cells_in_text(text, cells)
    return result


def _decode(game: AnyGame | None, encoding: str) -> Any:
    """The engine's state for ``encoding``, or ``None``."""
    if game is None:
        return None
    try:
        return game.decode(encoding)
    except ValueError:
        log.warning("the engine cannot read the position %r", encoding)
        return None


def _engine_cells(game: AnyGame, state: Any, text: str) -> tuple[str, ...] | None:
    """The cells of move ``text`` by the engine, or ``None`` if it cannot read it here.

    The state is rebuilt from the one-line encoding, without the game's history, so
    a rule that looks back (no repeated positions) may refuse a move the server allows.
    """
    if state is None:
        return None
    try:
        return tuple(game.move_cells(game.parse_move(state, text)))
    except ValueError:
        return None


@dataclass(frozen=True)
class MoveIndex:
    """The legal moves of one position, arranged by the cells they touch."""

    placements: dict[str, str] = field(default_factory=dict)
    """Each cell a one-cell move goes to, and that move."""
    steps: dict[str, dict[str, str]] = field(default_factory=dict)
    """Each cell a piece moves from, and the move to each of its targets."""
    others: tuple[str, ...] = ()
    """Moves touching no cell (a pass), typed rather than chosen on the board."""
    picks: dict[str, str] = field(default_factory=dict)
    """Each cell of a pick line holding one placement (a drop game's column), and that
    placement: Enter anywhere in the line plays it."""

    @classmethod
    def from_cells(
        cls,
        cells_by_move: dict[str, tuple[str, ...]],
        pick_lines: Sequence[Sequence[str]] = (),
    ) -> MoveIndex:
        """Arrange moves by their cells; the first and last cells of a longer move count.

        In each of ``pick_lines`` holding exactly one placement, every cell picks it."""
        placements: dict[str, str] = {}
        steps: dict[str, dict[str, str]] = {}
        others: list[str] = []
        for move, cells in cells_by_move.items():
            if not cells:
                others.append(move)
            elif len(cells) == 1:
                placements.setdefault(cells[0], move)
            else:
                steps.setdefault(cells[0], {}).setdefault(cells[-1], move)
        picks: dict[str, str] = {}
        for line in pick_lines:
            found = [placements[cell] for cell in line if cell in placements]
            if len(found) == 1:
                picks.update(dict.fromkeys(line, found[0]))
        return cls(placements, steps, tuple(others), picks)

    @classmethod
    def build(
        cls,
        descriptor: GameDescriptor,
        encoding: str,
        legal_moves: Sequence[str],
        game: AnyGame | None = None,
    ) -> MoveIndex:
        """The index of ``legal_moves`` in the position ``encoding``."""
        pick_lines = getattr(descriptor.geometry, "pick_lines", None) or ()
        return cls.from_cells(move_cells(descriptor, encoding, legal_moves, game), pick_lines)

    def targets(self, cell: str | None) -> frozenset[str]:
        """Where the piece on ``cell`` may go (nothing if it cannot move)."""
        if cell is None:
            return frozenset()
        return frozenset(self.steps.get(cell, {}))

    @property
    def empty(self) -> bool:
        """Whether there is no move to choose on the board."""
        return not self.placements and not self.steps


@dataclass(frozen=True, slots=True)
class Choice:
    """What pressing Enter on a cell does."""

    move: str | None = None
    """The move to play, if any."""
    selected: str | None = None
    """The piece picked up afterwards (``None``: nothing picked up)."""
    message: str | None = None
    """Why nothing is played, for people."""


def choose(index: MoveIndex, cell: str, selected: str | None) -> Choice:
    """Enter on ``cell`` while ``selected`` (or nothing) is picked up."""
    if selected is not None:
        if cell == selected:
            return Choice(message=f"{cell} put back")
        move = index.steps.get(selected, {}).get(cell)
        if move is not None:
            return Choice(move=move)
        if cell in index.steps:
            return Choice(selected=cell, message=_pick_up_message(index, cell))
        return Choice(selected=selected, message=f"the piece on {selected} cannot go to {cell}")
    if cell in index.steps:
        return Choice(selected=cell, message=_pick_up_message(index, cell))
    if cell in index.placements:
        return Choice(move=index.placements[cell])
    if cell in index.picks:
        return Choice(move=index.picks[cell])
    return Choice(message=f"no legal move starts or ends on {cell}")


def _pick_up_message(index: MoveIndex, cell: str) -> str:
    """The sentence after picking up the piece on ``cell``."""
    count = len(index.steps[cell])
    plural = "" if count == 1 else "s"
    return f"{cell} picked up: {count} target{plural}; Enter on one to move, Esc to put it back"

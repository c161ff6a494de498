"""Network positions as text: the one-line encoding and the console board."""

from __future__ import annotations

from gamut_engine.games.network_board import CHIPS, CORNERS, SIZE, SQUARES, has_cluster
from gamut_engine.games.network_notation import ROW_LETTERS
from gamut_engine.games.network_rules import NetworkState, Variant

EMPTY = "."
"""An empty square, in the encoding and on the console board."""


def chip_symbols(variant: Variant) -> tuple[str, str]:
    """The chip letters of side 0 and side 1: ``W``/``B`` (cs61b) or ``1``/``2`` (2015)."""
    return ("W", "B") if variant.rules == "cs61b" else ("1", "2")


def _row_texts(variant: Variant, state: NetworkState) -> list[str]:
    symbols = chip_symbols(variant)
    cells = [
        symbols[0]
        if state.chips0 >> index & 1
        else symbols[1]
        if state.chips1 >> index & 1
        else EMPTY
        for index in range(SQUARES)
    ]
    return ["".join(cells[row * SIZE : row * SIZE + SIZE]) for row in range(SIZE)]


def write_position(variant: Variant, state: NetworkState) -> str:
    """``rows side ply``: rows top to bottom joined by ``/``, e.g. ``.W....../… B 3``."""
    side = chip_symbols(variant)[state.ply & 1]
    return f"{'/'.join(_row_texts(variant, state))} {side} {state.ply}"


def read_position(variant: Variant, text: str) -> tuple[int, int, int]:
    """Side 0's and side 1's bitboards and the ply of a :func:`write_position` text.

    Raises ``ValueError`` with a sentence for text that is not a reachable-looking
    position: wrong shape, too many chips, chips on dead or forbidden squares, clumps.
    """
    symbols = chip_symbols(variant)
    fields = text.split()
    if len(fields) != 3:
        raise ValueError("a Network position is three fields: the rows, the side to move, the ply")
    rows, side_text, ply_text = fields
    if side_text not in symbols or not ply_text.isdigit():
        raise ValueError(f"the side to move must be {symbols[0]} or {symbols[1]}, then a ply")
    ply = int(ply_text)
    if ply & 1 != symbols.index(side_text):
        raise ValueError("side 0 moves on even plies and side 1 on odd ones")
    chips = _read_rows(rows, symbols)
    for side in (0, 1):
        _check_chips(variant, side, chips[side])
    return chips[0], chips[1], ply


def _read_rows(rows: str, symbols: tuple[str, str]) -> tuple[int, int]:
    cells = rows.split("/")
    if len(cells) != SIZE or any(len(row) != SIZE for row in cells):
        raise ValueError(f"a Network board is {SIZE} rows of {SIZE} squares joined by '/'")
    chips = [0, 0]
    for index, cell in enumerate("".join(cells)):
        if cell in symbols:
            chips[symbols.index(cell)] |= 1 << index
        elif cell != EMPTY:
            raise ValueError(f"squares are {EMPTY}, {symbols[0]} or {symbols[1]}, not {cell!r}")
    return chips[0], chips[1]


def _check_chips(variant: Variant, side: int, chips: int) -> None:
    player = variant.sides[side]
    if chips.bit_count() > CHIPS:
        raise ValueError(f"{player} has more than {CHIPS} chips")
    if chips & (CORNERS | variant.goal_squares(side ^ 1)):
        raise ValueError(f"{player} has a chip in a corner or in the opponent's goal")
    if has_cluster(chips):
        raise ValueError(f"{player} has a group of three or more touching chips")


def render_position(variant: Variant, state: NetworkState) -> str:
    """The board with its coordinates as the rule set names them; while the game runs,
    a last line says whose turn it is and which kind of move is due."""
    lettered = variant.rules == "2015"
    columns = range(1, SIZE + 1) if lettered else range(SIZE)
    lines = ["  " + " ".join(str(column) for column in columns)]
    for row, text in enumerate(_row_texts(variant, state)):
        label = ROW_LETTERS[row] if lettered else str(row)
        lines.append(f"{label}:{' '.join(text)}")
    if state.result is None:
        lines.append(turn_line(variant, state))
    return "\n".join(lines)


def turn_line(variant: Variant, state: NetworkState) -> str:
    """Whose turn it is and which kind of move is due."""
    player = state.ply & 1
    left = CHIPS - state.chips(player).bit_count()
    due = f"add a chip ({left} left)" if left else "step a chip"
    return f"{variant.sides[player]} to move: {due}"

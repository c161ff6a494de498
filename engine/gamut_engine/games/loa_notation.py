"""Lines of Action notation, position text and the reasons a move is refused.

Cells are named by file (``a`` from the left) and rank (``1`` from the bottom). A
move is written ``b1-b3``, a capture ``b3xe3``; input also takes either separator
for either kind, ``:`` or a space, or none at all (``b1b3``), and ``pass``.
"""

from __future__ import annotations

import re

from gamut_engine.core import IllegalMoveError, InvalidMoveError
from gamut_engine.games.loa_board import PASS, LoaBoard, LoaMove, bits

MOVE_PATTERN = re.compile(r"([a-z])(\d{1,2})\s*[-x:×]?\s*([a-z])(\d{1,2})")
"""Two cell-like names, optionally separated: the cells may still be off the board."""

EXPECTED = "Expected a move such as b1-b3, a capture such as b3xe3, or pass."

PIECE_LETTERS = ("b", "w")
"""Letters of Black's and White's pieces in position texts."""


def rows(board: LoaBoard) -> tuple[tuple[str, ...], ...]:
    """Cell names rank by rank from the top, files from the left."""
    size = board.size
    return tuple(
        tuple(board.names[r * board.stride + c] for c in range(size)) for r in reversed(range(size))
    )


def display_squares(board: LoaBoard) -> tuple[int, ...]:
    """Square indices in :func:`rows` order."""
    return tuple(board.index[name] for row in rows(board) for name in row)


def format_move(board: LoaBoard, move: LoaMove) -> str:
    """``b1-b3``, ``b3xe3`` or ``pass``."""
    if move == PASS:
        return "pass"
    separator = "x" if move.capture else "-"
    return f"{board.names[move.origin]}{separator}{board.names[move.target]}"


def parse(
    board: LoaBoard, black: int, white: int, side: int, text: str, *, game_over: bool
) -> LoaMove:
    """The move ``text`` names, its capture flag taken from the board (not yet checked).

    Raises :class:`InvalidMoveError` for text that is not a move and ``IllegalMoveError``
    (``game_over``, ``off_board``) for a move that cannot be played whatever the rules.
    """
    cleaned = text.strip().lower()
    if cleaned == "pass":
        return PASS
    match = MOVE_PATTERN.fullmatch(cleaned)
    if match is None:
        raise InvalidMoveError(f"{text.strip()!r} is not a move. {EXPECTED}")
    if game_over:
        raise IllegalMoveError("game_over", "The game is over: no more moves can be played.")
    origin_name = match.group(1) + str(int(match.group(2)))
    target_name = match.group(3) + str(int(match.group(4)))
    for name in (origin_name, target_name):
        if name not in board.index:
            raise IllegalMoveError(
                "off_board", f"{name} is off the {board.size}×{board.size} board."
            )
    origin, target = board.index[origin_name], board.index[target_name]
    enemy = black if side else white
    return LoaMove(origin, target, bool(enemy >> target & 1))


def check_piece_move(board: LoaBoard, black: int, white: int, side: int, move: LoaMove) -> None:
    """Raise :class:`IllegalMoveError` naming the rule a piece move breaks, if any."""
    origin, target = move.origin, move.target
    names = board.names
    if origin not in names or target not in names:
        raise IllegalMoveError(
            "off_board", f"That move leaves the {board.size}×{board.size} board."
        )
    own, enemy = (white, black) if side else (black, white)
    if not (own | enemy) >> origin & 1:
        raise IllegalMoveError("no_piece", f"There is no piece on {names[origin]} to move.")
    if enemy >> origin & 1:
        owner, mover = ("Black", "White") if side else ("White", "Black")
        raise IllegalMoveError(
            "not_your_piece",
            f"The piece on {names[origin]} is {owner}'s; {mover} moves only {mover}'s pieces.",
        )
    found = board.line_between(origin, target)
    if found is None:
        raise IllegalMoveError(
            "not_a_line",
            f"A piece moves along a row, column or diagonal; {names[origin]} to "
            f"{names[target]} is none of these.",
        )
    line, way, distance = found
    mask, *rays = board.lines[origin][line]
    count = ((own | enemy) & mask).bit_count()
    if distance != count:
        raise IllegalMoveError(
            "wrong_distance",
            "A piece moves exactly as many cells as there are pieces on its line: "
            f"here {count}, not {distance}.",
        )
    step = rays[way][distance]
    assert step is not None  # the target is on the board at this distance
    if step.between & enemy:
        jumped = " and ".join(names[sq] for sq in bits(step.between & enemy))
        raise IllegalMoveError(
            "blocked_by_enemy",
            f"A piece cannot jump an enemy piece: {names[origin]} to {names[target]} "
            f"would pass over {jumped}.",
        )
    if own >> target & 1:
        raise IllegalMoveError(
            "own_piece", f"A piece cannot land on your own piece on {names[target]}."
        )
    _check_capture_flag(board, move, bool(enemy >> target & 1))


def _check_capture_flag(board: LoaBoard, move: LoaMove, takes: bool) -> None:
    """Refuse a move whose capture flag does not match the board."""
    if move.capture == takes:
        return
    names = board.names
    if takes:
        message = (
            f"{names[move.target]} holds an enemy piece, so the move is the capture "
            f"{names[move.origin]}x{names[move.target]}."
        )
    else:
        message = f"There is no enemy piece on {names[move.target]} to capture."
    raise IllegalMoveError("capture_mismatch", message)


def encode(board: LoaBoard, black: int, white: int, side: int, ply: int) -> str:
    """``.bbb./w...w/…/.bbb. b 0``: ranks from the top, side to move, plies played."""
    ranks = []
    for row in rows(board):
        cells = []
        for name in row:
            sq = board.index[name]
            cells.append("b" if black >> sq & 1 else "w" if white >> sq & 1 else ".")
        ranks.append("".join(cells))
    return f"{'/'.join(ranks)} {PIECE_LETTERS[side]} {ply}"


def decode(board: LoaBoard, text: str) -> tuple[int, int, int, int]:
    """``(black, white, side, ply)`` from an :func:`encode` text; ``ValueError`` if it is bad."""
    fields = text.split()
    if len(fields) not in (2, 3):
        raise ValueError("A position is the ranks joined by '/', the side to move and the ply.")
    ranks = fields[0].split("/")
    size = board.size
    if len(ranks) != size or any(len(rank) != size for rank in ranks):
        raise ValueError(f"A position needs {size} ranks of {size} cells each.")
    black = white = 0
    for rank_text, row in zip(ranks, rows(board), strict=True):
        for letter, name in zip(rank_text, row, strict=True):
            if letter not in "bw.":
                raise ValueError(f"A cell is 'b', 'w' or '.', not {letter!r}.")
            bit = 1 << board.index[name]
            black |= bit if letter == "b" else 0
            white |= bit if letter == "w" else 0
    if not black or not white:
        raise ValueError("Both sides need at least one piece on the board.")
    if fields[1] not in PIECE_LETTERS:
        raise ValueError("The side to move is 'b' or 'w'.")
    ply_text = fields[2] if len(fields) == 3 else "0"
    if not ply_text.isdigit():
        raise ValueError("The ply is a whole number of moves played.")
    return black, white, PIECE_LETTERS.index(fields[1]), int(ply_text)


def render(board: LoaBoard, black: int, white: int, side: int, sides: tuple[str, str]) -> str:
    """The board with rank numbers on the left and file letters below, then who moves."""
    lines = []
    width = len(str(board.size))
    for row in rows(board):
        marks = []
        for name in row:
            sq = board.index[name]
            marks.append("B" if black >> sq & 1 else "W" if white >> sq & 1 else ".")
        lines.append(f"{row[0][1:]:>{width}} {' '.join(marks)}")
    files = " ".join(chr(ord("a") + c) for c in range(board.size))
    lines.append(f"{'':>{width}} {files}")
    lines.append(f"{sides[side]} to move")
    return "\n".join(lines)

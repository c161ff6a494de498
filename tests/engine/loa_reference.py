"""A deliberately plain model of the Lines of Action rules, to check the bitboard engine.

Cells are ``(file, rank)`` pairs, 0-based; a board is a dict from cell to side. It
shares no code with :mod:`gamut_engine.games.loa` and is written for clarity only.
"""

from __future__ import annotations

DIRECTIONS = [(df, dr) for df in (-1, 0, 1) for dr in (-1, 0, 1) if (df, dr) != (0, 0)]

Cell = tuple[int, int]
Board = dict[Cell, int]


def on_board(cell: Cell, size: int) -> bool:
    """Whether ``cell`` lies on a ``size``×``size`` board."""
    return 0 <= cell[0] < size and 0 <= cell[1] < size


def pieces_on_line(board: Board, size: int, cell: Cell, direction: Cell) -> int:
    """Pieces of both colours on the whole line through ``cell`` along ``direction``."""
    count = 1 if cell in board else 0
    for sign in (1, -1):
        step = 1
        while True:
            other = (cell[0] + sign * step * direction[0], cell[1] + sign * step * direction[1])
            if not on_board(other, size):
                break
            count += other in board
            step += 1
    return count


def moves(board: Board, size: int, side: int) -> set[tuple[Cell, Cell, bool]]:
    """Every ``(origin, target, capture)`` piece move of ``side``."""
    found = set()
    for origin, owner in board.items():
        if owner != side:
            continue
        for direction in DIRECTIONS:
            distance = pieces_on_line(board, size, origin, direction)
            path = [
                (origin[0] + k * direction[0], origin[1] + k * direction[1])
                for k in range(1, distance + 1)
            ]
            target = path[-1]
            if not on_board(target, size):
                continue
            if any(board.get(cell) == 1 - side for cell in path[:-1]):
                continue
            if board.get(target) == side:
                continue
            found.add((origin, target, board.get(target) == 1 - side))
    return found


def connected(board: Board, side: int) -> bool:
    """Whether ``side``'s pieces form one group touching orthogonally or diagonally."""
    cells = {cell for cell, owner in board.items() if owner == side}
    if not cells:
        return False
    seen = {next(iter(cells))}
    frontier = list(seen)
    while frontier:
        cell = frontier.pop()
        for df, dr in DIRECTIONS:
            other = (cell[0] + df, cell[1] + dr)
            if other in cells and other not in seen:
                seen.add(other)
                frontier.append(other)
    return seen == cells


def play(board: Board, side: int, move: tuple[Cell, Cell, bool]) -> tuple[Board, int | None]:
    """The board after ``move`` and the winner it makes, if any (the mover when both connect)."""
    origin, target, _ = move
    after = dict(board)
    del after[origin]
    after[target] = side
    if connected(after, side):
        return after, side
    if connected(after, 1 - side):
        return after, 1 - side
    return after, None


def perft(board: Board, size: int, side: int, depth: int) -> int:
    """Leaves ``depth`` plies below a running position (passing when stuck)."""
    if depth == 0:
        return 1
    found = moves(board, size, side)
    if not found:
        return perft(board, size, 1 - side, depth - 1)
    if depth == 1:
        return len(found)
    total = 0
    for move in found:
        after, winner = play(board, side, move)
        if winner is None:
            total += perft(after, size, 1 - side, depth - 1)
    return total


def start(size: int) -> Board:
    """The start position: Black along the bottom and top, White along the sides."""
    board: Board = {}
    for k in range(1, size - 1):
        board[(k, 0)] = board[(k, size - 1)] = 0
        board[(0, k)] = board[(size - 1, k)] = 1
    return board

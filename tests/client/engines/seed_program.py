"""A Connect Five single-move program, for Gamut's tests.

It reads one board from its standard input (the Scheme list of lists, or plain rows of
X, O and -), plays X, and prints its move as (col row): a five if it has one, else a
block of O's five, else the empty cell nearest the centre. Then it exits. It knows
nothing of Gamut.
"""

from __future__ import annotations

import re
import sys

DIRECTIONS = ((1, 0), (0, 1), (1, 1), (1, -1))


def read_rows(text: str) -> list[str]:
    if "(" in text:
        groups = re.findall(r"\(list((?:\s+'[XO-])+)\s*\)", text)
        return ["".join(re.findall(r"'([XO-])", group)) for group in groups]
    return [line.strip() for line in text.splitlines() if line.strip()]


def makes_five(rows: list[str], x: int, y: int, who: str) -> bool:
    size = len(rows)

    def run(dx: int, dy: int) -> int:
        count, cx, cy = 0, x + dx, y + dy
        while 0 <= cx < size and 0 <= cy < size and rows[cy][cx] == who:
            count, cx, cy = count + 1, cx + dx, cy + dy
        return count

    return any(1 + run(dx, dy) + run(-dx, -dy) >= 5 for dx, dy in DIRECTIONS)


def choose(rows: list[str]) -> tuple[int, int]:
    size = len(rows)
    centre = (size - 1) / 2
    empty = [(x, y) for y in range(size) for x in range(size) if rows[y][x] == "-"]
    empty.sort(key=lambda cell: (abs(cell[0] - centre) + abs(cell[1] - centre), cell[1], cell[0]))
    for who in ("X", "O"):
        for x, y in empty:
            if makes_five(rows, x, y, who):
                return x, y
    return empty[0]


def main() -> None:
    x, y = choose(read_rows(sys.stdin.read()))
    print(f"({x} {y})")


if __name__ == "__main__":
    main()

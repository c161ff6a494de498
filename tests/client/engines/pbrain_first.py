"""A small gomoku engine speaking the Gomocup protocol, for Gamut's tests.

It takes a five when it has one, blocks the opponent's, and otherwise plays the empty
cell nearest the centre. It knows nothing of Gamut: it talks only the Gomocup protocol
on its standard input and output. When ``PBRAIN_LOG`` names a file, every command it
receives is appended to it.
"""

from __future__ import annotations

import os
import sys

LOG = os.environ.get("PBRAIN_LOG")
MINE, THEIRS = 1, 2
DIRECTIONS = ((1, 0), (0, 1), (1, 1), (1, -1))

size = 0
board: dict[tuple[int, int], int] = {}


def say(text: str) -> None:
    sys.stdout.write(text + "\n")
    sys.stdout.flush()


def note(line: str) -> None:
    if LOG:
        with open(LOG, "a", encoding="utf-8") as log:
            log.write(line + "\n")


def run_length(x: int, y: int, dx: int, dy: int, who: int) -> int:
    length = 0
    x, y = x + dx, y + dy
    while board.get((x, y)) == who:
        length += 1
        x, y = x + dx, y + dy
    return length


def makes_five(x: int, y: int, who: int) -> bool:
    return any(
        1 + run_length(x, y, dx, dy, who) + run_length(x, y, -dx, -dy, who) >= 5
        for dx, dy in DIRECTIONS
    )


def choose() -> tuple[int, int]:
    centre = (size - 1) / 2
    empty = [(x, y) for y in range(size) for x in range(size) if (x, y) not in board]
    empty.sort(key=lambda cell: (abs(cell[0] - centre) + abs(cell[1] - centre), cell[1], cell[0]))
    for who in (MINE, THEIRS):
        for x, y in empty:
            if makes_five(x, y, who):
                return x, y
    return empty[0]


def play() -> None:
    x, y = choose()
    board[(x, y)] = MINE
    say("MESSAGE thinking hard")
    say(f"{x},{y}")


def read_board() -> None:
    board.clear()
    for raw in sys.stdin:
        line = raw.strip()
        note(line)
        if line.upper() == "DONE":
            return
        x, y, field = (int(part) for part in line.split(","))
        board[(x, y)] = MINE if field == 1 else THEIRS


def main() -> None:
    global size
    for raw in sys.stdin:
        line = raw.strip()
        note(line)
        command, _, argument = line.partition(" ")
        command = command.upper()
        if command == "START":
            size = int(argument)
            board.clear()
            say("OK")
        elif command == "RESTART":
            board.clear()
            say("OK")
        elif command == "INFO":
            continue
        elif command == "BEGIN":
            play()
        elif command == "TURN":
            x, y = (int(part) for part in argument.split(","))
            board[(x, y)] = THEIRS
            play()
        elif command == "BOARD":
            read_board()
            play()
        elif command == "ABOUT":
            say('name="pbrain-first", version="1.0", author="Gamut tests", country="-"')
        elif command == "END":
            return
        elif command:
            say(f"UNKNOWN {command}")


if __name__ == "__main__":
    main()

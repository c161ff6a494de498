"""Lines of Action mobility counted line by line, with each line's answer remembered.

A piece's moves along a line depend only on what stands on that line: how many pieces
(which sets the distance), where the enemy pieces stand (which it may not jump) and
where its own stand (where it may not land). So a side's mobility is a sum over the
board's lines of a function of that line's contents, and a search meets the same line
contents again and again: each line's pair of answers (Black's, White's) is worked out
once and then looked up: one lookup per line (42 on 8×8) instead of following every
piece's eight rays.
"""

from __future__ import annotations

from functools import cache

from gamut_engine.games.loa_board import LoaBoard, RayStep, bits

MEMORY_SIZE = 1 << 17
"""Line answers remembered before the memory is cleared."""

_SHIFT = 1 << 12
"""Black's half moves are packed above White's: a line never has this many."""


class LineMobility:
    """The board's lines, and the mobility of both sides on every line contents met."""

    def __init__(self, board: LoaBoard, edge: int) -> None:
        """Collect ``board``'s distinct lines; ``edge`` is the mask of its edge squares."""
        self.edge = edge
        rays: dict[int, list[tuple[int, RayStep | None, RayStep | None]]] = {}
        for sq in board.squares:
            for mask, forward, backward in board.lines[sq]:
                rays.setdefault(mask, [])
                for count in range(1, board.size + 1):
                    rays[mask].append((sq << 8 | count, forward[count], backward[count]))
        self.masks: tuple[int, ...] = tuple(mask for mask in rays if mask & (mask - 1))
        """Every line of two squares or more (a lone corner square has no moves)."""
        self._steps: dict[int, dict[int, tuple[RayStep | None, RayStep | None]]] = {
            mask: {code: (forward, backward) for code, forward, backward in rays[mask]}
            for mask in self.masks
        }
        self.lines: tuple[tuple[int, dict[tuple[int, int], int]], ...] = tuple(
            (mask, {}) for mask in self.masks
        )
        """Each line's mask with its memory: ``(Black on it, White on it)`` to the packed
        answer."""
        self.line_memory_size = MEMORY_SIZE // len(self.masks)
        """Answers a line remembers before its memory is cleared."""

    def both(self, black: int, white: int) -> tuple[int, int]:
        """Black's and White's mobility in half moves (a capture 4, onto the edge 1, else 2)."""
        total = 0
        for mask, memory in self.lines:
            key = (black & mask, white & mask)
            value = memory.get(key)
            if value is None:
                if len(memory) >= self.line_memory_size:
                    memory.clear()
                value = memory[key] = self._line(mask, key[0], key[1])
            total += value
        return total // _SHIFT, total % _SHIFT

    def forget(self) -> None:
        """Clear every line's memory."""
        for _, memory in self.lines:
            memory.clear()

    def _line(self, mask: int, black: int, white: int) -> int:
        """Both sides' half moves along the line ``mask`` alone, packed."""
        count = (black | white).bit_count()
        return _SHIFT * self._side(mask, count, black, white) + self._side(
            mask, count, white, black
        )

    def _side(self, mask: int, count: int, own: int, enemy: int) -> int:
        """Half moves of ``own`` along the line ``mask`` holding ``count`` pieces."""
        steps = self._steps[mask]
        total = 0
        for sq in bits(own):
            for step in steps[sq << 8 | count]:
                total += _half_moves(step, own, enemy, self.edge)
        return total


def _half_moves(step: RayStep | None, own: int, enemy: int, edge: int) -> int:
    """What one ray step is worth: 0 if illegal, a capture 4, onto the edge 1, else 2."""
    if step is None or step.between & enemy or step.target_bit & own:
        return 0
    target = step.target_bit
    return 4 if target & enemy else 1 if target & edge else 2


@cache
def line_mobility(board: LoaBoard, edge: int) -> LineMobility:
    """The shared :class:`LineMobility` of ``board`` with edge squares ``edge``."""
    return LineMobility(board, edge)

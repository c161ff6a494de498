"""Connect Five's compiled search (engine/gamut_engine/native/connect5/c5_module.c)."""

from collections.abc import Sequence

Counts = tuple[int, int, int, int, int, int, int, int]

class Core:
    """Connect Five's compiled search for one board size."""

    def __init__(
        self, size: int, zobrist: bytes, weights: Sequence[int], max_plies: int, node_limit: int
    ) -> None: ...
    def patterns(self, board: bytes) -> tuple[bytes, tuple[int, int, int, int]]: ...
    def evaluate(self, board: bytes, turn: int, combined: bool = False) -> int: ...
    def search_moves(self, board: bytes, turn: int) -> list[int]: ...
    def solve(
        self, board: bytes, side: int, depth: int, kind: int, seconds: float
    ) -> tuple[int, bool]: ...
    def winning_move(
        self, board: bytes, turn: int, seconds: float, proof: bool
    ) -> tuple[int, int] | None: ...
    def prove(
        self, board: bytes, side: int, depth: int, kind: int, seconds: float
    ) -> tuple[tuple[int, int] | None, str]: ...
    def move_wins(
        self, board: bytes, turn: int, move: int, stones: int, seconds: float
    ) -> bool | None: ...
    def defences(
        self, board: bytes, turn: int, moves: Sequence[int], seconds: float
    ) -> list[int]: ...
    def guards(
        self, board: bytes, turn: int, moves: Sequence[int], stones: int, seconds: float
    ) -> list[int]: ...
    def search(
        self,
        board: bytes,
        turn: int,
        depth: int,
        moves: Sequence[int],
        exact: bool,
        seconds: float,
        nodes: int,
        new_run: bool,
    ) -> tuple[bool, int, int, int, list[int], Counts]: ...
    def clear(self) -> None: ...
    def nodes(self) -> tuple[int, int]: ...

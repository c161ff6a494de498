"""Network (Sid Sackson), in the CS 61B 2014 rules of record and the 2015 variant.

Two players place ten chips each, then step them, each trying to connect its two
goal areas with a network of six or more chips that changes direction at every chip.
The board and rule machinery lives in the sibling ``network_*`` modules; this class
puts it behind the engine's :class:`~gamut_engine.core.Game` contract.

A move is an ``int``: the target square for an add move, ``(origin + 1) * 64 + target``
for a step move (see :mod:`gamut_engine.games.network_board`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import ClassVar

from gamut_engine.core import (
    DEFAULT_MAX_PLIES,
    REPETITION_LIMIT,
    Game,
    Geometry,
    IllegalMoveError,
    LadderPool,
    OptionSpec,
    Outcome,
)
from gamut_engine.games.network_board import (
    CORNERS,
    SIZE,
    SQUARES,
    ZOBRIST,
    ZOBRIST_SIDE,
    Path,
    add_move,
    board_key,
    move_origin,
    move_target,
    squares_of,
    step_move,
)
from gamut_engine.games.network_eval import evaluate
from gamut_engine.games.network_notation import format_move, read_move
from gamut_engine.games.network_order import order_moves
from gamut_engine.games.network_paths import find_network
from gamut_engine.games.network_position import read_position, render_position, write_position
from gamut_engine.games.network_rules import (
    RULES,
    NetworkState,
    Referee,
    can_move,
    generate_moves,
    make_variant,
    networks,
)

__all__ = ["RULES", "NetworkGame", "NetworkState"]

ORDER_CACHE_SIZE = 1 << 16
"""Positions whose ordered search moves a game remembers (searches come back to them)."""


class NetworkGame(Game[NetworkState, int]):
    """Network on the 8×8 board, under the ``cs61b`` (default) or ``2015`` rules."""

    name = "network"
    option_specs = (
        OptionSpec(
            name="rules",
            default="cs61b",
            help="cs61b: the 2014 rules of record; 2015: rows A-H, a both-networks step is illegal",
            choices=RULES,
        ),
    )
    notation = (
        "name a square to add a chip (23, or A4 with the 2015 rules); "
        "two squares to step a chip from the first to the second (23-45)"
    )
    endings: ClassVar[Mapping[str, str]] = {
        "network": "{winner} completes a network",
        "no_moves": "{loser} cannot move: {winner} wins",
    }
    ladder_pools = (LadderPool("network-5s", "Network, 5 s a move"),)
    move_seconds = 5.0
    listing_order = 1
    perft_counts = (48, 2_268)
    """Move paths from the start at depths 1, 2…: reproduced by the plain reference."""
    evaluation_scale = 610.0

    def __init__(self, *, rules: str = "cs61b", max_plies: int = DEFAULT_MAX_PLIES) -> None:
        if isinstance(max_plies, bool) or not isinstance(max_plies, int) or max_plies < 1:
            raise ValueError(f"max_plies must be a whole number of at least 1, not {max_plies!r}")
        self.check_options(rules=rules, max_plies=max_plies)
        self._variant = make_variant(rules)
        self._referee = Referee(self._variant)
        self._max_plies = max_plies
        self.title = "Network" if rules == "cs61b" else "Network (2015 rules)"
        self.sides = self._variant.sides
        self.geometry = self._make_geometry()
        self._ordered: dict[tuple[int, int, int], list[int]] = {}

    def _make_geometry(self) -> Geometry:
        names = self._variant.names
        rows = tuple(tuple(names[y * SIZE + x] for x in range(SIZE)) for y in range(SIZE))

        def area(bits: int) -> frozenset[str]:
            return frozenset(names[index] for index in squares_of(bits))

        areas = {
            "goal:0": area(self._variant.goal_squares(0)),
            "goal:1": area(self._variant.goal_squares(1)),
            "dead": area(CORNERS),
        }
        return Geometry("square", rows, areas)

    @property
    def rules(self) -> str:
        """The rule set: ``cs61b`` or ``2015``."""
        return self._variant.rules

    @property
    def options(self) -> Mapping[str, object]:
        """``rules`` and ``max_plies``."""
        return {"rules": self._variant.rules, "max_plies": self._max_plies}

    def initial_state(self) -> NetworkState:
        """The empty board, side 0 to move, ten chips each to place."""
        return NetworkState(0, 0, 0, 0, (), None)

    def to_move(self, state: NetworkState) -> int:
        """Side 0 on even plies, side 1 on odd ones."""
        return state.ply & 1

    def ply(self, state: NetworkState) -> int:
        """Moves played so far."""
        return state.ply

    def legal_moves(self, state: NetworkState) -> list[int]:
        """Add moves while the mover has chips in hand, step moves after; none once over."""
        if state.result is not None:
            return []
        return generate_moves(self._variant, state)

    def play(self, state: NetworkState, move: int) -> NetworkState:
        """The position after a legal ``move``, with its outcome settled."""
        side = state.ply & 1
        origin, target = (move >> 6) - 1, move & 63
        own, other = state.boards()
        own |= 1 << target
        key = state.key ^ ZOBRIST_SIDE ^ ZOBRIST[side][target]
        if origin >= 0:
            own ^= 1 << origin
            key ^= ZOBRIST[side][origin]
            history = (*state.history, state.key)
        else:
            history = ()
        ply = state.ply + 1
        mine, theirs = networks(self._variant, side, own, other, move)
        result = self._judge(side, own, other, mine, theirs, ply)
        if result is None and history and history.count(key) >= REPETITION_LIMIT - 1:
            result = Outcome(None, "repetition")
        if side:
            return NetworkState(other, own, ply, key, history, result)
        return NetworkState(own, other, ply, key, history, result)

    def _judge(
        self, side: int, own: int, other: int, mine: Path | None, theirs: Path | None, ply: int
    ) -> Outcome | None:
        """The outcome once ``side`` has moved, repetition aside.

        ``own``/``other`` are the boards after the move and ``mine``/``theirs`` the
        networks on it. An opponent's network wins for the opponent, even with one of
        the mover's own (the cs61b rule; the 2015 rules never let such a move be played).
        """
        if theirs is not None:
            return self._network(side ^ 1, theirs)
        if mine is not None:
            return self._network(side, mine)
        if not can_move(self._variant, side ^ 1, other, own | other):
            return Outcome(side, "no_moves")
        if ply >= self._max_plies:
            return Outcome(None, "move_cap")
        return None

    def _network(self, winner: int, path: Path) -> Outcome:
        return Outcome(winner, "network", tuple(self._variant.names[index] for index in path))

    def check_move(self, state: NetworkState, move: int) -> None:
        """Raise :class:`IllegalMoveError` with the reason ``move`` is not legal, if it is not."""
        self._referee.check(state, move)

    def outcome(self, state: NetworkState) -> Outcome | None:
        """``network`` (a win), ``no_moves`` (the side to move is stuck and loses),
        ``repetition`` or ``move_cap`` (draws), or ``None`` while the game runs."""
        return state.result

    def parse_move(self, state: NetworkState, text: str) -> int:
        """Read a move in any accepted notation and check it is legal in ``state``."""
        written = read_move(text)
        self._referee.check_running(state)
        for square in written.squares:
            if square.index is None:
                raise IllegalMoveError(
                    "off_board",
                    f"{square.label} is off the board: squares run from 00 to 77 "
                    "(column then row) or from A1 to H8 (row A-H, then column 1-8).",
                )
        indices = [square.index for square in written.squares if square.index is not None]
        move = add_move(indices[0]) if len(indices) == 1 else step_move(*indices)
        self._referee.check(state, move)
        return move

    def format_move(self, move: int) -> str:
        """``23`` / ``23-45`` under cs61b rules, ``D3`` / ``D3-F6`` under 2015 rules."""
        return format_move(move, self._variant.names)

    def move_cells(self, move: int) -> tuple[str, ...]:
        """``(target,)`` for an add move, ``(origin, target)`` for a step move."""
        names, origin = self._variant.names, move_origin(move)
        target = names[move_target(move)]
        return (target,) if origin < 0 else (names[origin], target)

    def encode(self, state: NetworkState) -> str:
        """Rows top to bottom joined by ``/``, the side to move and the ply.

        ``.`` is an empty square; chips are ``W``/``B`` (cs61b) or ``1``/``2`` (2015).
        """
        return write_position(self._variant, state)

    def decode(self, text: str) -> NetworkState:
        """The state an :meth:`encode` text describes; ``ValueError`` if it is no position.

        The outcome is judged as if the side not to move had just moved.
        """
        chips0, chips1, ply = read_position(self._variant, text)
        side = ply & 1
        mover = side ^ 1
        own, other = (chips1, chips0) if mover else (chips0, chips1)
        mine = find_network(own, chips0 | chips1, *self._variant.goals[mover])
        theirs = find_network(other, chips0 | chips1, *self._variant.goals[side])
        if mine and theirs and self._variant.both_networks_illegal:
            raise ValueError("both players have a network, which the 2015 rules never allow")
        result = self._judge(mover, own, other, mine, theirs, ply)
        return NetworkState(chips0, chips1, ply, board_key(chips0, chips1, side), (), result)

    def render(self, state: NetworkState) -> str:
        """The board with coordinates, then whose turn it is or how the game ended."""
        return render_position(self._variant, state)

    def occupancy(self, state: NetworkState) -> tuple[int | None, ...]:
        """0 or 1 for each side's chips, ``None`` for empty squares, square by square."""
        chips0, chips1 = state.chips0, state.chips1
        return tuple(
            0 if chips0 >> index & 1 else 1 if chips1 >> index & 1 else None
            for index in range(SQUARES)
        )

    def key(self, state: NetworkState) -> int:
        """The position's 64-bit Zobrist key."""
        return state.key

    def evaluate(self, state: NetworkState) -> int:
        """Connections, open and blocked lines, goal chips and chains, for the side to move."""
        return evaluate(self._variant, state)

    def search_moves(self, state: NetworkState) -> list[int]:
        """The winning moves if there are any, else the moves best first.

        Moves that let the opponent complete a network at once are left out while adding,
        and a quiet step position (no win at hand for either side) keeps only the most
        promising steps (see :mod:`gamut_engine.games.network_order`).
        Remembered by board, since every iteration of a search asks again.
        """
        if state.result is not None:
            return []
        key = (state.chips0, state.chips1, state.ply & 1)
        ordered = self._ordered.get(key)
        if ordered is None:
            if len(self._ordered) >= ORDER_CACHE_SIZE:
                self._ordered.clear()
            moves = generate_moves(self._variant, state)
            ordered = self._ordered[key] = order_moves(self._variant, state, moves)
        return list(ordered)

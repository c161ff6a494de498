"""Network's rules over bitboards: the two rule sets, the state, move generation and legality.

Everything here is shared by both rule sets; :class:`Variant` holds where they differ
(who owns which goals, names, and whether a step that completes both networks is
allowed and loses, or is illegal).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

from gamut_engine.core import IllegalMoveError, Outcome
from gamut_engine.games.network_board import (
    BOTTOM,
    CHIPS,
    CORNERS,
    INTERIOR,
    LEFT,
    MOVE_LIMIT,
    RIGHT,
    TOP,
    Path,
    cluster_squares,
    gains_link,
    linked,
    move_origin,
    move_target,
    squares_of,
    step_move,
)
from gamut_engine.games.network_notation import square_names
from gamut_engine.games.network_paths import find_network

RULES = ("cs61b", "2015")
"""The rule sets: ``cs61b`` (CS 61B 2014, the rules of record) and ``2015``."""


class NetworkState(NamedTuple):
    """A Network position; immutable, hashable and cheap to create.

    The side to move is ``ply % 2``.
    """

    chips0: int
    """Bitboard of side 0's chips."""
    chips1: int
    """Bitboard of side 1's chips."""
    ply: int
    """Moves played to reach this position."""
    key: int
    """Zobrist key of the board and the side to move."""
    history: tuple[int, ...]
    """Keys of the earlier positions since the last add move (step moves can repeat)."""
    result: Outcome | None
    """How the game ended, or ``None`` while it runs."""

    def boards(self) -> tuple[int, int]:
        """The bitboards of the side to move and of its opponent."""
        if self.ply & 1:
            return self.chips1, self.chips0
        return self.chips0, self.chips1

    def chips(self, side: int) -> int:
        """The bitboard of ``side``'s chips."""
        return self.chips1 if side else self.chips0


@dataclass(frozen=True, slots=True)
class Variant:
    """What one rule set fixes: names, goals and the both-networks rule."""

    rules: str
    """``cs61b`` or ``2015``."""
    sides: tuple[str, str]
    """The players' names, side 0 first."""
    goals: tuple[tuple[int, int], tuple[int, int]]
    """Per side, its two goal areas as bitboards."""
    allowed: tuple[int, int]
    """Per side, the squares it may ever hold a chip on."""
    names: tuple[str, ...]
    """Square names by index, in this rule set's notation."""
    both_networks_illegal: bool
    """True (2015): a step completing both networks is illegal; False (cs61b): it loses."""

    def goal_squares(self, side: int) -> int:
        """Both goal areas of ``side`` as one bitboard."""
        return self.goals[side][0] | self.goals[side][1]


def make_variant(rules: str) -> Variant:
    """The rule set called ``rules``; ``ValueError`` with a sentence for an unknown one."""
    if rules not in RULES:
        raise ValueError(f"rules must be 'cs61b' or '2015', not {rules!r}")
    columns, rows = (LEFT, RIGHT), (TOP, BOTTOM)
    if rules == "cs61b":
        sides, goals = ("White", "Black"), (columns, rows)
    else:
        sides, goals = ("Player 1", "Player 2"), (rows, columns)
    return Variant(
        rules=rules,
        sides=sides,
        goals=goals,
        allowed=(INTERIOR | goals[0][0] | goals[0][1], INTERIOR | goals[1][0] | goals[1][1]),
        names=square_names(lettered=rules == "2015"),
        both_networks_illegal=rules == "2015",
    )


def targets(variant: Variant, side: int, own: int, occupied: int) -> int:
    """Squares where ``side`` may put a chip, with ``own`` and ``occupied`` as they stand."""
    return variant.allowed[side] & ~occupied & ~cluster_squares(own)


def generate_moves(variant: Variant, state: NetworkState) -> list[int]:
    """Every legal move in a running position."""
    side = state.ply & 1
    own, other = state.boards()
    occupied = own | other
    if own.bit_count() < CHIPS:
        return list(squares_of(targets(variant, side, own, occupied)))
    moves = []
    for origin in squares_of(own):
        lifted = own ^ 1 << origin
        free = targets(variant, side, lifted, occupied) & ~(1 << origin)
        steps = [step_move(origin, target) for target in squares_of(free)]
        if variant.both_networks_illegal and opens_network(variant, side ^ 1, other, origin, own):
            steps = [move for move in steps if not completes_both(variant, state, move)]
        moves.extend(steps)
    return moves


def opens_network(variant: Variant, side: int, chips: int, origin: int, blockers: int) -> bool:
    """Whether ``side`` (with ``chips``) has a network once the ``blockers`` chip on
    ``origin`` is lifted, before it lands anywhere: the only way a step can complete
    the opponent's network."""
    occupied = (chips | blockers) ^ 1 << origin
    if not gains_link(origin, chips, occupied):
        return False
    return find_network(chips, occupied, *variant.goals[side]) is not None


def can_move(variant: Variant, side: int, own: int, occupied: int) -> bool:
    """Whether ``side`` has a square to add to or a chip to step.

    The 2015 both-networks rule is left aside: to forbid every step, each of the
    side's chips would have to be the only block on an opponent's network.
    """
    if own.bit_count() < CHIPS:
        return bool(targets(variant, side, own, occupied))
    return any(
        targets(variant, side, own ^ 1 << origin, occupied) & ~(1 << origin)
        for origin in squares_of(own)
    )


def networks(
    variant: Variant, side: int, own: int, other: int, move: int
) -> tuple[Path | None, Path | None]:
    """The networks of the mover and of the opponent once ``side`` has played ``move``.

    ``own`` and ``other`` are the boards after the move. Before it neither side had a
    network, so the mover's new one must pass through the chip just placed or through
    the square a step left; the opponent can only gain one through that square.
    """
    occupied = own | other
    origin, target = (move >> 6) - 1, move & 63
    mine = theirs = None
    if (origin >= 0 and gains_link(origin, own, occupied)) or _may_join(
        variant, side, own, occupied, target
    ):
        mine = find_network(own, occupied, *variant.goals[side])
    if origin >= 0 and gains_link(origin, other, occupied):
        theirs = find_network(other, occupied, *variant.goals[side ^ 1])
    return mine, theirs


def _may_join(variant: Variant, side: int, own: int, occupied: int, index: int) -> bool:
    """Whether the chip on ``index`` has the connections a network through it needs:
    one from a goal square, two from any other square."""
    needed = 1 if variant.goal_squares(side) >> index & 1 else 2
    return len(linked(index, own, occupied)) >= needed


def boards_after(state: NetworkState, move: int) -> tuple[int, int]:
    """The mover's and the opponent's bitboards once ``move`` is played."""
    origin, target = move_origin(move), move_target(move)
    own, other = state.boards()
    own |= 1 << target
    if origin >= 0:
        own ^= 1 << origin
    return own, other


def completes_both(variant: Variant, state: NetworkState, move: int) -> bool:
    """Whether ``move`` gives both players a network."""
    origin = move_origin(move)
    if origin < 0:
        return False
    own, other = boards_after(state, move)
    if not gains_link(origin, other, own | other):
        return False
    mine, theirs = networks(variant, state.ply & 1, own, other, move)
    return mine is not None and theirs is not None


class Referee:
    """Names the rule a move breaks, with a sentence for players."""

    def __init__(self, variant: Variant) -> None:
        self.variant = variant
        """The rule set judged by."""

    def check(self, state: NetworkState, move: int) -> None:
        """Raise :class:`IllegalMoveError` if ``move`` is not legal in ``state``."""
        self.check_running(state)
        if not isinstance(move, int) or not 0 <= move < MOVE_LIMIT:
            raise IllegalMoveError("off_board", f"{move!r} is not a move on the 8×8 board.")
        side = state.ply & 1
        own, other = state.boards()
        origin, target = move_origin(move), move_target(move)
        if origin >= 0:
            self._check_step(side, own, origin, target)
            own ^= 1 << origin
        elif own.bit_count() >= CHIPS:
            self._refuse_add(state, side)
        self._check_target(side, own, other, target)
        if self.variant.both_networks_illegal and completes_both(self.variant, state, move):
            raise IllegalMoveError(
                "both_networks",
                "This step would complete a network for both players, which is not allowed.",
            )

    def check_running(self, state: NetworkState) -> None:
        """Raise :class:`IllegalMoveError` (``game_over``) if the game has ended."""
        if state.result is not None:
            raise IllegalMoveError("game_over", "The game is over; no more moves can be played.")

    def _check_step(self, side: int, own: int, origin: int, target: int) -> None:
        """A step: only once all chips are placed, from an own chip, to another square."""
        player, names = self.variant.sides[side], self.variant.names
        if own.bit_count() < CHIPS:
            left = CHIPS - own.bit_count()
            raise IllegalMoveError(
                "must_add",
                f"{player} still has {left} chip{'s' * (left > 1)} to place: only add moves "
                f"are allowed until both players have placed all {CHIPS}.",
            )
        if not own >> origin & 1:
            raise IllegalMoveError(
                "not_your_chip", f"There is no {player} chip on {names[origin]} to step from."
            )
        if origin == target:
            raise IllegalMoveError(
                "same_square",
                f"A step must move the chip to another square, not back onto {names[origin]}.",
            )

    def _refuse_add(self, state: NetworkState, side: int) -> None:
        """An add once the mover's chips are all on the board: suggest a step."""
        example = ""
        steps = generate_moves(self.variant, state)
        if steps:
            origin, target = move_origin(steps[0]), move_target(steps[0])
            names = self.variant.names
            example = f", such as a step from {names[origin]} to {names[target]}"
        raise IllegalMoveError(
            "no_chips_left",
            f"{self.variant.sides[side]} has placed all {CHIPS} chips: move one of them "
            f"with a step move instead{example}.",
        )

    def _check_target(self, side: int, own: int, other: int, target: int) -> None:
        """The square a chip goes to: not a corner, an opponent goal, taken, or a clump."""
        variant = self.variant
        name, player, opponent = variant.names[target], variant.sides[side], variant.sides[side ^ 1]
        bit = 1 << target
        if bit & CORNERS:
            raise IllegalMoveError(
                "corner", f"{name} is a corner: the corners are dead and no chip may go there."
            )
        if bit & variant.goal_squares(side ^ 1):
            raise IllegalMoveError(
                "opponent_goal",
                f"Position in opponent goal: {name} is in {opponent}'s goal area, "
                f"where {player} may not place a chip.",
            )
        if bit & (own | other):
            raise IllegalMoveError("occupied", f"{name} is already occupied.")
        if bit & cluster_squares(own):
            raise IllegalMoveError(
                "cluster",
                f"Position would form clump: a chip on {name} would make a group of three or "
                f"more {player} chips touching orthogonally or diagonally.",
            )

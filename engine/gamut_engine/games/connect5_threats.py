"""Threat-space search for Connect Five: victory by continuous fours (VCF) and by threes (VCT).

A **four** leaves the defender exactly one reply, the cell that completes it, unless
the defender can win first; so a win found by fours alone is a forced win against any
defence, and its tree is narrow. A **three** threatens to make an open four (or two
fours at once) next move; the defender then has more choice, but only among the cells
that take the threat away (the threatening cells and the empty cells of the windows
they grow from, checked one by one) or a four of its own, which the attacker must block
before the attack goes on. VCT tries fours first, then threes.

The defender's answers to a three are exact for the threat itself; what the search
does not follow is a defender who ignores the three to prepare a counter-attack of
fours. So before a three is played, the defender must have no VCF of its own: a VCF
result is proven, a VCT result is proven against every defence but that rare one.

Positions are :class:`~gamut_engine.games.connect5_lines.LinePosition` objects, whose
threat masks follow each stone placed, and a side (0 or 1) to attack. A
:class:`ThreatSolver` keeps a transposition table from search to search: the winning
move, the depth at which a position was searched without a win, or that no depth would
find one.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from typing import Protocol

from gamut_engine.core import Outcome
from gamut_engine.games.connect5_board import Connect5Board, Connect5State
from gamut_engine.games.connect5_lines import (
    LinePosition,
    SideThreats,
    double_threats,
    line_tables,
    side_threats,
    wins_of,
)


class FiveGame(Protocol):
    """What the threat search reads of a Connect Five game
    (:class:`~gamut_engine.games.connect5.ConnectFiveGame` is one); naming the protocol
    rather than the game keeps this module below the game's."""

    board: Connect5Board
    """The board the game is played on."""
    max_plies: int
    """The ply cap: a win that would come after it is not one."""

    def outcome(self, state: Connect5State) -> Outcome | None:
        """The game's result in ``state``, or ``None`` while it runs."""
        ...


Move = int
"""A cell index, as :class:`~gamut_engine.games.connect5.ConnectFiveGame` uses."""

Clock = Callable[[], float]
"""A monotonic clock in seconds."""

Timer = tuple[Clock, float]
"""A clock and the deadline on it."""

DEFAULT_DEPTH = 8
"""Attacking stones a search tries by default before it gives up."""

TABLE_LIMIT = 1 << 18
"""Entries the solver's table holds before it is cleared."""

COUNTER_VCF_DEPTH = 5
"""Stones of the defender's own VCF looked for before a three is played."""

VCT_DEPTHS = tuple(range(3, 16))
"""Attacking stones of the deepening VCT searches at the root, one more each time so that
the win found is the shortest; the clock, not the depth, usually ends the deepening."""

VCF_DEPTHS = (3, 6, 10, 20)
"""Attacking stones of the deepening VCF searches at the root (fours alone make a narrow
tree, so they go far)."""

DEFENCE_DEPTH = 7
"""Attacking stones of the opponent's VCT that the root's defence looks for."""

NO_WIN = 1 << 20
"""Stored as ``-NO_WIN``: no win at any depth, the search having met no depth limit."""

VCF, VCT = 0, 1
"""The two kinds of search, part of every table key."""


class OutOfTimeError(Exception):
    """The solver's deadline passed in the middle of a search."""


def find_forced_win(
    game: FiveGame, state: Connect5State, max_depth: int = DEFAULT_DEPTH
) -> Move | None:
    """A first move that wins by continuous fours in ``max_depth`` stones or fewer, or ``None``.

    ``max_depth`` counts the attacker's stones including the one that completes five,
    so depth 1 finds only an immediate win. ``None`` means no such win exists within
    that depth (there may still be a slower one or one that needs open threes). A win
    that would come after the game's ply cap is not one.
    """
    depth = _depth_within_cap(game, state, max_depth)
    if game.outcome(state) is not None or depth < 1:
        return None
    own, enemy = sides(state)
    return ThreatSolver(game.board).vcf(own, enemy, depth)


def sides(state: Connect5State) -> tuple[int, int]:
    """The stones of the side to move, then the other side's."""
    return (state.o, state.x) if state.turn else (state.x, state.o)


def _depth_within_cap(game: FiveGame, state: Connect5State, depth: int) -> int:
    """``depth`` stones, fewer if the game's ply cap comes first."""
    return min(depth, (game.max_plies - state.ply + 1) // 2)


@cache
def star_masks(board: Connect5Board) -> tuple[int, ...]:
    """For every cell, the cells within four of it along its four lines, itself included."""
    size = board.size
    directions = ((0, 1), (1, 0), (1, 1), (1, -1))
    masks = []
    for cell in range(board.cell_count):
        row, col = divmod(cell, size)
        mask = board.bits[cell]
        for dr, dc in directions:
            for k in (-4, -3, -2, -1, 1, 2, 3, 4):
                r, c = row + k * dr, col + k * dc
                if 0 <= r < size and 0 <= c < size:
                    mask |= board.bits[r * size + c]
        masks.append(mask)
    return tuple(masks)


class ThreatSolver:
    """VCF and VCT searches on one board size, sharing a transposition table.

    The searches place stones on a :class:`LinePosition`, whose threat masks follow each
    stone line by line instead of being computed for the whole board again.
    """

    def __init__(self, board: Connect5Board) -> None:
        """A solver for ``board``, its table empty."""
        self.board = board
        self.lines = line_tables(board)
        """The line patterns met so far, shared by every solver of this board size."""
        self.stars = star_masks(board)
        self.clock: Clock | None = None
        self.deadline = float("inf")
        self.table: dict[tuple[int, int, int], int] = {}
        """(side 0's stones, side 1's, kind and attacker) to the winning move (≥ 0) or
        ``-depth`` searched in vain."""
        self.nodes = 0
        """Attacker positions searched since the solver was made."""
        self.timed_out = False
        """Whether the last search ran out of time."""
        self.cut = False
        """Whether the search so far left some threat unplayed for lack of depth: if not, a
        deeper search would find no more."""

    def vcf(self, own: int, enemy: int, depth: int, timer: Timer | None = None) -> Move | None:
        """A move that wins by fours alone within ``depth`` stones, or ``None``.

        ``timer`` is a clock and a deadline; past it the answer is ``None`` too.
        """
        return self._solve(self.lines.position(own, enemy), 0, depth, VCF, timer)

    def vct(self, own: int, enemy: int, depth: int, timer: Timer | None = None) -> Move | None:
        """A move that wins by fours and threes within ``depth`` stones, or ``None``."""
        return self._solve(self.lines.position(own, enemy), 0, depth, VCT, timer)

    def _solve(
        self, position: LinePosition, side: int, depth: int, kind: int, timer: Timer | None
    ) -> Move | None:
        """Run one search for ``side``; ``None`` also when the deadline passes first."""
        if len(self.table) > TABLE_LIMIT:
            self.table.clear()
        self.clock, self.deadline = (None, float("inf")) if timer is None else timer
        self.timed_out = False
        self.cut = False
        try:
            return self.attack(position, side, depth, kind)
        except OutOfTimeError:
            self.timed_out = True
            return None

    def move_wins(
        self, state: Connect5State, move: Move, stones: int, timer: Timer | None = None
    ) -> bool:
        """Whether ``move`` starts a VCF or VCT of at most ``stones`` stones, itself included.

        Raises :class:`OutOfTimeError` if ``timer``'s deadline passes first.
        """
        self.clock, self.deadline = (None, float("inf")) if timer is None else timer
        position = self.lines.play(self.lines.position_of(state), move, state.turn)
        return self.defend(position, state.turn, stones - 1, VCT)

    def winning_move(self, state: Connect5State, timer: Timer) -> tuple[Move, int] | None:
        """A forced win for the side to move (VCF, else deepening VCT) and its length in plies.

        ``None`` when none is found before the deadline.
        """
        position = self.lines.position_of(state)
        self.timed_out = False
        for kind, depths in ((VCF, VCF_DEPTHS), (VCT, VCT_DEPTHS)):
            for depth in depths:
                if self.timed_out:
                    return None
                move = self._solve(position, state.turn, depth, kind, timer)
                if move is not None:
                    return move, 2 * depth - 1
                if not self.cut and not self.timed_out:
                    break  # no depth limit was met: deeper searches would find nothing more
        return None

    def defences(self, state: Connect5State, moves: list[Move], timer: Timer) -> list[Move]:
        """The ``moves`` after which the opponent has no VCF or VCT, in their order.

        All of ``moves`` when the opponent threatens none now or every move loses; moves
        the deadline left unchecked are kept, after the checked ones.
        """
        position = self.lines.position_of(state)
        side, enemy = state.turn, 1 - state.turn
        if self._solve(position, enemy, DEFENCE_DEPTH, VCT, timer) is None:
            return moves
        kept: list[Move] = []
        for index, move in enumerate(moves):
            after = self.lines.play(position, move, side)
            if self._solve(after, enemy, DEFENCE_DEPTH, VCT, timer) is None:
                if self.timed_out:
                    return kept + moves[index:]
                kept.append(move)
        return kept or moves

    def answers(self, state: Connect5State) -> int | None:
        """The only moves worth making when the opponent threatens an open or double four.

        That threat wins unless it is taken away or outpaced by fours, so the moves are the
        side to move's fours and the cells that leave the opponent no such threat, as a
        mask. ``None`` when there is no such threat, or when either side has a five to
        make or the side to move has a threat of its own that comes first.
        """
        position = self.lines.position_of(state)
        side, enemy = state.turn, 1 - state.turn
        theirs = side_threats(position, enemy)
        if not theirs.winning or theirs.wins:
            return None
        mine = side_threats(position, side)
        if mine.wins or mine.winning:
            return None
        return mine.fours | self.defence_cells(position, enemy, theirs)

    def attack(self, position: LinePosition, side: int, depth: int, kind: int) -> Move | None:
        """A move for ``side`` (to move) that wins within ``depth`` stones, or ``None``."""
        self.nodes += 1
        if self.clock is not None and self.clock() >= self.deadline:
            raise OutOfTimeError
        mine = side_threats(position, side)
        if mine.wins:
            return self.board.cells_of(mine.wins)[0]
        if depth < 2:
            self.cut = self.cut or bool(mine.fours or (kind == VCT and mine.threes))
            return None
        key = (position.x, position.o, 2 * kind + side)
        known = self.table.get(key)
        if known is not None and (known >= 0 or -known >= depth):
            if known < 0:
                self.cut = self.cut or known != -NO_WIN
                return None
            return known
        outer, self.cut = self.cut, False
        move = self._attack_moves(position, side, depth, kind, mine)
        if move is None:
            self.table[key] = -depth if self.cut else -NO_WIN
        else:
            self.table[key] = move
        self.cut = outer or self.cut
        return move

    def _attack_moves(
        self, position: LinePosition, side: int, depth: int, kind: int, mine: SideThreats
    ) -> Move | None:
        """Try the attacker's fours, then (VCT) its threes; the first that wins."""
        board, play = self.board, self.lines.play
        their_wins = wins_of(position, 1 - side)
        if their_wins & (their_wins - 1):
            return None
        if their_wins:
            # The defender threatens five: block it, and the attack goes on only if the
            # block keeps a threat of ours alive.
            cell = board.cells_of(their_wins)[0]
            return cell if self.defend(play(position, cell, side), side, depth - 1, kind) else None
        for cell in board.cells_of(mine.fours):
            if self.defend(play(position, cell, side), side, depth - 1, kind):
                return cell
        if kind == VCF:
            return None
        threes = mine.threes & ~mine.fours
        if depth < 3:
            # A three needs three more stones: the three, the open four and the five.
            self.cut = self.cut or bool(threes)
            return None
        doubles = double_threats(position, side) & threes
        # Threes that also threaten along a second line first: they win most often.
        for cell in board.cells_of(doubles) + board.cells_of(threes & ~doubles):
            after = play(position, cell, side)
            if side_threats(after, side).winning and self.defend(after, side, depth - 1, kind):
                return cell
        return None

    def defend(self, position: LinePosition, side: int, depth: int, kind: int) -> bool:
        """Whether ``side``, having just moved, wins against every reply of the other."""
        enemy = 1 - side
        if wins_of(position, enemy):
            return False
        mine = side_threats(position, side)
        play = self.lines.play
        if mine.wins:
            if mine.wins & (mine.wins - 1):
                return True
            block = self.board.cells_of(mine.wins)[0]
            return self._after_reply(play(position, block, enemy), side, depth, kind)
        if kind == VCF or not mine.winning:
            return False
        if depth < 2:
            self.cut = True
            return False
        # The counter-attack is searched to a fixed depth, whatever the attack's.
        outer = self.cut
        counter = self.attack(position, enemy, COUNTER_VCF_DEPTH, VCF)
        self.cut = outer
        if counter is not None:
            # The defender answers the three with fours of its own that win.
            return False
        replies = self.defence_cells(position, side, mine) | side_threats(position, enemy).fours
        return all(
            self._after_reply(play(position, cell, enemy), side, depth, kind)
            for cell in self.board.cells_of(replies)
        )

    def _after_reply(self, position: LinePosition, side: int, depth: int, kind: int) -> bool:
        """Whether ``side`` still wins once the defender has replied."""
        if self.board.has_five(position.o if side == 0 else position.x):
            return False
        return self.attack(position, side, depth, kind) is not None

    def defence_cells(self, position: LinePosition, side: int, threat: SideThreats) -> int:
        """Empty cells that leave ``side`` without an open four or double four to make.

        A threat cell makes its open four or double four from windows of five already
        holding three attacking stones and nothing else, so a defence is the threat cell
        itself or an empty cell of such a window on one of its lines (the cells that
        make a four); each of those is checked on the board.
        """
        board, stars, play = self.board, self.stars, self.lines.play
        around = 0
        for cell in board.cells_of(threat.winning):
            around |= stars[cell]
        candidates = threat.winning | (threat.fours & around)
        defences = 0
        enemy = 1 - side
        for cell in board.cells_of(candidates):
            after = side_threats(play(position, cell, enemy), side)
            if not after.winning and not after.wins:
                defences |= board.bits[cell]
        return defences

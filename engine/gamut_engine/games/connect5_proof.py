"""Proof-number search (df-pn) over Connect Five's threat tree.

The tree is the one :class:`~gamut_engine.games.connect5_threats.ThreatSolver` searches
depth first: at an attacker node (an OR node) the attacker plays its fours, then (VCT)
its threes, or blocks the defender's one five; at a defender node (an AND node) the
defender blocks the attacker's five, or answers a three with exactly the cells
``ThreatSolver.defence_cells`` finds and its own fours, after the defender's own VCF
has been looked for. A node's depth is the attacking stones still allowed.

Instead of deepening and searching every failed line again, each node keeps a *proof
number* (how many leaves at least must still be proven to prove it) and a *disproof
number* (the same to refute it). An OR node is proven when one child is; an AND node
when all its children are. The search always goes down to the *most-proving* node,
the leaf whose proof would reduce the root's proof number most cheaply, and df-pn does
it depth first: a child is searched until its numbers pass thresholds set from its
parent's and its best sibling's (with a quarter of slack, so that the search does not
hop between two siblings of equal promise), then the parent's numbers are recomputed.

The numbers live in a bounded table keyed by the stones, the kind of search, the
attacker, the node's type and its depth (so an entry is exact whichever root reached
it); positions stay :class:`~gamut_engine.games.connect5_lines.LinePosition` objects,
played one stone at a time on the way down. Every proven attacker node is also kept
apart with its winning move and its length in stones, from search to search: the moves
that follow a proven win are proven again at once. The clock is read at every node the
search enters, so a search stops at its deadline within one node's work; a search that
fills the table stops too, and says so.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from gamut_engine.games.connect5_lines import (
    LinePosition,
    double_threats,
    side_threats,
    wins_of,
)
from gamut_engine.games.connect5_threats import (
    COUNTER_VCF_DEPTH,
    VCF,
    VCF_DEPTHS,
    VCT,
    VCT_DEPTHS,
    Move,
    OutOfTimeError,
    ThreatSolver,
    Timer,
)

if TYPE_CHECKING:
    from gamut_engine.games.connect5_board import Connect5State

INFINITY = 1 << 40
"""A proof or disproof number that can never be reached: the node is settled."""

NODE_LIMIT = 1 << 18
"""Entries the table holds at most; a search that would need more gives up."""

SLACK = 4
"""A child's threshold exceeds its best sibling's number by a ``1 / SLACK`` share."""

SEARCHES = ((VCF, VCF_DEPTHS[-1]), (VCT, 11), (VCT, VCT_DEPTHS[-1]))
"""The searches a win is looked for with, in turn: kind and attacking stones."""

THREE_PROOF = 2
"""The proof number a three starts with, a four's being 1: a four leaves one reply, a
three several, so a three is taken as harder to prove until it is searched (on the hard
puzzles this takes some 15% fewer nodes than starting both at 1)."""

Key = tuple[int, int, int, int]
"""(side 0's stones, side 1's, node code, depth): see :func:`node_code`."""


class Node:
    """One node's entry in the table."""

    __slots__ = ("children", "dn", "forcing", "pn", "stones")

    def __init__(
        self, pn: int, dn: int, children: tuple[Move, ...] | None, stones: int, forcing: int = 0
    ) -> None:
        """A node with these numbers; ``children`` is ``None`` for a settled leaf."""
        self.pn = pn
        """Proof number: leaves still to prove, at least, before the node is proven."""
        self.dn = dn
        """Disproof number: the same to refute it."""
        self.children = children
        """The moves to the node's children, ``None`` for a settled leaf."""
        self.stones = stones
        """Once proven, the attacking stones its proof plays."""
        self.forcing = forcing
        """How many of the first children leave the other side a single reply (an attacker
        node's fours and blocks); the others start with a larger proof number."""


class TableFullError(Exception):
    """The search needed more table entries than its bound allows."""


def node_code(kind: int, side: int, attacker_to_move: bool) -> int:
    """The part of a key that says which search, which attacker and which node type."""
    return 4 * attacker_to_move + 2 * kind + side


def child_key(key: Key, bit: int, side: int) -> Key:
    """The key of the node after ``side`` plays the cell of ``bit`` from node ``key``."""
    x, o, code, depth = key
    if side:
        o |= bit
    else:
        x |= bit
    return (x, o, code ^ 4, depth - 1 if code & 4 else depth)


class ProofSearch:
    """df-pn over the threat tree of one :class:`ThreatSolver`, with its own table."""

    def __init__(self, solver: ThreatSolver, node_limit: int = NODE_LIMIT) -> None:
        """A search on ``solver``'s board, holding at most ``node_limit`` entries."""
        self.solver = solver
        self.board = solver.board
        self.lines = solver.lines
        self.node_limit = node_limit
        self.table: dict[Key, Node] = {}
        self.wins: dict[tuple[int, int, int], tuple[Move, int]] = {}
        """(side 0's stones, side 1's, 2 × kind + attacker) of a proven attacker node to
        its winning move and the attacking stones of its proof."""
        self.clock = solver.clock
        self.deadline = float("inf")
        self.nodes = 0
        """Nodes entered since the search was made."""
        self.timed_out = False
        """Whether the last search stopped at its deadline."""
        self.full = False
        """Whether the last search stopped because its table was full."""

    def prove(
        self, position: LinePosition, side: int, depth: int, kind: int, timer: Timer | None
    ) -> tuple[Move, int] | None:
        """A winning first move for ``side`` (to move) and its stones, or ``None``.

        ``None`` also when the deadline passes or the table fills first
        (:attr:`timed_out`, :attr:`full`).
        """
        self._start(timer)
        key: Key = (position.x, position.o, node_code(kind, side, True), depth)
        try:
            self._search(position, key, INFINITY, INFINITY)
        except OutOfTimeError:
            self.timed_out = True
            return None
        except TableFullError:
            self.full = True
            return None
        return self.wins.get((position.x, position.o, 2 * kind + side))

    def winning_move(self, state: Connect5State, timer: Timer) -> tuple[Move, int] | None:
        """A forced win for the side to move and its length in plies (VCF, else VCT).

        The VCT is looked for within 11 stones first, then 15: the shorter limit proves
        most wins with fewer nodes, and its proofs are shorter.

        When the table fills before an answer, the solver's deepening search has the
        rest of the time.
        """
        position = self.lines.position_of(state)
        for kind, depth in SEARCHES:
            found = self.prove(position, state.turn, depth, kind, timer)
            if found is not None:
                return found[0], 2 * found[1] - 1
            if self.timed_out:
                return None
            if self.full:
                return self.solver.winning_move(state, timer)
        return None

    def _start(self, timer: Timer | None) -> None:
        """Set the clock (the solver's too, for the defender's VCF) and make room."""
        if len(self.table) > self.node_limit // 2:
            self.table.clear()
        if len(self.wins) > self.node_limit:
            self.wins.clear()
        self.clock, self.deadline = (None, float("inf")) if timer is None else timer
        self.solver.clock, self.solver.deadline = self.clock, self.deadline
        self.timed_out = self.full = False

    def _search(self, position: LinePosition, key: Key, proof: int, disproof: int) -> None:
        """Search the node ``key`` until its numbers reach ``proof`` or ``disproof``."""
        self.nodes += 1
        if self.clock is not None and self.clock() >= self.deadline:
            raise OutOfTimeError
        node = self.table.get(key) or self._expand(position, key)
        children = node.children
        if children is None:
            return
        attacker = bool(key[2] & 4)
        mover = key[2] & 1 if attacker else 1 - (key[2] & 1)
        bits = self.board.bits
        keys = [child_key(key, bits[move], mover) for move in children]
        while True:
            best, second = self._update(node, keys, attacker, node.forcing)
            if node.pn >= proof or node.dn >= disproof or not node.pn or not node.dn:
                break
            child = self.table.get(keys[best])
            child_pn, child_dn = (1, 1) if child is None else (child.pn, child.dn)
            if attacker:
                limits = (min(proof, _beyond(second)), _cap(disproof - node.dn + child_dn))
            else:
                limits = (_cap(proof - node.pn + child_pn), min(disproof, _beyond(second)))
            after = self.lines.play(position, children[best], mover)
            self._search(after, keys[best], *limits)
        if not node.pn:
            self._record_proof(key, node, children[best], keys[best] if attacker else keys)

    def _update(self, node: Node, keys: list[Key], attacker: bool, forcing: int) -> tuple[int, int]:
        """Set ``node``'s numbers from its children's; the best child and the second-best number.

        An OR node follows its smallest proof number, an AND node its smallest disproof
        number; the other number adds up over the children.
        """
        table = self.table
        best, best_value, second = 0, INFINITY + 1, INFINITY
        total = 0
        for index, key in enumerate(keys):
            child = table.get(key)
            if child is not None:
                pn, dn = child.pn, child.dn
            else:
                pn, dn = (1 if index < forcing else THREE_PROOF), 1
            value, other = (pn, dn) if attacker else (dn, pn)
            total += other
            if value < best_value:
                best, best_value, second = index, value, best_value
            elif value < second:
                second = value
        if attacker:
            node.pn, node.dn = best_value, _cap(total)
        else:
            node.pn, node.dn = _cap(total), best_value
        return best, min(second, INFINITY)

    def _record_proof(self, key: Key, node: Node, move: Move, proof: Key | list[Key]) -> None:
        """Store the stones of a proof just completed, and an attacker node's winning move.

        ``proof`` is the winning child's key at an attacker node, every child's at a
        defender node.
        """
        table = self.table
        if isinstance(proof, tuple):
            node.stones = 1 + table[proof].stones
            self.wins[(key[0], key[1], key[2] & 3)] = (move, node.stones)
        else:
            node.stones = max(table[child].stones for child in proof)

    def _expand(self, position: LinePosition, key: Key) -> Node:
        """A new node's entry: settled if it is a leaf, else its children."""
        if len(self.table) >= self.node_limit:
            raise TableFullError
        if key[2] & 4:
            node = self._attacker_node(position, key)
        else:
            node = self._defender_node(position, key)
        self.table[key] = node
        return node

    def _attacker_node(self, position: LinePosition, key: Key) -> Node:
        """An attacker node, as ``ThreatSolver.attack`` would judge it."""
        x, o, code, depth = key
        side, kind = code & 1, (code >> 1) & 1
        mine = side_threats(position, side)
        if mine.wins:
            self.wins[(x, o, code & 3)] = (self.board.cells_of(mine.wins)[0], 1)
            return _proven(1)
        known = self.wins.get((x, o, code & 3))
        if known is not None and known[1] <= depth:
            return _proven(known[1])
        their_wins = wins_of(position, 1 - side)
        if depth < 2 or their_wins & (their_wins - 1):
            return _disproven()
        if their_wins:
            return _open((self.board.cells_of(their_wins)[0],))
        cells = self.board.cells_of(mine.fours)
        fours = len(cells)
        threes = mine.threes & ~mine.fours
        if kind == VCT and depth >= 3 and threes:
            doubles = double_threats(position, side) & threes
            cells += self.board.cells_of(doubles) + self.board.cells_of(threes & ~doubles)
        return _open(tuple(cells), fours) if cells else _disproven()

    def _defender_node(self, position: LinePosition, key: Key) -> Node:
        """A defender node, as ``ThreatSolver.defend`` would judge it."""
        side, kind, depth = key[2] & 1, (key[2] >> 1) & 1, key[3]
        enemy = 1 - side
        if wins_of(position, enemy):
            return _disproven()
        mine = side_threats(position, side)
        if mine.wins:
            if mine.wins & (mine.wins - 1):
                return _proven(1)
            return _open((self.board.cells_of(mine.wins)[0],))
        if kind == VCF or not mine.winning or depth < 2:
            return _disproven()
        solver = self.solver
        outer = solver.cut
        counter = solver.attack(position, enemy, COUNTER_VCF_DEPTH, VCF)
        solver.cut = outer
        if counter is not None:
            return _disproven()
        replies = solver.defence_cells(position, side, mine) | side_threats(position, enemy).fours
        # No reply takes the threat away: the open four and the five are two more stones.
        return _open(tuple(self.board.cells_of(replies))) if replies else _proven(2)


def _proven(stones: int) -> Node:
    """A leaf won for the attacker, the attacker playing ``stones`` more stones."""
    return Node(0, INFINITY, None, stones)


def _disproven() -> Node:
    """A leaf the attacker does not win."""
    return Node(INFINITY, 0, None, 0)


def _open(children: tuple[Move, ...], forcing: int | None = None) -> Node:
    """A node still to be searched, with the moves to its children (the first ``forcing``
    of them, all by default, leaving a single reply)."""
    return Node(1, 1, children, 0, len(children) if forcing is None else forcing)


def _cap(number: int) -> int:
    """``number``, at most :data:`INFINITY`."""
    return min(number, INFINITY)


def _beyond(second: int) -> int:
    """A threshold just past the best sibling's number ``second``, with some slack."""
    return _cap(second + 1 + second // SLACK)

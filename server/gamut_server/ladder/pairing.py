"""Continuous pairing in one pool: who plays whom next, and with which colours.

:class:`Pairer` holds a pool's queue. The async layer calls :meth:`Pairer.pair` every
tick with the current ratings and time; it pairs whom it can and leaves the rest
waiting. Chance is mixed with ratings: an opponent is drawn with a weight that is
highest for a close rating and never below :attr:`PairingRules.chance`, so close
ratings meet more often and everyone eventually meets everyone. On top of that:

- two players kept apart (one blocked the other) never meet: the ``apart`` question
  :meth:`Pairer.pair` is given decides;
- the same two players never meet twice in a row while either has another possible
  opponent in the pool;
- a pair may be capped to :attr:`PairingRules.cap_per_day` games in 24 hours;
- colours go to balance each player's count of first and second moves;
- the hosted AI's anchors are offered to a player only once it has waited
  :attr:`PairingRules.anchor_wait_ms`, never to each other, one game at a time each;
- players who waited longest choose first.

Everything is deterministic given the injected ``random.Random`` and the ``now_ms``
values passed in (milliseconds of wall time, so the daily cap survives a restart).
"""

from __future__ import annotations

import math
import random
from collections import deque
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Final

DAY_MS: Final = 24 * 3600 * 1000
"""The window of the daily cap."""


@dataclass(frozen=True, slots=True)
class PairingRules:
    """How a pool pairs."""

    closeness: float = 250.0
    """Rating distance at which the preference for a close opponent has fallen to about 60%."""
    chance: float = 0.15
    """The least weight any allowed opponent gets (1 is the weight of an equal rating)."""
    anchor_weight: float = 0.5
    """Anchors' weights are scaled by this, so bots meet each other more than the AI."""
    anchor_wait_ms: int = 3000
    """How long a player waits before anchors are offered to it."""
    cap_per_day: int | None = None
    """Most games one pair may play in 24 hours; ``None``: no cap."""


@dataclass(frozen=True, slots=True)
class Pairing:
    """Two players to seat in a new game."""

    sides: tuple[str, str]
    """Side 0 (moves first) and side 1."""
    waited_ms: tuple[int, int]
    """How long each side waited in the queue (0 for an anchor)."""


@dataclass(frozen=True, slots=True)
class Entrant:
    """A player waiting in the queue."""

    name: str
    """The player."""
    since_ms: int
    """When it joined the queue."""


@dataclass
class PairHistory:
    """What pairing remembers of past games: last opponents, colours and recent pair games."""

    last_opponent: dict[str, str] = field(default_factory=dict)
    """Each player's opponent in its latest game."""
    colour_balance: dict[str, int] = field(default_factory=dict)
    """Games each player had the first move minus games it had the second."""
    recent: dict[frozenset[str], deque[int]] = field(default_factory=dict)
    """When each pair's recent games were paired (wall ms), oldest first."""

    def record(self, first: str, second: str, at_ms: int) -> None:
        """Note a game paired at ``at_ms`` with ``first`` on side 0."""
        self.last_opponent[first] = second
        self.last_opponent[second] = first
        self.colour_balance[first] = self.colour_balance.get(first, 0) + 1
        self.colour_balance[second] = self.colour_balance.get(second, 0) - 1
        self.recent.setdefault(frozenset((first, second)), deque()).append(at_ms)

    def games_today(self, first: str, second: str, now_ms: int) -> int:
        """Games the pair was paired in during the 24 hours before ``now_ms``."""
        times = self.recent.get(frozenset((first, second)))
        if not times:
            return 0
        while times and times[0] <= now_ms - DAY_MS:
            times.popleft()
        return len(times)


class Pairer:
    """One pool's queue and anchors, and the choice of pairs."""

    def __init__(
        self,
        rules: PairingRules,
        rng: random.Random,
        *,
        anchors: Iterable[str] = (),
        history: PairHistory | None = None,
    ) -> None:
        """An empty queue; ``anchors`` are the AI players always on hand."""
        self.rules = rules
        self._rng = rng
        self.history = history if history is not None else PairHistory()
        """Past pairings that steer the next ones."""
        self.waiting: dict[str, Entrant] = {}
        """The players waiting, by name."""
        self.anchors: dict[str, bool] = dict.fromkeys(anchors, True)
        """Each anchor, and whether it is free to play."""
        self.present: set[str] = set()
        """Players of the pool who are connected and willing (waiting or playing)."""

    # --- the queue -------------------------------------------------------------------

    def enqueue(self, name: str, now_ms: int) -> bool:
        """``name`` waits for a game from ``now_ms``; ``False`` if it already waits."""
        self.present.add(name)
        if name in self.waiting:
            return False
        self.waiting[name] = Entrant(name, now_ms)
        return True

    def withdraw(self, name: str) -> bool:
        """``name`` leaves the pool's queue and presence; ``False`` if it was not waiting."""
        self.present.discard(name)
        return self.waiting.pop(name, None) is not None

    def playing(self, name: str) -> None:
        """``name`` is present but busy in a game (after a restart, say)."""
        self.present.add(name)
        self.waiting.pop(name, None)
        if name in self.anchors:
            self.anchors[name] = False

    def release_anchor(self, name: str) -> None:
        """An anchor's game ended: it is free again."""
        if name in self.anchors:
            self.anchors[name] = True

    # --- pairing ---------------------------------------------------------------------

    def pair(
        self,
        ordinals: Mapping[str, float],
        now_ms: int,
        apart: Callable[[str, str], bool] | None = None,
    ) -> list[Pairing]:
        """Pair whom it can now; ``ordinals`` are the players' conservative ratings
        (a player missing from it counts as new, at 0); two players for whom ``apart``
        is true (one blocked the other) are never paired."""
        pairings = []
        order = sorted(self.waiting.values(), key=lambda e: (e.since_ms, e.name))
        for entrant in order:
            if entrant.name not in self.waiting:
                continue
            opponent = self._choose(entrant, ordinals, now_ms, apart or _never)
            if opponent is not None:
                pairings.append(self._seat(entrant, opponent, now_ms))
        return pairings

    def _candidates(
        self, entrant: Entrant, now_ms: int, apart: Callable[[str, str], bool]
    ) -> list[str]:
        """Everyone ``entrant`` may meet now."""
        others = [
            name for name in self.waiting if name != entrant.name and not apart(entrant.name, name)
        ]
        if now_ms - entrant.since_ms >= self.rules.anchor_wait_ms:
            others += [name for name, free in self.anchors.items() if free]
        return [name for name in others if self._allowed(entrant.name, name, now_ms)]

    def _allowed(self, name: str, other: str, now_ms: int) -> bool:
        """Whether ``name`` may meet ``other`` now (repeat rule and daily cap)."""
        cap = self.rules.cap_per_day
        if cap is not None and self.history.games_today(name, other, now_ms) >= cap:
            return False
        if self.history.last_opponent.get(name) != other:
            return True
        return not self._has_alternative(name, other) and not self._has_alternative(other, name)

    def _has_alternative(self, name: str, other: str) -> bool:
        """Whether ``name`` has a possible opponent in the pool besides ``other``."""
        possible = (self.present | set(self.anchors)) - {name, other}
        if name in self.anchors:
            possible -= set(self.anchors)
        return bool(possible)

    def _weight(self, name: str, other: str, ordinals: Mapping[str, float]) -> float:
        """How likely ``other`` is drawn as ``name``'s opponent (before normalising)."""
        distance = ordinals.get(name, 0.0) - ordinals.get(other, 0.0)
        closeness = math.exp(-0.5 * (distance / self.rules.closeness) ** 2)
        weight = self.rules.chance + (1 - self.rules.chance) * closeness
        return weight * (self.rules.anchor_weight if other in self.anchors else 1.0)

    def _choose(
        self,
        entrant: Entrant,
        ordinals: Mapping[str, float],
        now_ms: int,
        apart: Callable[[str, str], bool],
    ) -> str | None:
        """Draw ``entrant``'s opponent among the candidates, or ``None`` if there is none."""
        candidates = sorted(self._candidates(entrant, now_ms, apart))
        if not candidates:
            return None
        weights = [self._weight(entrant.name, other, ordinals) for other in candidates]
        return self._rng.choices(candidates, weights=weights)[0]

    def _seat(self, entrant: Entrant, opponent: str, now_ms: int) -> Pairing:
        """Take both out of the queue and give them colours."""
        del self.waiting[entrant.name]
        other = self.waiting.pop(opponent, None)
        if opponent in self.anchors:
            self.anchors[opponent] = False
        waits = {
            entrant.name: now_ms - entrant.since_ms,
            opponent: 0 if other is None else now_ms - other.since_ms,
        }
        first, second = self._colours(entrant.name, opponent)
        self.history.record(first, second, now_ms)
        return Pairing((first, second), (waits[first], waits[second]))

    def _colours(self, one: str, other: str) -> tuple[str, str]:
        """Side 0 to the one who has had it less often; a coin when they are even."""
        balance = self.history.colour_balance
        lead = balance.get(one, 0) - balance.get(other, 0)
        if lead == 0:
            lead = 1 if self._rng.random() < 0.5 else -1
        return (other, one) if lead > 0 else (one, other)


def _never(one: str, other: str) -> bool:
    """Nobody is kept apart."""
    return False

"""One pool's live state: its pairer, the members, who is playing and the ratings."""

from __future__ import annotations

import random
from collections import deque
from dataclasses import dataclass, field
from statistics import median

from gamut_protocol import ClientKind
from gamut_server.ladder.pairing import Pairer, PairingRules
from gamut_server.ladder.pools import PoolSpec
from gamut_server.ladder.ratings import RatingModel, Skill
from gamut_server.storage import HistoryRow, RatingRow

RECENT_WAITS = 200
"""How many pairing waits a pool keeps for its figures."""


@dataclass
class Member:
    """A player who joined a pool and has not left it."""

    name: str
    """The player."""
    kind: ClientKind = "bot"
    """How it said hello (its seats are of this kind)."""
    suspended: bool = False
    """Out of the queue after losing on time, until it joins again or reconnects."""


@dataclass
class PoolState:
    """Everything the ladder tracks about one pool."""

    spec: PoolSpec
    """The pool."""
    pairer: Pairer
    """Its queue and pairing."""
    skills: dict[str, Skill] = field(default_factory=dict)
    """Each rated player's current skill."""
    kinds: dict[str, str] = field(default_factory=dict)
    """Each rated player's kind (``ai`` for the anchors)."""
    members: dict[str, Member] = field(default_factory=dict)
    """The players who joined and have not left."""
    playing: dict[str, str] = field(default_factory=dict)
    """The room each member or anchor is playing in."""
    waits_ms: deque[int] = field(default_factory=lambda: deque(maxlen=RECENT_WAITS))
    """How long the latest pairings waited."""
    games_started: int = 0
    """Games paired since the server started."""
    openings_played: dict[frozenset[str], tuple[int, str]] = field(default_factory=dict)
    """Each pair's last opening and who moved first from it, until they play it again
    with the colours reversed."""
    next_opening: int = 0
    """The opening the next new start takes."""

    def opening_for(self, first: str, second: str) -> tuple[str, ...]:
        """The opening a game of ``first`` against ``second`` starts from: the one they
        last played with the colours the other way round, else the next of the pool's."""
        openings = self.spec.openings
        if not openings:
            return ()
        pair = frozenset((first, second))
        last = self.openings_played.pop(pair, None)
        if last is not None and last[1] == second:
            return openings[last[0] % len(openings)]
        index, self.next_opening = self.next_opening, self.next_opening + 1
        self.openings_played[pair] = (index, first)
        return openings[index % len(openings)]

    @classmethod
    def new(
        cls, spec: PoolSpec, rng: random.Random, *, anchors: bool, rules: PairingRules
    ) -> PoolState:
        """A pool with no member yet (with its anchors when the AI runs)."""
        rules = PairingRules(
            closeness=rules.closeness,
            chance=rules.chance,
            anchor_weight=rules.anchor_weight,
            anchor_wait_ms=rules.anchor_wait_ms,
            cap_per_day=spec.cap_per_day,
        )
        names = spec.anchor_names() if anchors else ()
        return cls(spec, Pairer(rules, rng, anchors=names))

    def skill(self, name: str, model: RatingModel) -> Skill:
        """``name``'s skill (a new player's if unrated)."""
        return self.skills.get(name, model.initial)

    def ordinals(self) -> dict[str, float]:
        """Every rated player's conservative rating, for pairing."""
        return {name: skill.ordinal for name, skill in self.skills.items()}

    def load_ratings(self, rows: list[RatingRow]) -> None:
        """Take the stored ratings and colour balances."""
        for row in rows:
            self.skills[row.name] = Skill(row.mu, row.sigma)
            self.kinds[row.name] = row.kind
            self.pairer.history.colour_balance[row.name] = row.first_side

    def load_recent(self, rows: list[HistoryRow], wall_ms: int) -> None:
        """Replay the last day's games for last opponents and the daily cap."""
        balance = dict(self.pairer.history.colour_balance)
        for row in rows:
            if row.side == 0:
                at_ms = int(row.at.timestamp() * 1000)
                self.pairer.history.record(row.name, row.opponent, min(at_ms, wall_ms))
        self.pairer.history.colour_balance = balance

    def waiting_count(self) -> int:
        """How many players wait in the queue."""
        return len(self.pairer.waiting)

    def figures(self) -> dict[str, object]:
        """The pool's live numbers, as JSON."""
        waits = list(self.waits_ms)
        return {
            "members": len(self.members),
            "waiting": self.waiting_count(),
            "playing": len(self.playing),
            "games_started": self.games_started,
            "pairing_wait_ms": {
                "median": round(median(waits)) if waits else None,
                "max": max(waits) if waits else None,
            },
        }

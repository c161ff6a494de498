"""Which games a bot looks for (:class:`Plan`) and the seeks it has out (:class:`SeekBook`).

A plan says what to seek (a game, options, time control and opponent), whether to
accept others' open seeks and challenges, how many games to play in all and how
many at once. The seek book counts what is under way (seeks asked for, seeks listed,
seeks being accepted, games running) so the runner never asks for more games than the
plan allows.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Final

from pydantic import ValidationError

from gamut_engine import load_game
from gamut_engine.search.levels import move_budget
from gamut_protocol import (
    AiOpponent,
    AnyOpponent,
    Fischer,
    NamedOpponent,
    Opponent,
    PerMove,
    Seek,
    SeekInfo,
    SeekTerms,
    TimeControl,
    Untimed,
)

TRANSIENT_ERRORS: Final = frozenset({"rate_limited", "unavailable", "unknown_player"})
"""Refusals of a seek worth trying again later (a challenged player may connect soon)."""


class PlanError(Exception):
    """The server refuses what the plan asks for (an unknown game, bad options…)."""


@dataclass(frozen=True)
class Plan:
    """What games a bot plays."""

    seek: SeekTerms | None = None
    """Post seeks with these terms (an open seek, a challenge, or a game against the AI)."""
    accept_open: bool = False
    """Accept other players' open seeks (of :attr:`only_game`, if set)."""
    accept_challenges: bool = True
    """Accept challenges addressed to this bot."""
    only_game: str | None = None
    """Accept seeks of this game only; ``None``: any game."""
    games: int | None = None
    """Stop after this many games have ended; ``None``: play on until stopped."""
    parallel: int = 1
    """Most games at once (counting the seeks that may start one)."""
    ladder: str | None = None
    """A ladder pool to join while running."""
    tournament: str | None = None
    """A tournament to enter while running (its games are paired by the server)."""

    def __post_init__(self) -> None:
        if self.parallel < 1:
            raise ValueError(f"a bot plays at least one game at a time, not {self.parallel}")
        if self.games is not None and self.games < 1:
            raise ValueError(f"the number of games must be at least 1, not {self.games}")

    @property
    def needs_lobby(self) -> bool:
        """Whether the bot must follow the lobby (to see open seeks)."""
        return self.accept_open


@dataclass
class SeekBook:
    """What a bot has under way, checked against its :class:`Plan`."""

    plan: Plan
    """The plan to keep to."""
    me: str
    """The bot's name."""
    asked: set[str | int] = field(default_factory=set)
    """Ids of ``seek`` messages not answered yet."""
    listed: set[str] = field(default_factory=set)
    """Ids of this bot's seeks the server lists."""
    accepting: dict[str | int, str] = field(default_factory=dict)
    """Seeks of others being accepted: the ``accept_seek`` id and the seek id."""
    started: set[str] = field(default_factory=set)
    """Rooms of every game this bot has played or is playing."""
    running: set[str] = field(default_factory=set)
    """Rooms of the games being played now."""
    ended: int = 0
    """Games that have ended."""

    @property
    def pending(self) -> int:
        """Seeks that may still start a game."""
        return len(self.asked) + len(self.listed) + len(self.accepting)

    def room_slots(self) -> int:
        """How many more games may be started or sought now."""
        slots = self.plan.parallel - len(self.running) - self.pending
        if self.plan.games is not None:
            slots = min(slots, self.plan.games - len(self.started) - self.pending)
        return max(0, slots)

    @property
    def finished(self) -> bool:
        """Whether every game of the plan has been played."""
        return self.plan.games is not None and self.ended >= self.plan.games and not self.running

    def seeks_to_post(self, make_id: Callable[[], str]) -> list[Seek]:
        """The ``seek`` messages to send now to fill the free slots, recorded as asked."""
        terms = self.plan.seek
        if terms is None:
            return []
        seeks = []
        for _ in range(self.room_slots()):
            seek_id = make_id()
            self.asked.add(seek_id)
            seeks.append(Seek(id=seek_id, **terms.model_dump()))
        return seeks

    def wants(self, seek: SeekInfo) -> bool:
        """Whether the plan accepts ``seek`` (before asking the bot), with a free slot."""
        if seek.author == self.me or seek.seek_id in self.accepting.values():
            return False
        opponent = seek.opponent
        if isinstance(opponent, NamedOpponent):
            wanted = opponent.name == self.me and self.plan.accept_challenges
        else:
            wanted = isinstance(opponent, AnyOpponent) and self.plan.accept_open
        if self.plan.only_game is not None and seek.game != self.plan.only_game:
            wanted = False
        return wanted and self.room_slots() > 0

    def game_started(self, room_id: str, reply_to: str | int | None) -> bool:
        """Note a new game; ``False`` if it was already known."""
        if reply_to is not None:
            self.asked.discard(reply_to)
            self.accepting.pop(reply_to, None)
        if room_id in self.started:
            return False
        self.started.add(room_id)
        self.running.add(room_id)
        return True

    def game_ended(self, room_id: str) -> None:
        """Note the end of a game."""
        if room_id in self.running:
            self.running.discard(room_id)
            self.ended += 1

    def seek_listed(self, seek: SeekInfo, reply_to: str | int | None) -> None:
        """The server lists one of this bot's seeks."""
        if reply_to in self.asked:
            assert reply_to is not None
            self.asked.discard(reply_to)
            self.listed.add(seek.seek_id)

    def seek_gone(self, seek_id: str) -> None:
        """A seek left the lobby (accepted, cancelled or expired)."""
        self.listed.discard(seek_id)
        for request, wanted in list(self.accepting.items()):
            if wanted == seek_id:
                del self.accepting[request]

    def refused(self, reply_to: str | int) -> bool:
        """The server refused a ``seek`` or ``accept_seek``; ``True`` if it was one of these."""
        if reply_to in self.asked:
            self.asked.discard(reply_to)
            return True
        return self.accepting.pop(reply_to, None) is not None

    def link_lost(self) -> None:
        """The server drops a disconnected player's seeks: forget them all."""
        self.asked.clear()
        self.listed.clear()
        self.accepting.clear()


def parse_opponent(text: str) -> Opponent:
    """The opponent a short text names: ``anyone``, ``ai:LEVEL`` or ``player:NAME``."""
    kind, _, rest = text.strip().partition(":")
    if kind == "anyone" and not rest:
        return AnyOpponent()
    if kind == "ai":
        level = int(rest) if rest.isdigit() else None
        if rest and level is None:
            raise ValueError(f"an AI level is a whole number, not {rest!r}")
        return AiOpponent() if level is None else AiOpponent(level=level)
    if kind == "player" and rest:
        return NamedOpponent(name=rest)
    raise ValueError(f"unknown opponent {text!r}: use anyone, ai:LEVEL or player:NAME")


def parse_time_control(text: str) -> TimeControl:
    """The time control a short text names: ``untimed``, ``move:SECONDS`` (a limit for
    every move) or ``fischer:SECONDS+INCREMENT`` (a game clock with an increment)."""
    kind, _, rest = text.strip().partition(":")
    try:
        if kind == "untimed" and not rest:
            return Untimed()
        if kind == "move":
            return PerMove(move_ms=_millis(rest))
        if kind == "fischer":
            initial, _, increment = rest.partition("+")
            return Fischer(initial_ms=_millis(initial), increment_ms=_millis(increment or "0"))
    except (ValueError, ValidationError) as error:
        raise ValueError(f"bad time control {text!r}: {error}") from None
    raise ValueError(
        f"unknown time control {text!r}: use untimed, move:SECONDS or fischer:SECONDS+INCREMENT"
    )


def seed_time_control(game: str, options: Mapping[str, object]) -> TimeControl:
    """The standard per-move limit for a game: 5 s, 10 s for Lines of Action, N/5 s for Connect
    Five on N cells."""
    return PerMove(move_ms=round(move_budget(load_game(game, **options)) * 1000))


def _millis(seconds: str) -> int:
    """Milliseconds in a number of seconds written as text."""
    return round(float(seconds) * 1000)

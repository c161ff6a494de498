"""What a game declares about itself besides its rules.

A game class lists its options (:class:`OptionSpec`), the rated ladder pools it offers
by default (:class:`LadderPool`), its notation and its endings in sentences, and its move
budget. The server, the clients, the ladder and the commands read these declarations,
so none of them names a game.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Final

OptionValue = bool | int | str
"""The value of a game option: a boolean, a whole number or a short text."""

DEFAULT_MAX_PLIES: Final = 400
"""Plies after which a game that has not ended is drawn (the ``max_plies`` option)."""

MAX_PLIES_LIMIT: Final = 2_000
"""The longest game a server will host, in plies."""

_KINDS: Final[dict[type, str]] = {bool: "true or false", int: "a whole number", str: "text"}

_TRUE_WORDS: Final = frozenset({"true", "yes", "on", "1"})
_FALSE_WORDS: Final = frozenset({"false", "no", "off", "0"})


@dataclass(frozen=True, slots=True)
class OptionSpec:
    """One option a game takes: its name, kind (from the default), allowed values and help."""

    name: str
    """The keyword the game's constructor takes (``size``)."""
    default: OptionValue
    """Its value when left out; its type is the option's type."""
    help: str
    """What it changes, in a sentence for people."""
    choices: tuple[OptionValue, ...] = ()
    """The values allowed, when they are a short list."""
    minimum: int | None = None
    """The smallest whole number allowed, for a range."""
    maximum: int | None = None
    """The largest whole number allowed, for a range."""

    @property
    def kind(self) -> str:
        """The option's type in words: ``a whole number``, ``text``, ``true or false``."""
        return _KINDS[type(self.default)]

    def read(self, text: str) -> OptionValue:
        """The value ``text`` (from a command line) stands for; ``ValueError`` if none."""
        word = text.strip()
        if isinstance(self.default, bool):
            if word.lower() in _TRUE_WORDS | _FALSE_WORDS:
                return word.lower() in _TRUE_WORDS
        elif isinstance(self.default, int):
            try:
                return int(word)
            except ValueError:
                pass
        else:
            return word
        raise ValueError(f"option {self.name!r} takes {self.kind}, not {text!r}")

    def check(self, value: object) -> None:
        """Raise ``ValueError`` with a sentence unless ``value`` is allowed for this option."""
        if type(value) is not type(self.default):
            raise ValueError(f"option {self.name!r} takes {self.kind}, not {value!r}")
        if self.choices and value not in self.choices:
            allowed = ", ".join(str(choice) for choice in self.choices)
            raise ValueError(f"option {self.name!r} is one of {allowed}, not {value!r}")
        if isinstance(value, int) and not isinstance(value, bool):
            if self.minimum is not None and value < self.minimum:
                raise ValueError(f"option {self.name!r} is at least {self.minimum}, not {value}")
            if self.maximum is not None and value > self.maximum:
                raise ValueError(f"option {self.name!r} is at most {self.maximum}, not {value}")

    def describe(self) -> str:
        """The allowed values in words: ``5 to 19``, ``one of 5, 6, 8``, ``text``."""
        if self.choices:
            return "one of " + ", ".join(str(choice) for choice in self.choices)
        if self.minimum is not None and self.maximum is not None:
            return f"{self.minimum} to {self.maximum}"
        return self.kind


MAX_PLIES_OPTION: Final = OptionSpec(
    name="max_plies",
    default=DEFAULT_MAX_PLIES,
    help="moves after which an unfinished game is drawn",
    minimum=10,
    maximum=MAX_PLIES_LIMIT,
)
"""The option every game takes: the ply cap of the endings rule."""


@dataclass(frozen=True, slots=True)
class LadderPool:
    """A rated ladder pool a game offers by default."""

    pool_id: str
    """The pool's id (``network-5s``)."""
    title: str
    """The pool as people read it (``Network, 5 s a move``)."""
    options: Mapping[str, OptionValue] = field(default_factory=dict)
    """The game's options in the pool; the rest are the defaults."""
    move_ms: int = 5_000
    """Milliseconds a move, the pool's clock."""


COLOUR: Final = re.compile(r"#[0-9a-f]{6}")
"""A display colour: ``#`` and six lower-case hexadecimal digits (``#c62828``)."""


@dataclass(frozen=True, slots=True)
class Capabilities:
    """What kind of game it is, in the terms of what a server can host.

    The registry compares a game's record with :data:`HOSTED` and refuses, in a sentence,
    a game the server cannot host, so that it never fails in the middle of a match.
    """

    players: int = 2
    """How many sides play."""
    perfect_information: bool = True
    """Whether every player sees the whole position (no hidden hands or pieces)."""
    chance: bool = False
    """Whether dice, shuffles or other chance decide anything."""

    def refusal(self) -> str | None:
        """Why a server cannot host a game with these capabilities, or ``None`` if it can."""
        reasons = []
        if self.players != HOSTED.players:
            reasons.append(f"it has {self.players} players")
        if self.perfect_information != HOSTED.perfect_information:
            reasons.append("it hides information from players")
        if self.chance != HOSTED.chance:
            reasons.append("it has chance moves")
        if not reasons:
            return None
        return (
            " and ".join(reasons)
            + "; Gamut hosts two-player games of perfect information without chance"
        )


HOSTED: Final = Capabilities()
"""The only kind of game Gamut hosts today: two players, perfect information, no chance."""


def check_colours(colours: tuple[str, str] | None) -> None:
    """Raise ``ValueError`` with a sentence unless ``colours`` is ``None`` or two distinct
    colours written ``#rrggbb``."""
    if colours is None:
        return
    if len(colours) != 2 or not all(COLOUR.fullmatch(str(c)) for c in colours):
        raise ValueError(f"colours are two colours written #rrggbb, not {colours!r}")
    if colours[0] == colours[1]:
        raise ValueError(f"the two sides' colours must differ, not both {colours[0]}")


def check_options(specs: tuple[OptionSpec, ...], values: Mapping[str, object]) -> None:
    """Raise ``ValueError`` with a sentence unless every value is of a declared option and
    allowed by its declaration."""
    known = {spec.name: spec for spec in specs}
    for name, value in values.items():
        spec = known.get(name)
        if spec is None:
            allowed = ", ".join(known) or "none"
            raise ValueError(f"there is no option {name!r}; the options are {allowed}")
        spec.check(value)


ENGINE_ENDINGS: Final[Mapping[str, str]] = {
    "repetition": "the same position came three times: a draw",
    "move_cap": "the game reached its move limit: a draw",
}
"""The endings the engine's rule gives every game, in sentences."""


def ending_sentence(
    endings: Mapping[str, str], sides: tuple[str, str], winner: int | None, reason: str
) -> str:
    """How a game ended, in a sentence starting with a capital: the game's own sentence
    for ``reason`` (or the engine's), with the side names filled in."""
    template = {**endings, **ENGINE_ENDINGS}.get(reason)
    if template is None:
        verdict = "a draw" if winner is None else "{winner} wins"
        template = f"{verdict} ({reason.replace('_', ' ')})"
    if winner is None:
        text = template if "{" not in template else f"a draw ({reason.replace('_', ' ')})"
    else:
        text = template.format(winner=sides[winner], loser=sides[1 - winner])
    return text[:1].upper() + text[1:]

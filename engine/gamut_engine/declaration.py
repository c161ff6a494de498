"""What a game declares about itself besides its rules.

A game class lists its options (:class:`OptionSpec`), the rated ladder pools it offers
by default (:class:`LadderPool`), its notation and its endings in sentences, and its move
budget. The server, the clients, the ladder and the commands read these declarations,
so none of them names a game.
"""

from __future__ import annotations

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


ENGINE_ENDINGS: Final[Mapping[str, str]] = {
    "repetition": "the same position came three times: a draw",
    "move_cap": "the game reached its move limit: a draw",
}
"""The endings the engine's rule gives every game, in sentences."""

"""Running the conformance checks over a game's variants: cases, and a report for people."""

from __future__ import annotations

import traceback
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Final

from gamut_engine.declaration import OptionSpec, OptionValue
from gamut_engine.registry import GAMES, load_game
from gamut_engine.testing.checks import CHECKS, SEEDED, ConformanceError

PLAYOUTS: Final = 6
"""Random playouts (seeds) each seeded check runs per variant."""


def option_values(spec: OptionSpec) -> list[OptionValue]:
    """The values of an option the kit tries: its choices, or its range's ends and default."""
    if spec.choices:
        return list(spec.choices)
    ends = [value for value in (spec.minimum, spec.default, spec.maximum) if value is not None]
    return list(dict.fromkeys(ends))


def variants(name: str) -> list[dict[str, OptionValue]]:
    """The game's defaults, then each declared option varied alone (``max_plies`` aside)."""
    game_class = GAMES[name]
    return [{}] + [
        {spec.name: value}
        for spec in game_class.option_specs
        for value in option_values(spec)
        if value != spec.default
    ]


@dataclass(frozen=True, slots=True)
class Case:
    """One check of one variant of a game with one seed."""

    game: str
    """The game's registry name."""
    options: Mapping[str, OptionValue]
    """The variant's options (the rest at their defaults)."""
    check: str
    """The check's name, a key of :data:`~gamut_engine.testing.CHECKS`."""
    seed: int = 0
    """The seed of the check's random playout."""

    def __str__(self) -> str:
        words = [self.game, *(f"{k}={v}" for k, v in self.options.items()), self.check]
        return "-".join(words + ([str(self.seed)] if self.check in SEEDED else []))

    def run(self) -> None:
        """Run the check; :class:`ConformanceError` (an ``AssertionError``) if it fails."""
        CHECKS[self.check](load_game(self.game, **self.options), self.seed)


def cases(name: str, playouts: int = PLAYOUTS) -> list[Case]:
    """Every check of every variant of the game called ``name``."""
    return [
        Case(name, options, check, seed)
        for options in variants(name)
        for check in CHECKS
        for seed in (range(playouts) if check in SEEDED else (0,))
    ]


@dataclass(frozen=True, slots=True)
class Failure:
    """A case that failed, and why."""

    case: Case
    """The case."""
    message: str
    """What broke, in a sentence (or the error that escaped the game's code)."""


@dataclass
class Report:
    """The outcome of every case run."""

    game: str
    """The game's registry name."""
    ran: int = 0
    """How many cases ran."""
    failures: list[Failure] = field(default_factory=list)
    """The cases that failed."""

    @property
    def passed(self) -> bool:
        """Whether every case passed."""
        return not self.failures

    def text(self) -> str:
        """The report as lines for people: each failure, then the count."""
        lines = [f"FAIL {failure.case}: {failure.message}" for failure in self.failures]
        verdict = "conforms" if self.passed else f"fails {len(self.failures)}"
        lines.append(f"{self.game}: {verdict} ({self.ran} cases)")
        return "\n".join(lines)


def check_game(name: str, playouts: int = PLAYOUTS) -> Report:
    """Run every case for the game called ``name``; a failure never stops the others."""
    report = Report(name)
    for case in cases(name, playouts):
        report.ran += 1
        try:
            case.run()
        except ConformanceError as error:
            report.failures.append(Failure(case, str(error)))
        except Exception as error:  # an author's bug: reported, never fatal to the run
            where = traceback.extract_tb(error.__traceback__)[-1]
            place = f"{where.filename}:{where.lineno}"
            report.failures.append(Failure(case, f"{type(error).__name__}: {error} ({place})"))
    return report

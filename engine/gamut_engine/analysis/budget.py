"""How much work the analysis spends on each position: counted, not timed.

An analysis must give the same answer wherever and whenever it runs, so its budget is
counted in units of work: readings of a
:class:`~gamut_engine.search.work.WorkClock`, about one a node of the alpha-beta search
and of the game's threat solver together. Wall-clock seconds only cap it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

DEFAULT_WORK: Final = 10_000
"""Units of work a position gets unless the caller says otherwise: some 10,000 nodes."""

DEFAULT_SECONDS: Final = 10.0
"""Wall-clock seconds after which a position's search stops whatever its work."""


@dataclass(frozen=True, slots=True)
class Budget:
    """The work each position may take, and the seconds that cap it."""

    work: int = DEFAULT_WORK
    """Clock readings (about one a node of either search) the position may take."""
    seconds: float = DEFAULT_SECONDS
    """Wall-clock seconds after which the position's search stops, whatever the work."""

    def __post_init__(self) -> None:
        if self.work < 100:
            raise ValueError(f"a position needs at least 100 units of work, not {self.work}")
        if not self.seconds > 0:
            raise ValueError(f"the time cap must be positive, not {self.seconds}")

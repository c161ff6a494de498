"""A server's settings for analyses: workers, work a position, limits."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from gamut_engine.analysis.budget import DEFAULT_SECONDS, DEFAULT_WORK
from gamut_server.ai.analysis_worker import ANALYSIS_NICE
from gamut_server.analyses.allowance import ACCOUNT_RATE, ADDRESS_RATE
from gamut_server.rooms.limits import Rate

MAX_PLIES: Final = 400
"""The longest game analysed by default, in plies (a game's default cap)."""


@dataclass(frozen=True, slots=True)
class AnalysisRules:
    """How a server analyses games."""

    workers: int = 1
    """Analysis worker processes: games analysed at once (0: no analyses)."""
    nice: int = ANALYSIS_NICE
    """How far below the server's the workers' CPU priority is (the most Unix allows)."""
    work: int = DEFAULT_WORK
    """Units of work each position gets (about one a node searched)."""
    seconds: float = DEFAULT_SECONDS
    """Wall-clock seconds after which a position's search stops, whatever its work."""
    max_plies: int = MAX_PLIES
    """The longest game analysed."""
    queue: int = 32
    """Most analyses waiting or under way on this server at once."""
    per_address: Rate = ADDRESS_RATE
    """New analyses one address may ask for."""
    per_account: Rate = ACCOUNT_RATE
    """New analyses one account may ask for."""
    heartbeat_s: float = 10.0
    """Seconds between two renewals of this server's analyses in storage (with their progress)."""
    stale_s: float = 120.0
    """Seconds without a renewal after which an unfinished analysis is taken over."""

"""Game-tree search over the :class:`~gamut_engine.core.Game` interface, and the AI's levels.

Negamax alpha-beta with iterative deepening, a transposition table and move ordering,
written once for every game; each game supplies its evaluation and move order.
"""

from gamut_engine.search.alphabeta import Searcher, iterate, search
from gamut_engine.search.levels import (
    DEFAULT_LEVEL,
    LEVELS,
    Level,
    get_level,
    level_limits,
    level_noise,
    move_budget,
    search_level,
)
from gamut_engine.search.minimax import minimax, minimax_values
from gamut_engine.search.result import Limits, Result, Stats
from gamut_engine.search.scores import WIN, describe_score, is_decisive
from gamut_engine.search.trace import SearchTrace

__all__ = [
    "DEFAULT_LEVEL",
    "LEVELS",
    "WIN",
    "Level",
    "Limits",
    "Result",
    "SearchTrace",
    "Searcher",
    "Stats",
    "describe_score",
    "get_level",
    "is_decisive",
    "iterate",
    "level_limits",
    "level_noise",
    "minimax",
    "minimax_values",
    "move_budget",
    "search",
    "search_level",
]

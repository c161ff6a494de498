"""The conformance kit: checks any game package runs against its own game.

Gamut's server, search and clients rely on the contract of :class:`~gamut_engine.Game`
(legal moves that apply, notation that reads back, encodings that decode, keys that
follow positions, endings declared in sentences). These checks prove it for a registered
game over every variant its declaration names, through random playouts, and compare
:func:`~gamut_engine.perft` with the counts the game declares.

An author runs them with ``gamut check-game NAME``, or from their own tests::

    import pytest
    from gamut_engine.testing import cases

    @pytest.mark.parametrize("case", cases("mygame"), ids=str)
    def test_conformance(case):
        case.run()

Pure Python, no test framework needed: a failed check raises :class:`ConformanceError`
(an ``AssertionError``) with a sentence saying what broke.
"""

from gamut_engine.testing.checks import CHECKS, Check, ConformanceError
from gamut_engine.testing.kit import Case, Failure, Report, cases, check_game, variants

__all__ = [
    "CHECKS",
    "Case",
    "Check",
    "ConformanceError",
    "Failure",
    "Report",
    "cases",
    "check_game",
    "variants",
]

"""The original player interfaces as thin adapters over Gamut's games and search.

- :class:`~gamut_engine.adapters.network_machine.MachinePlayer`: the CS 61B (2014)
  Network project's machine player (``choose_move``, ``opponent_move``, ``force_move``).
- :func:`~gamut_engine.adapters.connect5_move.choose_seed_move`: the Comp 210 single-move
  Connect Five program (a board in, ``(col row)`` out), behind ``gamut move connect5``.
- :func:`~gamut_engine.adapters.crusher_function.crusher`: the CS 2360 Crusher project's
  ``crusher(history, side, depth, trace, n)``, behind ``gamut crusher``.
"""

from gamut_engine.adapters.connect5_move import choose_seed_move
from gamut_engine.adapters.crusher_function import crusher, read_history
from gamut_engine.adapters.network_machine import MachinePlayer

__all__ = ["MachinePlayer", "choose_seed_move", "crusher", "read_history"]

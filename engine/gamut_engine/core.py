"""The one interface every game implements.

The server referees with it, the search explores it and the clients draw with it,
so none of them ever needs to know which game it is handling. A game is a
stateless rules object; positions are immutable, hashable state values that the
game creates and transforms.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Hashable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar, Generic, TypeVar

from gamut_engine.declaration import (
    DEFAULT_MAX_PLIES,
    MAX_PLIES_OPTION,
    Capabilities,
    LadderPool,
    OptionSpec,
    ending_sentence,
)
from gamut_engine.declaration import check_options as check_declared
from gamut_engine.geometry import Geometry

if TYPE_CHECKING:
    from gamut_engine.compiled import CompiledSearch

__all__ = [
    "DEFAULT_MAX_PLIES",
    "REPETITION_LIMIT",
    "Capabilities",
    "Game",
    "Geometry",
    "IllegalMoveError",
    "InvalidMoveError",
    "LadderPool",
    "OptionSpec",
    "Outcome",
    "Timer",
]

StateT = TypeVar("StateT", bound=Hashable)
MoveT = TypeVar("MoveT", bound=Hashable)

Timer = tuple[Callable[[], float], float]
"""A monotonic clock in seconds and a deadline on it."""

REPETITION_LIMIT = 3
"""A position (board and side to move) seen this many times ends the game in a draw."""


class InvalidMoveError(ValueError):
    """Text that is not a move in the game's notation at all."""


class IllegalMoveError(ValueError):
    """A well-formed move that the rules forbid in the position it was tried in."""

    def __init__(self, reason: str, message: str) -> None:
        super().__init__(message)
        self.reason = reason
        """Stable machine-readable code, such as ``occupied`` or ``cluster``."""
        self.message = message
        """The rule the move breaks, in a sentence a player understands."""


@dataclass(frozen=True, slots=True)
class Outcome:
    """How a finished game ended."""

    winner: int | None
    """The winning side's index, or ``None`` for a draw."""
    reason: str
    """Stable code for why the game ended: ``network``, ``five``, ``connected``, ``repetition``…"""
    line: tuple[str, ...] = ()
    """Cells of the winning network or line, in order, named in the game's notation."""


class Game(ABC, Generic[StateT, MoveT]):
    """The rules of one game with fixed options (board size, rule set…).

    Side 0 moves first. States are immutable and hashable; no method changes one.
    """

    name: str
    """Registry name, as given to :func:`gamut_engine.load_game`."""
    title: str
    """Name for people, including the options that matter (``Lines of Action 8×8``)."""
    sides: tuple[str, str]
    """Names of side 0 and side 1, as players know them."""
    geometry: Geometry
    """The board's shape, for drawing."""

    option_specs: ClassVar[tuple[OptionSpec, ...]] = ()
    """The options the game takes besides ``max_plies``, which every game takes."""
    notation: ClassVar[str] = "moves are written in the game's own notation"
    """How moves are written, in a sentence for people."""
    endings: ClassVar[Mapping[str, str]] = {}
    """A sentence for each way the game's own rules end it, by :attr:`Outcome.reason`.

    ``{winner}`` and ``{loser}`` stand for side names. The endings every game shares
    (``repetition``, ``move_cap``) are the engine's and need no entry."""
    ladder_pools: ClassVar[tuple[LadderPool, ...]] = ()
    """The rated ladder pools a server offers for the game by default."""
    move_seconds: ClassVar[float] = 5.0
    """Seconds a move at the AI's full strength (see :meth:`move_budget`)."""
    listing_order: ClassVar[int] = 100
    """Where the game comes in lists of games: lower first, then by name."""
    capabilities: ClassVar[Capabilities] = Capabilities()
    """What kind of game it is (players, information, chance); the registry refuses a
    game a server cannot host."""
    colours: ClassVar[tuple[str, str] | None] = None
    """Each side's piece colour, ``#rrggbb``, for the clients to draw; ``None`` leaves
    the choice to them (from the side's name where it names a colour)."""
    perft_counts: ClassVar[tuple[int, ...]] = ()
    """Move paths from the start with the default options at depths 1, 2, 3…, counted
    independently of the code (by hand, or by another program); the conformance kit
    (:mod:`gamut_engine.testing`) compares :func:`~gamut_engine.perft` with them."""
    evaluation_scale: ClassVar[float | None] = None
    """Search-score points that give the side they favour odds of e to 1 (a 73% chance)
    of winning, fitted to self-play results (``bench/analysis_calibration.py``); the
    analysis maps scores to chances with it. ``None``: never measured."""

    @classmethod
    def declared_options(cls) -> tuple[OptionSpec, ...]:
        """Every option the game takes, ``max_plies`` last."""
        return (*cls.option_specs, MAX_PLIES_OPTION)

    @classmethod
    def check_options(cls, **values: object) -> None:
        """Raise ``ValueError`` with a sentence unless every value is allowed by the
        declaration of its option; constructors call it with their keyword arguments."""
        check_declared(cls.declared_options(), values)

    def ending(self, outcome: Outcome) -> str:
        """How the game ended, in a sentence from :attr:`endings` ("Red joins their two
        sides"), or the engine's for the endings every game shares."""
        return ending_sentence(self.endings, self.sides, outcome.winner, outcome.reason)

    def move_budget(self) -> float:
        """Seconds a move at the AI's full strength with these options."""
        return self.move_seconds

    @property
    @abstractmethod
    def options(self) -> Mapping[str, object]:
        """The options that, with :attr:`name`, recreate this game through ``load_game``."""

    @abstractmethod
    def initial_state(self) -> StateT:
        """The position every game starts from."""

    @abstractmethod
    def to_move(self, state: StateT) -> int:
        """The side whose turn it is."""

    @abstractmethod
    def ply(self, state: StateT) -> int:
        """How many moves have been played to reach ``state``."""

    @abstractmethod
    def legal_moves(self, state: StateT) -> list[MoveT]:
        """Every legal move for the side to move, and nothing else; empty once the game is over."""

    @abstractmethod
    def play(self, state: StateT, move: MoveT) -> StateT:
        """The state after ``move``, trusting that it is legal (the search's fast path)."""

    @abstractmethod
    def check_move(self, state: StateT, move: MoveT) -> None:
        """Raise :class:`IllegalMoveError` naming the rule ``move`` breaks in ``state``, if any."""

    def apply(self, state: StateT, move: MoveT) -> StateT:
        """The state after ``move``; raises :class:`IllegalMoveError` if it is not legal."""
        self.check_move(state, move)
        return self.play(state, move)

    @abstractmethod
    def outcome(self, state: StateT) -> Outcome | None:
        """``None`` while the game runs, else how it ended."""

    @abstractmethod
    def parse_move(self, state: StateT, text: str) -> MoveT:
        """Read a move in any notation the game accepts and check that it is legal in ``state``.

        Raises :class:`InvalidMoveError` for text that is no move at all and
        :class:`IllegalMoveError` for a move the rules forbid here.
        """

    @abstractmethod
    def format_move(self, move: MoveT) -> str:
        """The move in the game's canonical notation; :meth:`parse_move` reads it back."""

    @abstractmethod
    def move_cells(self, move: MoveT) -> tuple[str, ...]:
        """The cells a move touches in order: ``(to,)`` to place, ``(from, to)`` to move."""

    @abstractmethod
    def encode(self, state: StateT) -> str:
        """A one-line text of the position and side to move; :meth:`decode` reads it back."""

    @abstractmethod
    def decode(self, text: str) -> StateT:
        """The state an :meth:`encode` text describes (game history is not part of it)."""

    @abstractmethod
    def render(self, state: StateT) -> str:
        """The board as text for a console, several lines, with coordinates."""

    @abstractmethod
    def occupancy(self, state: StateT) -> tuple[int | None, ...]:
        """The side owning each cell (``None`` if empty), in :attr:`Geometry.cells` order."""

    @abstractmethod
    def key(self, state: StateT) -> int:
        """A 64-bit Zobrist key of the board and side to move, for transposition tables."""

    def search_state(self, state: StateT) -> StateT:
        """The same position as the search walks it, from which :meth:`play` keeps it so.

        Defaults to ``state`` itself. A game may add what only its evaluation and move
        order read (Connect Five's threat patterns), so that the rules' positions, in
        rooms and random playouts, never pay for it; the search calls this on its root.
        """
        return state

    def search_moves(self, state: StateT) -> list[MoveT]:
        """The moves the search should try, most promising first.

        Defaults to :meth:`legal_moves`. A game may order them and may leave out moves
        that can never be better than one it keeps (Connect Five's far-away cells),
        but a running game must always keep at least one legal move.
        """
        return self.legal_moves(state)

    def evaluate(self, state: StateT) -> int:
        """Heuristic worth of a running position for the side to move, in |score| < 1,000,000.

        Games override this with their evaluation function; the search calls it at its
        horizon. The base version knows nothing and calls every position even.
        """
        return 0

    def compiled_search(self) -> CompiledSearch[StateT, MoveT] | None:
        """The game's compiled alpha-beta below the root, where it has one built.

        The generic search then runs it for every depth instead of its own node search
        (same results at a fixed depth, many times faster); ``None`` by default.
        """
        return None

    def forced_win(self, state: StateT, timer: Timer) -> tuple[MoveT, int] | None:
        """A move that wins by force for the side to move, and at most how many plies it takes.

        Games with a threat solver (Connect Five) override this; the search asks it
        before deepening and plays the move at once. ``None`` when no win is proven
        before ``timer``'s deadline; the base version proves nothing.
        """
        return None

    def defences(self, state: StateT, moves: list[MoveT], timer: Timer) -> list[MoveT]:
        """Which of ``moves`` stop a forced win the opponent threatens; all of them if none.

        A game with a threat solver narrows the root's moves to these; the base version
        keeps every move.
        """
        return moves

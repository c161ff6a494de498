"""Matches between two players: a series of games with colours alternating, and the score.

The runner is pure: it prints nothing and returns records, so the ``gamut match``
command, the benchmarks and the tests share it. Players are named by spec (``random``,
``ai:5``, ``ai:depth=3``, ``module:Class``; see :func:`gamut_engine.players.parse_player`)
so that games can be played in worker processes, each building its own players.

Game ``i`` gives player A side ``i % 2`` (side 0 moves first). With ``opening_plies``
each pair of games starts from the same position reached by that many random moves,
once with each player on each side, so deterministic players do not replay one game.
With ``openings`` (each a list of moves in the game's notation) pair ``i`` starts
instead from the position after opening ``i`` (cycling through them), so a match can be
played from chosen positions: balanced openings, or positions deep in the game.
Everything random derives from the spec's ``seed``, so a match of players that search by
depth or nodes can be replayed exactly.
"""

from __future__ import annotations

import random
import time
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, TypeAlias

from gamut_engine.match_score import Interval, elo_difference, match_score, wilson_interval
from gamut_engine.match_tally import Tally, search_figures, search_token
from gamut_engine.players import AIPlayer, Player, RandomPlayer, parse_player
from gamut_engine.registry import AnyGame, load_game
from gamut_engine.search.collection import collector_held

__all__ = [
    "GameEnd",
    "GameRecord",
    "MatchPlay",
    "MatchResult",
    "MatchSpec",
    "Tally",
    "iter_match",
    "play_game",
    "play_match_game",
    "random_opening",
    "read_openings",
    "run_match",
    "seeded_player",
    "written_opening",
]

ILLEGAL_MOVE = "illegal_move"
"""The reason a game ends when a player returns a move that is not legal: it loses."""

PLAYER_NAMES = ("A", "B")
"""How a match names its two players."""


@dataclass(frozen=True)
class MatchSpec:
    """What to play: the game, the two players and how many games."""

    game: str
    """Registry name of the game."""
    players: tuple[str, str]
    """Specs of player A and player B."""
    games: int = 2
    """Games to play (an even number gives each player each side equally often)."""
    options: Mapping[str, Any] = field(default_factory=dict)
    """Game options for ``load_game`` (``size``, ``n``, ``rules``, ``max_plies``)."""
    seed: int = 0
    """Root of every random choice: openings, random players and the AI's noise."""
    opening_plies: int = 0
    """Random moves played before the players take over, shared by each pair of games."""
    openings: tuple[tuple[str, ...], ...] = ()
    """Openings written out, each the moves in the game's notation; pair ``i`` of games
    starts after opening ``i`` (cycling). Not together with :attr:`opening_plies`."""
    player_maker: Callable[[str, int], Player] | None = None
    """Builds a player from its spec and seed (picklable, for worker processes); the
    default is :func:`seeded_player`. A player may offer ``start_game(game, state,
    opening)`` and ``end_game(winner, reason)``, called around each game it plays."""

    def __post_init__(self) -> None:
        if self.games < 1:
            raise ValueError(f"a match needs at least one game, not {self.games}")
        if self.opening_plies < 0:
            raise ValueError(f"opening plies cannot be negative, not {self.opening_plies}")
        if self.openings and self.opening_plies:
            raise ValueError("give either random opening plies or written openings, not both")

    def load_game(self) -> AnyGame:
        """The game this match plays (one instance per process)."""
        return _cached_game(self.game, tuple(sorted(self.options.items())))

    def player_seed(self, index: int, player: int) -> int:
        """The seed of ``player`` (0 for A, 1 for B) in game ``index``."""
        return random.Random(f"player:{self.seed}:{index}:{player}").getrandbits(32)

    def opening_seed(self, index: int) -> int:
        """The seed of the opening of game ``index``, shared with its partner game."""
        return random.Random(f"opening:{self.seed}:{index // 2}").getrandbits(32)

    def opening(self, game: AnyGame, index: int) -> tuple[Any, tuple[Any, ...]]:
        """The start of game ``index`` and the moves that led there from the first position."""
        if self.openings:
            return written_opening(game, self.openings[index // 2 % len(self.openings)])
        return random_opening(game, self.opening_plies, self.opening_seed(index))


@dataclass(frozen=True)
class GameRecord:
    """How one game of a match went."""

    index: int
    """Position of the game in the match, from 0."""
    a_side: int
    """The side player A played: 0 (moves first) or 1."""
    winner: int | None
    """The winning player, 0 for A and 1 for B, or ``None`` for a draw."""
    reason: str
    """Why the game ended: the game's outcome code, or ``illegal_move``."""
    moves: tuple[str, ...]
    """Every move in the game's notation, the random opening included."""
    opening_plies: int
    """How many of :attr:`moves` were the random opening."""
    tallies: tuple[Tally, Tally]
    """Move counts, times and search depths of player A and player B."""

    @property
    def plies(self) -> int:
        """Moves played in the game."""
        return len(self.moves)

    @property
    def a_points(self) -> float:
        """Player A's points: 1 for a win, ½ for a draw, 0 for a loss."""
        return 0.5 if self.winner is None else float(self.winner == 0)


@dataclass(frozen=True)
class MatchResult:
    """Every game of a match and the figures drawn from them, for player A."""

    spec: MatchSpec
    """What was played."""
    records: tuple[GameRecord, ...]
    """The games in match order."""
    elapsed: float
    """Wall-clock seconds for the whole match."""

    @property
    def wins(self) -> int:
        """Games player A won."""
        return sum(1 for record in self.records if record.winner == 0)

    @property
    def draws(self) -> int:
        """Games drawn."""
        return sum(1 for record in self.records if record.winner is None)

    @property
    def losses(self) -> int:
        """Games player A lost."""
        return sum(1 for record in self.records if record.winner == 1)

    @property
    def score(self) -> float:
        """Player A's mean points a game."""
        return match_score(self.wins, self.draws, self.losses)

    @property
    def interval(self) -> Interval:
        """The 95% Wilson interval of :attr:`score` (see :mod:`gamut_engine.match_score`)."""
        return wilson_interval(self.wins, self.draws, self.losses)

    @property
    def elo(self) -> float:
        """The Elo difference of A over B that :attr:`score` implies."""
        return elo_difference(self.score)

    @property
    def reasons(self) -> Counter[str]:
        """How many games ended for each reason."""
        return Counter(record.reason for record in self.records)

    def tally(self, player: int) -> Tally:
        """The moves, times and depths of ``player`` (0 for A, 1 for B) over every game."""
        total = Tally()
        for record in self.records:
            total = total.merged(record.tallies[player])
        return total


def random_opening(game: AnyGame, plies: int, seed: int) -> tuple[Any, tuple[Any, ...]]:
    """A running position after ``plies`` random legal moves drawn from ``seed``, and the moves.

    Openings that end the game are drawn again; ``ValueError`` if a hundred in a row do.
    """
    rng = random.Random(seed)
    for _ in range(100):
        state, moves = game.initial_state(), []
        for _ in range(plies):
            if game.outcome(state) is not None:
                break
            move = rng.choice(game.legal_moves(state))
            moves.append(move)
            state = game.play(state, move)
        if game.outcome(state) is None:
            return state, tuple(moves)
    raise ValueError(f"every opening of {plies} random plies ended the game")


def written_opening(game: AnyGame, texts: Sequence[str]) -> tuple[Any, tuple[Any, ...]]:
    """The running position after the moves ``texts`` (the game's notation), and the moves.

    ``ValueError`` (or the game's own move error) if a move is not legal or the game ends.
    """
    state, moves = game.initial_state(), []
    for text in texts:
        if game.outcome(state) is not None:
            break
        move = game.parse_move(state, text)
        moves.append(move)
        state = game.play(state, move)
    if game.outcome(state) is not None:
        raise ValueError(f"the opening {' '.join(texts)} ends the game")
    return state, tuple(moves)


def read_openings(text: str) -> tuple[tuple[str, ...], ...]:
    """Openings from a text: one a line, its moves separated by spaces.

    Blank lines and everything after a ``#`` are left out, so a file may say where its
    openings came from.
    """
    lines = (line.partition("#")[0].split() for line in text.splitlines())
    return tuple(tuple(line) for line in lines if line)


@dataclass(frozen=True)
class GameEnd:
    """How :func:`play_game` ended, told by side rather than by player."""

    winner: int | None
    """The winning side, or ``None`` for a draw."""
    reason: str
    """The game's outcome code, or ``illegal_move``."""
    moves: tuple[str, ...]
    """The moves played, in the game's notation."""
    tallies: tuple[Tally, Tally]
    """The figures of side 0 and side 1."""


def play_game(game: AnyGame, players: Sequence[Player], state: Any) -> GameEnd:
    """Play ``state`` to the end, ``players[side]`` moving for each side.

    A move that is not legal loses the game at once (reason ``illegal_move``).
    """
    tallies = [Tally(), Tally()]
    moves: list[str] = []
    while (outcome := game.outcome(state)) is None:
        side = game.to_move(state)
        player = players[side]
        before = search_token(player)
        with collector_held():  # what the move leaves is collected outside its time
            started = time.perf_counter()
            move = player.choose_move(game, state)
            seconds = time.perf_counter() - started
        if move not in game.legal_moves(state):
            return GameEnd(1 - side, ILLEGAL_MOVE, tuple(moves), (tallies[0], tallies[1]))
        depth, nodes = search_figures(player, before)
        tallies[side] = tallies[side].add(seconds, depth, nodes)
        moves.append(game.format_move(move))
        state = game.play(state, move)
    return GameEnd(outcome.winner, outcome.reason, tuple(moves), (tallies[0], tallies[1]))


def seeded_player(spec: str, seed: int) -> Player:
    """The player ``spec`` names, drawing its random choices from ``seed`` unless it has one."""
    player = parse_player(spec)
    if isinstance(player, RandomPlayer) and player.seed is None:
        return RandomPlayer(seed)
    if isinstance(player, AIPlayer) and player.seed is None:
        # The searcher is built at the first move and takes its seed from here.
        player.seed = seed
    return player


def play_match_game(spec: MatchSpec, index: int) -> GameRecord:
    """Play game ``index`` of the match ``spec``, with fresh players."""
    game = spec.load_game()
    a_side = index % 2
    make = spec.player_maker or seeded_player
    player_a = make(spec.players[0], spec.player_seed(index, 0))
    player_b = make(spec.players[1], spec.player_seed(index, 1))
    by_side = (player_a, player_b) if a_side == 0 else (player_b, player_a)
    start, opening = spec.opening(game, index)
    for player in by_side:
        if hasattr(player, "start_game"):
            player.start_game(game, start, opening)
    end = GameEnd(None, "aborted", (), (Tally(), Tally()))
    try:
        end = play_game(game, by_side, start)
    finally:
        for player in by_side:
            if hasattr(player, "end_game"):
                player.end_game(end.winner, end.reason)
    winner = None if end.winner is None else int(end.winner != a_side)
    tallies = end.tallies if a_side == 0 else (end.tallies[1], end.tallies[0])
    opening_text = tuple(game.format_move(move) for move in opening)
    return GameRecord(
        index, a_side, winner, end.reason, opening_text + end.moves, len(opening), tallies
    )


MatchPlay: TypeAlias = Callable[[MatchSpec], Iterable[GameRecord]]
"""How a match's games are played: :func:`iter_match` plays them one after the other; a
caller that owns worker processes passes its own to :func:`run_match` (``gamut match
--jobs`` plays several at once)."""


def iter_match(spec: MatchSpec) -> Iterator[GameRecord]:
    """Play every game of ``spec`` one after the other, yielding each record as it ends.

    The runner owns no process: each game is :func:`play_match_game`, which a caller may
    run in worker processes of its own (see :data:`MatchPlay`).
    """
    for index in range(spec.games):
        yield play_match_game(spec, index)


def run_match(
    spec: MatchSpec,
    on_game: Callable[[GameRecord], None] | None = None,
    play: MatchPlay = iter_match,
) -> MatchResult:
    """Play the match ``spec`` and return every game; ``on_game`` hears of each as it ends.

    ``play`` plays the games (by default here, one after the other), in any order.
    """
    started = time.perf_counter()
    records = []
    for record in play(spec):
        records.append(record)
        if on_game is not None:
            on_game(record)
    records.sort(key=lambda record: record.index)
    return MatchResult(spec, tuple(records), time.perf_counter() - started)


@lru_cache(maxsize=8)
def _cached_game(name: str, options: tuple[tuple[str, Any], ...]) -> AnyGame:
    return load_game(name, **dict(options))

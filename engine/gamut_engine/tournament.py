"""Tournaments between several players on one machine: round robins and gauntlets.

Pure like :mod:`gamut_engine.match`: it prints nothing and owns no process. A round robin
meets every pair of players in every round; a gauntlet meets the first player with each
of the others. In each meeting the pair plays two games from the same start, once with
each colour, so a side's advantage cancels out. Every meeting of a round starts from the
round's opening (opening ``r`` of the written ones, cycling, or a random opening drawn
from the round's seed), so every player is tested on the same positions.

Each game is one :class:`Pairing`, played by :func:`play_pairing` as game 0 or 1 of a
two-game :class:`~gamut_engine.match.MatchSpec`, so the players, openings and seeds
behave exactly as in ``gamut match``; a pairing's :attr:`Pairing.key` names it in a
results file, so an interrupted tournament can be resumed game by game.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from itertools import combinations
from typing import Any

from gamut_engine.match import MatchSpec, play_match_game, random_opening
from gamut_engine.players import Player
from gamut_engine.registry import AnyGame, load_game

__all__ = ["Outcome", "Pairing", "TournamentSpec", "play_pairing", "schedule"]


@dataclass(frozen=True)
class TournamentSpec:
    """What to play: the game, the players and how many rounds."""

    game: str
    """Registry name of the game."""
    players: tuple[str, ...]
    """Every player's spec, as ``gamut match`` takes them; no two alike."""
    rounds: int = 1
    """Rounds: in each, every pair meets twice, once with each colour."""
    options: Mapping[str, Any] = field(default_factory=dict)
    """Game options for ``load_game``."""
    seed: int = 0
    """Root of every random choice."""
    gauntlet: bool = False
    """Meet the first player with each of the others only, rather than every pair."""
    opening_plies: int = 0
    """Random plies opening each round (shared by all its games), if no written openings."""
    openings: tuple[tuple[str, ...], ...] = ()
    """Written openings; round ``r`` starts from opening ``r`` (cycling)."""
    player_maker: Callable[[str, int], Player] | None = None
    """Builds a player from its spec and seed (picklable); as :class:`MatchSpec` takes."""

    def __post_init__(self) -> None:
        if len(self.players) < 2:
            raise ValueError("a tournament needs at least two players")
        if len(set(self.players)) != len(self.players):
            raise ValueError("each player may enter only once")
        if self.rounds < 1:
            raise ValueError(f"a tournament needs at least one round, not {self.rounds}")
        if self.openings and self.opening_plies:
            raise ValueError("give either random opening plies or written openings, not both")
        if self.opening_plies < 0:
            raise ValueError(f"opening plies cannot be negative, not {self.opening_plies}")

    def meetings(self) -> list[tuple[int, int]]:
        """The pairs of players (by index) that meet in each round."""
        if self.gauntlet:
            return [(0, other) for other in range(1, len(self.players))]
        return list(combinations(range(len(self.players)), 2))

    def round_opening(self, game: AnyGame, round_: int) -> tuple[str, ...]:
        """The moves opening every game of round ``round_`` (none without openings)."""
        if self.openings:
            return self.openings[round_ % len(self.openings)]
        if not self.opening_plies:
            return ()
        seed = random.Random(f"round:{self.seed}:{round_}").getrandbits(32)
        _, moves = random_opening(game, self.opening_plies, seed)
        return tuple(game.format_move(move) for move in moves)

    def describe(self) -> dict[str, Any]:
        """What identifies the tournament in a results file, as plain data."""
        return {
            "game": self.game,
            "options": dict(sorted(self.options.items())),
            "players": list(self.players),
            "rounds": self.rounds,
            "gauntlet": self.gauntlet,
            "seed": self.seed,
            "opening_plies": self.opening_plies,
            "openings": [list(opening) for opening in self.openings],
        }


@dataclass(frozen=True)
class Pairing:
    """One game of a tournament: who plays first, who second, in which round."""

    round: int
    """The round, from 0."""
    a: int
    """The meeting's first player (by index), who moves first in leg 0."""
    b: int
    """The meeting's second player, who moves first in leg 1."""
    leg: int
    """0 or 1: which of the meeting's two games."""

    @property
    def key(self) -> str:
        """The game's name in a results file: ``r<round>-<a>-<b>-<leg>``."""
        return f"r{self.round}-{self.a}-{self.b}-{self.leg}"

    @property
    def first(self) -> int:
        """The player (by index) that moves first."""
        return self.a if self.leg == 0 else self.b

    @property
    def second(self) -> int:
        """The player that moves second."""
        return self.b if self.leg == 0 else self.a


@dataclass(frozen=True)
class Outcome:
    """How one game of a tournament ended."""

    pairing: Pairing
    """Which game."""
    winner: int | None
    """The winning player (by index), or ``None`` for a draw."""
    reason: str
    """The game's outcome code, or ``illegal_move``."""
    moves: tuple[str, ...]
    """Every move, the opening's included, in the game's notation."""
    opening_plies: int
    """How many of :attr:`moves` were the opening."""

    def points(self, player: int) -> float:
        """What ``player`` scored in this game: 1, ½ or 0."""
        if self.winner is None:
            return 0.5
        return float(self.winner == player)


def schedule(spec: TournamentSpec) -> list[Pairing]:
    """Every game of ``spec``, round by round, each meeting's two legs together."""
    return [
        Pairing(round_, a, b, leg)
        for round_ in range(spec.rounds)
        for a, b in spec.meetings()
        for leg in (0, 1)
    ]


def meeting_spec(spec: TournamentSpec, pairing: Pairing, game: AnyGame) -> MatchSpec:
    """The two-game match whose game ``pairing.leg`` is this pairing's game."""
    seed = random.Random(f"meeting:{spec.seed}:{pairing.round}:{pairing.a}:{pairing.b}")
    opening = spec.round_opening(game, pairing.round)
    return MatchSpec(
        game=spec.game,
        players=(spec.players[pairing.a], spec.players[pairing.b]),
        games=2,
        options=spec.options,
        seed=seed.getrandbits(32),
        openings=(opening,) if opening else (),
        player_maker=spec.player_maker,
    )


def play_pairing(spec: TournamentSpec, pairing: Pairing) -> Outcome:
    """Play the game ``pairing`` of ``spec`` with fresh players (in any process)."""
    game = load_game(spec.game, **dict(spec.options))
    record = play_match_game(meeting_spec(spec, pairing, game), pairing.leg)
    winner = None
    if record.winner is not None:
        winner = pairing.a if record.winner == 0 else pairing.b
    return Outcome(pairing, winner, record.reason, record.moves, record.opening_plies)

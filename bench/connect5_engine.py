"""Connect Five against an outside Gomocup engine: results, and the wins the engine concedes.

Plays ``--games`` games on 15×15 (colours alternating, no random opening) between a
Gomocup engine (``gomocup:COMMAND``, through the same bridge ``gamut match`` uses) and
one of Gamut's players (``ai:time=1`` by default, or ``line:…`` for an older version
through ``bench/line_ai.py``), both told ``--move-time`` seconds a move. Strong
engines print their evaluation on ``MESSAGE`` lines (Rapfi: ``Eval -M23`` when it
sees itself mated in 23 plies); the bench reads them and reports, for every game in
which the engine announced a forced loss for itself, the first such ply and whether
Gamut went on to win. Each game goes to ``--out`` as a JSON line (moves, winner, the
engine's evaluations), and with ``--positions`` the position after each first
concession (Gamut to move) is written in the game's ``encode`` text, to try as a
puzzle::

    python bench/connect5_engine.py 'gomocup:/path/to/pbrain-rapfi' --games 4
"""

from __future__ import annotations

import argparse
import json
import logging
import re
from functools import partial
from pathlib import Path
from typing import Any

from gamut_client.bots.offline import match_player
from gamut_engine import load_game
from gamut_engine.match import GameRecord, MatchSpec, iter_match
from gamut_engine.match_score import match_score, wilson_interval
from gamut_engine.players import Player

ENGINE_LOG = "gamut_client.bridges.gomocup"
"""The logger the Gomocup bridge writes the engine's ``MESSAGE`` lines to."""

_EVAL = re.compile(r"\bEval\s+([+-]?)(M?)(\d+)")
"""Rapfi's evaluation: ``Eval +35``, ``Eval -M23`` (mated in 23 plies), ``Eval +M7``."""


class EngineLog(logging.Handler):
    """Collects the engine's chatter, each line tagged with the ply it was thinking about."""

    def __init__(self) -> None:
        super().__init__()
        self.ply = 0
        """The ply of the move the engine is choosing now."""
        self.lines: list[tuple[int, str]] = []
        """Every line so far, with its ply."""

    def emit(self, record: logging.LogRecord) -> None:
        """Keep the line with the current ply."""
        self.lines.append((self.ply, record.getMessage()))


class Listened:
    """A player whose every move first tells the log which ply is being chosen."""

    def __init__(self, player: Player, listener: EngineLog) -> None:
        self.player = player
        self.listener = listener

    def start_game(self, game: Any, state: Any, opening: tuple[Any, ...]) -> None:
        """Pass the start on to the player."""
        getattr(self.player, "start_game", lambda *_: None)(game, state, opening)

    def end_game(self, winner: int | None, reason: str) -> None:
        """Pass the end on to the player."""
        getattr(self.player, "end_game", lambda *_: None)(winner, reason)

    def choose_move(self, game: Any, state: Any) -> Any:
        """The player's move, its chatter tagged with this ply."""
        self.listener.ply = game.ply(state)
        return self.player.choose_move(game, state)


def engine_score(text: str) -> int | None:
    """The engine's evaluation for itself on a ``MESSAGE`` line: mates as ±(100000 - plies)."""
    found = _EVAL.search(text)
    if found is None:
        return None
    sign, mate, number = found.groups()
    value = 100_000 - int(number) if mate else int(number)
    return -value if sign == "-" else value


def conceded_mate(score: int | None) -> bool:
    """Whether an evaluation is the engine seeing itself mated."""
    return score is not None and score <= -90_000


def make_player(spec: str, seed: int, *, engine: str, move_time: float, log: EngineLog) -> Any:
    """``match_player``, the engine's player listened to."""
    player = match_player(spec, seed, move_seconds=move_time)
    return Listened(player, log) if spec == engine else player


def first_concession(evals: dict[int, int | None]) -> int | None:
    """The first ply at whose move the engine saw itself mated, or ``None``."""
    return next((ply for ply, score in sorted(evals.items()) if conceded_mate(score)), None)


def game_evals(lines: list[tuple[int, str]]) -> dict[int, int | None]:
    """The last evaluation the engine printed while choosing each of its moves."""
    evals: dict[int, int | None] = {}
    for ply, text in lines:
        score = engine_score(text)
        if score is not None:
            evals[ply] = score
    return evals


def summary(rows: list[dict[str, Any]]) -> list[str]:
    """Results for Gamut by colour, and the conceded wins it converted."""
    lines = []
    for label, side in (("Gamut first", 0), ("Gamut second", 1), ("all", None)):
        chosen = [row for row in rows if side is None or row["ours_side"] == side]
        if not chosen:
            continue
        wins = sum(row["result"] == "win" for row in chosen)
        draws = sum(row["result"] == "draw" for row in chosen)
        losses = len(chosen) - wins - draws
        conceded = [row for row in chosen if row["conceded_ply"] is not None]
        converted = sum(row["result"] == "win" for row in conceded)
        interval = wilson_interval(wins, draws, losses)
        lines.append(
            f"{label}: {wins}-{draws}-{losses} (Gamut's score "
            f"{match_score(wins, draws, losses):.1%}, "
            f"95% {interval.low:.1%}-{interval.high:.1%}); the engine conceded a forced "
            f"loss in {len(conceded)}, Gamut converted {converted}"
        )
    return lines


def main() -> None:
    """Play the match, print a line a game and the summary."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("engine", help="gomocup:COMMAND")
    parser.add_argument("--ours", default="ai:time=1", help="Gamut's player (ai:time=1)")
    parser.add_argument("--games", type=int, default=2, help="games, colours alternating (2)")
    parser.add_argument("--first", type=int, default=0, help="index of the first game (0)")
    parser.add_argument("--move-time", type=float, default=1.0, help="seconds a move (1)")
    parser.add_argument("--out", type=Path, help="append each game as a JSON line here")
    parser.add_argument("--positions", type=Path, help="append conceded positions here")
    args = parser.parse_args()
    game = load_game("connect5", size=15)
    listener = EngineLog()
    logger = logging.getLogger(ENGINE_LOG)
    logger.setLevel(logging.INFO)
    logger.addHandler(listener)
    rows = []
    for index in range(args.first, args.first + args.games):
        # Even games: Gamut moves first.
        players = (args.ours, args.engine) if index % 2 == 0 else (args.engine, args.ours)
        spec = MatchSpec(
            game="connect5",
            players=players,
            games=1,
            options={"size": 15},
            seed=index,
            player_maker=partial(
                make_player, engine=args.engine, move_time=args.move_time, log=listener
            ),
        )
        listener.lines.clear()
        record = next(iter_match(spec))
        row = game_row(record, index % 2, game_evals(listener.lines))
        rows.append(row)
        print(game_line(index, row), flush=True)
        if args.out is not None:
            with args.out.open("a") as out:
                out.write(json.dumps(row) + "\n")
        if args.positions is not None and row["conceded_ply"] is not None:
            with args.positions.open("a") as out:
                out.write(conceded_position(game, row) + "\n")
    print("\n".join(summary(rows)))


def game_row(record: GameRecord, ours_side: int, evals: dict[int, int | None]) -> dict[str, Any]:
    """One game as a JSON-ready dict; ``ours_side`` 0 when Gamut moved first."""
    # Player A is whoever moved first in this one-game match.
    if record.winner is None:
        result = "draw"
    else:
        result = "win" if (record.winner == 0) == (ours_side == 0) else "loss"
    return {
        "ours_side": ours_side,
        "result": result,
        "reason": record.reason,
        "moves": list(record.moves),
        "evals": {str(ply): score for ply, score in sorted(evals.items())},
        "conceded_ply": first_concession(evals),
    }


def conceded_position(game: Any, row: dict[str, Any]) -> str:
    """The position after the engine's first conceding move, Gamut to move, with the game."""
    ply = row["conceded_ply"]
    state = game.initial_state()
    for text in row["moves"][: ply + 1]:
        state = game.play(state, game.parse_move(state, text))
    return f"{game.encode(state)}\t{ply + 1}\t{row['evals'][str(ply)]}\t{row['result']}"


def game_line(index: int, row: dict[str, Any]) -> str:
    """One game in a line: colour, result, length, and the first concession."""
    colour = "first" if row["ours_side"] == 0 else "second"
    conceded = row["conceded_ply"]
    told = "" if conceded is None else f"; engine saw itself lost from ply {conceded + 1}"
    return (
        f"game {index}: Gamut {colour}, {row['result']} ({row['reason']}, "
        f"{len(row['moves'])} plies){told}"
    )


if __name__ == "__main__":
    main()

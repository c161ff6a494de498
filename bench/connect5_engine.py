"""Connect Five against an outside Gomocup engine: results, and the wins the engine concedes.

Plays ``--games`` games on 15×15 (colours alternating, ``--opening`` seeded random
plies near the centre, none by default) between a Gomocup engine (``gomocup:COMMAND``,
through the same bridge ``gamut match`` uses) and one of Gamut's players
(``ai:time=1`` by default, or ``line:…`` for an older version through
``bench/line_ai.py``), both told ``--move-time`` seconds a move (the bridge keeps half
a second of it back for the network). Strong engines print their evaluation on
``MESSAGE`` lines (Rapfi: ``Eval -M23`` when it sees itself mated in 23 plies); the
bench reads them and reports, for every game in which the engine announced a forced
loss for itself, the first such ply and whether Gamut went on to win. ``--resume``
replays those games up to the concession and plays on from there, so two versions meet
the same conceded positions. Each game goes to ``--out`` as a JSON line (moves, result,
the engine's evaluations), and with ``--positions`` the position after each first
concession (Gamut to move) is written in the game's ``encode`` text, to try as a
puzzle (``bench/connect5_puzzles.py --add-conceded``)::

    python bench/connect5_engine.py 'gomocup:/path/to/pbrain-rapfi' --games 4
"""

from __future__ import annotations

import argparse
import json
import logging
import random
import re
from pathlib import Path
from typing import Any

from gamut_client.bots.offline import match_player
from gamut_engine.games.connect5 import ConnectFiveGame
from gamut_engine.match import GameEnd, play_game
from gamut_engine.match_score import match_score, wilson_interval
from gamut_engine.match_tally import Tally
from gamut_engine.players import Player

GAME = ConnectFiveGame(size=15)
"""The game played: Connect Five 15×15."""

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
        void = sum(row["result"] == "void" for row in chosen)
        chosen = [row for row in chosen if row["result"] != "void"]
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
            + (f"; {void} void (the engine broke the protocol)" if void else "")
        )
    return lines


def main() -> None:
    """Play the match, print a line a game and the summary."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("engine", help="gomocup:COMMAND")
    parser.add_argument("--ours", default="ai:time=1", help="Gamut's player (ai:time=1)")
    parser.add_argument("--games", type=int, default=2, help="games, colours alternating (2)")
    parser.add_argument("--first", type=int, default=0, help="index of the first game (0)")
    parser.add_argument(
        "--side", choices=("both", "first", "second"), default="both", help="Gamut's colour"
    )
    parser.add_argument(
        "--opening",
        type=int,
        default=0,
        metavar="PLIES",
        help="seeded random plies within two cells of the centre opening each pair of games",
    )
    parser.add_argument(
        "--openings",
        type=Path,
        metavar="FILE",
        help="instead of random plies, the openings of FILE (moves separated by spaces, one "
        "opening a line, '#' comments), each pair of games playing the next one",
    )
    parser.add_argument("--move-time", type=float, default=1.0, help="seconds a move (1)")
    parser.add_argument("--out", type=Path, help="append each game as a JSON line here")
    parser.add_argument("--positions", type=Path, help="append conceded positions here")
    parser.add_argument(
        "--resume",
        type=Path,
        metavar="JSONL",
        help="instead, replay each conceded game of this --out file up to the engine's "
        "first conceding move and play on from there, Gamut to move",
    )
    args = parser.parse_args()
    listener = EngineLog()
    logger = logging.getLogger(ENGINE_LOG)
    logger.setLevel(logging.INFO)
    logger.addHandler(listener)
    openings: list[tuple[int, tuple[str, ...]]]
    if args.resume is None:
        colours = {"both": None, "first": 0, "second": 1}[args.side]
        written = None if args.openings is None else read_openings(args.openings)
        openings = [
            (
                index % 2 if colours is None else colours,
                centre_opening(args.opening, index // 2)
                if written is None
                else written[index // 2 % len(written)],
            )
            for index in range(args.first, args.first + args.games)
        ]
    else:
        openings = resumed_openings(args.resume)
    rows = []
    for index, (ours_side, opening) in enumerate(openings, args.first):
        listener.lines.clear()
        row = play_one(args, listener, ours_side, opening)
        rows.append(row)
        print(game_line(index, row), flush=True)
        if args.out is not None:
            with args.out.open("a") as out:
                out.write(json.dumps(row) + "\n")
        if args.positions is not None and row["conceded_ply"] is not None:
            with args.positions.open("a") as out:
                out.write(conceded_position(GAME, row) + "\n")
    print("\n".join(summary(rows)))


def centre_opening(plies: int, seed: int) -> tuple[str, ...]:
    """``plies`` distinct cells within two of the centre, drawn from ``seed``."""
    rng = random.Random(seed)
    cells: list[int] = []
    centre = GAME.size // 2
    while len(cells) < plies:
        cell = (centre + rng.randint(-2, 2)) * GAME.size + centre + rng.randint(-2, 2)
        if cell not in cells:
            cells.append(cell)
    return tuple(GAME.format_move(cell) for cell in cells)


def read_openings(path: Path) -> list[tuple[str, ...]]:
    """The openings of a file: moves separated by spaces, one opening a line."""
    lines = (line.partition("#")[0].split() for line in path.read_text().splitlines())
    return [tuple(moves) for moves in lines if moves]


def resumed_openings(path: Path) -> list[tuple[int, tuple[str, ...]]]:
    """Gamut's side and the moves up to the engine's first concession, of each such game."""
    openings = []
    for text in path.read_text().splitlines():
        row = json.loads(text)
        if row["conceded_ply"] is not None:
            openings.append((row["ours_side"], tuple(row["moves"][: row["conceded_ply"] + 1])))
    return openings


def play_one(
    args: argparse.Namespace, listener: EngineLog, ours_side: int, opening: tuple[str, ...]
) -> dict[str, Any]:
    """One game, Gamut playing ``ours_side``, from the position after ``opening``."""
    state = GAME.initial_state()
    moves = []
    for text in opening:
        move = GAME.parse_move(state, text)
        moves.append(move)
        state = GAME.play(state, move)
    ours = match_player(args.ours, 0, move_seconds=args.move_time)
    engine = Listened(match_player(args.engine, 1, move_seconds=args.move_time), listener)
    players: list[Any] = [engine, engine]
    players[ours_side] = ours
    for player in (ours, engine):
        getattr(player, "start_game", lambda *_: None)(GAME, state, tuple(moves))
    end = GameEnd(None, "aborted", (), (Tally(), Tally()))
    try:
        end = play_game(GAME, players, state)
    finally:
        for player in (ours, engine):
            getattr(player, "end_game", lambda *_: None)(end.winner, end.reason)
    result = "draw" if end.winner is None else "win" if end.winner == ours_side else "loss"
    if end.reason == "illegal_move" and result == "win":
        # The engine gave up on the protocol (Rapfi now and then reads an INFO line's key
        # as a command), not on the board: the game counts for neither side.
        result = "void"
    evals = game_evals(listener.lines)
    conceded = first_concession(evals)
    return {
        "ours_side": ours_side,
        "result": result,
        "reason": end.reason,
        "moves": [*opening, *end.moves],
        "opening": len(opening),
        "evals": {str(ply): score for ply, score in sorted(evals.items())},
        "conceded_ply": conceded,
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

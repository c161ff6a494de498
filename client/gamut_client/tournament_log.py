"""A tournament's results file: one JSON line a game, so a stopped tournament resumes.

The first line describes the tournament (:meth:`TournamentSpec.describe`); each further
line is one finished game: its key, the players, the winner, why it ended and every
move. A line is written and flushed as soon as its game ends, so stopping the
tournament at any moment loses only the games being played; a last line cut off
half-written is dropped when the file is opened again.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from gamut_engine.tournament import Outcome, Pairing, TournamentSpec

__all__ = ["ResultsFile", "read_header"]


def read_header(path: Path) -> dict[str, Any] | None:
    """The tournament a results file describes, or ``None`` if there is no such file."""
    if not path.exists():
        return None
    with path.open(encoding="utf-8") as handle:
        first = handle.readline()
    if not first.endswith("\n"):
        return None
    header = json.loads(first).get("tournament")
    if not isinstance(header, dict):
        raise ValueError(f"{path} is not a tournament's results file")
    return header


class ResultsFile:
    """The results of one tournament, read back and added to game by game."""

    def __init__(
        self, path: Path, spec: TournamentSpec, settings: dict[str, Any] | None = None
    ) -> None:
        """Open (or start) the results of ``spec`` at ``path``; ``ValueError`` if the file
        holds another tournament. ``settings`` (such as the time a move) join the
        description, so a tournament resumes only under the same ones."""
        self.path = path
        self.spec = spec
        self.outcomes: dict[str, Outcome] = {}
        described = {**spec.describe(), **(settings or {})}
        header = read_header(path)
        if header is None:
            path.write_text(json.dumps({"tournament": described}) + "\n", encoding="utf-8")
        elif header != described:
            raise ValueError(
                f"{path} holds the results of another tournament; name another file "
                "with --results, or delete it to start again"
            )
        else:
            self._read()

    def _read(self) -> None:
        text = self.path.read_text(encoding="utf-8")
        complete = text[: text.rfind("\n") + 1]
        if complete != text:  # a line cut off as it was written: drop it
            with self.path.open("r+b") as handle:
                handle.truncate(len(complete.encode("utf-8")))
        for line in complete.splitlines()[1:]:
            outcome = _outcome(json.loads(line))
            self.outcomes[outcome.pairing.key] = outcome

    def add(self, outcome: Outcome) -> None:
        """Write one finished game, on the disk before this returns."""
        self.outcomes[outcome.pairing.key] = outcome
        with self.path.open("a", encoding="utf-8") as handle:
            handle.write(json.dumps(_line(self.spec, outcome)) + "\n")
            handle.flush()
            os.fsync(handle.fileno())


def _line(spec: TournamentSpec, outcome: Outcome) -> dict[str, Any]:
    pairing = outcome.pairing
    return {
        "game": pairing.key,
        "round": pairing.round,
        "a": pairing.a,
        "b": pairing.b,
        "leg": pairing.leg,
        "first": spec.players[pairing.first],
        "second": spec.players[pairing.second],
        "winner": outcome.winner,
        "reason": outcome.reason,
        "opening_plies": outcome.opening_plies,
        "moves": list(outcome.moves),
    }


def _outcome(line: dict[str, Any]) -> Outcome:
    pairing = Pairing(int(line["round"]), int(line["a"]), int(line["b"]), int(line["leg"]))
    winner = line["winner"]
    return Outcome(
        pairing,
        None if winner is None else int(winner),
        str(line["reason"]),
        tuple(str(move) for move in line["moves"]),
        int(line["opening_plies"]),
    )

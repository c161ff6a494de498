"""How far past its time the AI answers, before and after a change, in one run.

Each measurement runs ``bench/overrun_probe.py`` in a fresh process whose
``PYTHONPATH`` puts one source tree first: this checkout's, and with ``--baseline SRC``
another one (a ``git worktree add`` of an earlier commit), interleaved configuration by
configuration so that both see the same load. Each row is two games of ``ai:time=T``
against itself; the pool rows play two games at once through the server's AI pool with
one worker. Used by ``bench/ai.py --parts overruns``.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
PROBE = HERE / "overrun_probe.py"
CURRENT = HERE.parent


@dataclass(frozen=True)
class Game:
    """A game and size to measure."""

    label: str
    name: str
    options: dict[str, Any]


@dataclass(frozen=True)
class Overrun:
    """One game's largest overrun, in seconds."""

    wall: float
    """Past the budget on the wall clock."""
    cpu: float | None
    """The program's own CPU time past the deadline (``None`` where not measured)."""
    gap: float
    """The longest CPU time between two readings of the search's clock."""
    where: str
    """Where the clock was read at the end of that gap."""
    first: float
    """Past the budget on the wall clock, the game's first move (in a fresh process, for
    the first game of a row)."""


def probe(
    source: Path, game: Game, budget: float, *, plies: int, pool: bool = False
) -> list[Overrun]:
    """Two games' largest overruns with the engine (and server) of ``source``."""
    paths = [source / "engine", source / "server", source / "protocol"]
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(str(path) for path in paths))
    command = [sys.executable, str(PROBE), game.name, "--options", json.dumps(game.options)]
    command += ["--budget", f"{budget:g}", "--plies", str(plies), "--games", "2"]
    if pool:
        command.append("--pool")
    output = subprocess.run(command, env=env, check=True, capture_output=True, text=True)
    lines = [json.loads(line) for line in output.stdout.splitlines() if line.startswith("{")]
    return [
        Overrun(row["wall"], row["cpu"], row["gap"], row["where"], row.get("first", 0.0))
        for row in lines
    ]


@dataclass(frozen=True)
class Row:
    """One game and budget, measured with each source tree."""

    label: str
    budget: float
    measured: tuple[list[Overrun], ...]
    """One list per source tree, in the order given."""


def measure(
    sources: list[Path],
    games: list[Game],
    budgets: list[float],
    *,
    plies: int,
    pool_games: list[Game],
) -> list[Row]:
    """Every game at every budget, then the pool rows, each with every source in turn."""
    rows = []
    for game in games:
        for budget in budgets:
            measured = tuple(probe(source, game, budget, plies=plies) for source in sources)
            rows.append(Row(game.label, budget, measured))
            _report(rows[-1])
    for game in pool_games:
        for budget in budgets:
            measured = tuple(
                probe(source, game, budget, plies=plies, pool=True) for source in sources
            )
            rows.append(Row(f"{game.label}, AI pool", budget, measured))
            _report(rows[-1])
    return rows


def _report(row: Row) -> None:
    """One row on standard error as it ends, with where the longest gap ended."""
    for index, games in enumerate(row.measured):
        worst = max(games, key=lambda overrun: overrun.gap)
        print(
            f"{row.label} {row.budget:g} s [{index}]: wall {_cells(games, 'wall')}, "
            f"CPU {_cells(games, 'cpu')}, first {_cells(games, 'first')}; "
            f"longest gap {1000 * worst.gap:.1f} ms {worst.where}",
            file=sys.stderr,
            flush=True,
        )


def table(rows: list[Row], names: list[str]) -> list[str]:
    """The rows as markdown: for each source, the largest wall and CPU overrun of each game
    and the overrun of each game's first move."""
    heads = " | ".join(f"{name}: wall | {name}: CPU | {name}: first" for name in names)
    lines = [f"| game | seconds a move | {heads} |", "| --- | ---: |" + " --- |" * 3 * len(names)]
    for row in rows:
        cells = " | ".join(
            f"{_cells(games, 'wall')} | {_cells(games, 'cpu')} | {_cells(games, 'first')}"
            for games in row.measured
        )
        lines.append(f"| {row.label} | {row.budget:g} | {cells} |")
    return lines


def _cells(games: list[Overrun], field: str) -> str:
    values = [getattr(game, field) for game in games]
    if any(value is None for value in values):
        return "–"
    return ", ".join(f"{1000 * value:.1f}" for value in values) + " ms"

"""An author's path from nothing to a game people play, as docs/games/authoring.md walks it:
``gamut new-game`` writes a package, pip installs it as any package is installed, the
conformance kit and the package's own tests pass, and a real server hosts the game to
two bots, all through the ``gamut.games`` entry point of the installed package alone."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from gamut_engine import ENGINE_ENDINGS, AnyGame, Outcome, load_game
from tests.e2e.served import serve

pytestmark = [pytest.mark.timeout(280), pytest.mark.slow]

GAME_LINE = re.compile(r"^\S+ (.+): (won|lost|drawn) \((\w+)\) as (\S+) in \d+ moves$", re.M)
"""The line a bot prints for each game."""


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, str]]:
    """A new game, Drop Four, written by ``gamut new-game`` and installed by pip into a
    folder of its own; the package's folder and an environment that sees the install."""
    folder = tmp_path_factory.mktemp("author")
    written = run([gamut(), "new-game", "dropfour", "--title", "Drop Four"], cwd=folder)
    assert "wrote gamut-dropfour/gamut_dropfour/game.py" in written.stdout
    site = folder / "site"
    pip = [sys.executable, "-m", "pip", "install", "--quiet", "--no-deps"]
    run([*pip, "--target", str(site), str(folder / "gamut-dropfour")], cwd=folder, timeout=240)
    assert (site / "gamut_dropfour" / "game.py").is_file()
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(site), env.get("PYTHONPATH")]))
    return folder / "gamut-dropfour", env


def gamut() -> str:
    """The ``gamut`` command of this environment."""
    return str(Path(sys.executable).parent / "gamut")


def run(
    command: list[str], *, cwd: Path, env: dict[str, str] | None = None, timeout: float = 120
) -> subprocess.CompletedProcess[str]:
    """Run ``command``; it must succeed."""
    done = subprocess.run(
        command, cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout, check=False
    )
    assert done.returncode == 0, f"{command}\n{done.stdout}\n{done.stderr}"
    return done


def test_the_new_game_passes_the_kit_and_its_own_tests(
    installed: tuple[Path, dict[str, str]],
) -> None:
    package, env = installed
    checked = run([gamut(), "check-game", "dropfour"], cwd=package, env=env)
    assert re.fullmatch(r"dropfour: conforms \(\d+ cases\)\n", checked.stdout)
    own = run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider"], cwd=package, env=env
    )
    assert re.search(r"\d+ passed", own.stdout)


def test_the_new_game_is_played_in_the_console(installed: tuple[Path, dict[str, str]]) -> None:
    package, env = installed
    local = [gamut(), "local", "dropfour", "--humans", "0", "--computer", "random"]
    last = run(local, cwd=package, env=env).stdout.rstrip().splitlines()[-1]
    assert last in (
        "Red lines up a row of stones.",
        "Yellow lines up a row of stones.",
        "The board is full: a draw.",
    )


def test_a_real_server_hosts_the_new_game_to_two_bots(
    installed: tuple[Path, dict[str, str]], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    package, env = installed
    monkeypatch.setenv("PYTHONPATH", env["PYTHONPATH"])
    with serve(tmp_path / "gamut.sqlite3", "--ai-workers", "0") as served:
        common = ["--server", served.ws_url, "--no-save", "--games", "1"]
        seeker = [gamut(), "bot", "random", "--name", "seeker", "--game", "dropfour", *common]
        taker = [gamut(), "bot", "random", "--name", "taker", "--accept", *common]
        bots = [
            subprocess.Popen(bot, cwd=package, env=env, stdout=subprocess.PIPE, text=True)
            for bot in (seeker, taker)
        ]
        outs = [bot.communicate(timeout=180)[0] for bot in bots]
    assert [bot.returncode for bot in bots] == [0, 0], outs
    games = [GAME_LINE.search(out) for out in outs]
    assert all(games), outs
    first, second = (found.groups() for found in games if found is not None)
    assert first[0] == second[0] == "Drop Four 7×6"
    assert first[2] == second[2] in ("line", "full")
    assert {first[3], second[3]} == {"Red", "Yellow"}


PLUGINS = Path(__file__).parents[1] / "plugins"
"""The example game packages the docs point to."""


@pytest.mark.parametrize(
    ("folder", "name", "options"),
    [("hex", "hex", ["--size", "3"]), ("connect4", "connect4", ["--width", "4", "--height", "4"])],
)
def test_the_example_packages_install_as_any_package(
    tmp_path: Path, folder: str, name: str, options: list[str]
) -> None:
    # A copy without the metadata Gamut's own tests use: pip writes the only metadata.
    source = tmp_path / folder
    shutil.copytree(PLUGINS / folder, source, ignore=shutil.ignore_patterns("*.dist-info"))
    site = tmp_path / "site"
    pip = [sys.executable, "-m", "pip", "install", "--quiet", "--no-deps"]
    run([*pip, "--target", str(site), str(source)], cwd=tmp_path, timeout=240)
    env = {key: value for key, value in os.environ.items() if key != "PYTHONPATH"}
    env["PYTHONPATH"] = str(site)
    checked = run([gamut(), "check-game", name, "--playouts", "1"], cwd=tmp_path, env=env)
    assert checked.stdout.startswith(f"{name}: conforms (")
    # Played from the install, the game ends in its own words.
    local = [gamut(), "local", name, *options, "--humans", "0", "--computer", "random"]
    last = run(local, cwd=tmp_path, env=env).stdout.rstrip().splitlines()[-1]
    assert last in sentences(load_game(name))


def sentences(game: AnyGame) -> set[str]:
    """Every closing sentence ``game`` can end with in ``gamut local``."""
    reasons = [*game.endings, *ENGINE_ENDINGS]
    return {f"{game.ending(Outcome(w, r))}." for r in reasons for w in (None, 0, 1)}


DICE_HEX = '''
from gamut_engine import Capabilities
from gamut_hex.game import HexGame


class DiceHex(HexGame):
    """Hex where a die decides who moves: a game no Gamut server can host."""

    name = "dicehex"
    capabilities = Capabilities(chance=True)
'''


@pytest.mark.parametrize("command", [["gamut", "serve"], ["python", "-m", "gamut_server"]])
def test_a_game_a_server_cannot_host_stops_it_at_start_up(tmp_path: Path, command: list[str]):
    (tmp_path / "dicehex.py").write_text(DICE_HEX)
    info = tmp_path / "dicehex-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: dicehex\nVersion: 0.1\n")
    (info / "entry_points.txt").write_text("[gamut.games]\ndicehex = dicehex:DiceHex\n")
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(tmp_path), env["PYTHONPATH"]])
    program = gamut() if command[0] == "gamut" else sys.executable
    argv = [program, *command[1:], "--port", "0", "--db", str(tmp_path / "db.sqlite3")]
    done = subprocess.run(argv, env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode != 0
    assert done.stderr.strip().endswith(
        "the game 'dicehex' (dicehex:DiceHex) cannot be hosted: it has chance moves; "
        "Gamut hosts two-player games of perfect information without chance"
    )
    assert "Traceback" not in done.stderr

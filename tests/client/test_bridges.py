"""The bridges talk to real external programs: a Gomocup engine, a line-protocol program and
Connect Five single-move programs, all small scripts of the test suite."""

from __future__ import annotations

import shlex
import sys
from pathlib import Path

import pytest

from gamut_client.bots import Bot, BotError
from gamut_client.bridges.board import BoardFormat, board_text, mover_rows
from gamut_client.bridges.gomocup import GomocupBot
from gamut_client.bridges.line import LineBot, header_lines, result_line, turn_lines
from gamut_client.bridges.process import BridgeError, EngineProcess
from gamut_client.bridges.seed import SeedProgramBot, parse_answer
from gamut_engine.games.connect5 import load_board
from gamut_protocol import (
    ClientMessage,
    Clocks,
    GameResult,
    PerMove,
    Resign,
)
from tests.client.views import view_after

pytestmark = pytest.mark.timeout(60)

ENGINES = Path(__file__).parent / "engines"
RESIGNER = """import sys
for line in sys.stdin:
    if line.startswith("go"):
        print("resign", flush=True)
"""
SEED_EXAMPLE = """(list (list '- '- '- '- '-)
      (list 'X 'X 'X 'X '-)
      (list '- 'O 'O 'O 'O)
      (list '- '- '- '- '-)
      (list '- '- '- '- '-))"""


def script(name: str, *arguments: str) -> str:
    """The command line running one of the test suite's programs."""
    return shlex.join([sys.executable, str(ENGINES / name), *arguments])


def inline(code: str) -> str:
    """The command line running a one-line Python program."""
    return shlex.join([sys.executable, "-c", code])


class Recorder:
    """Stands in for a runner: keeps what a bot submits."""

    def __init__(self) -> None:
        self.sent: list[ClientMessage] = []

    def submit(self, message: ClientMessage) -> None:
        self.sent.append(message)


def bound(bot: Bot) -> Recorder:
    """Attach a recorder to ``bot``."""
    recorder = Recorder()
    bot.bind(recorder)
    return recorder


def test_gomocup_engine_starts_begins_and_follows_turns(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    log = tmp_path / "pbrain.log"
    monkeypatch.setenv("PBRAIN_LOG", str(log))
    bot = GomocupBot(script("pbrain_first.py"))
    first = view_after("connect5", size=7)
    bot.on_game_start(first)
    assert bot.choose_move(first) == "d4"
    assert bot.choose_move(view_after("connect5", ["d4", "a1"], size=7)) == "d5"
    bot.on_game_end(view_after("connect5", ["d4", "a1", "d5"], size=7))
    assert log.read_text().splitlines() == [
        "START 7",
        "INFO timeout_turn 9800",
        "INFO timeout_match 0",
        "INFO max_memory 0",
        "INFO game_type 0",
        "INFO rule 0",
        "ABOUT",
        "BEGIN",
        "TURN 0,6",
        "END",
    ]


def test_gomocup_engine_is_shown_the_board_when_it_missed_moves(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    log = tmp_path / "pbrain.log"
    monkeypatch.setenv("PBRAIN_LOG", str(log))
    bot = GomocupBot(script("pbrain_first.py"))
    clocks = Clocks(remaining_ms=(3000, 3000), running=1)
    view = view_after(
        "connect5",
        ["a1", "a2", "b1", "b2", "c1", "c2", "d1"],
        my_side=1,
        time_control=PerMove(move_ms=3000),
        clocks=clocks,
        size=7,
    )
    assert bot.choose_move(view) == "e1"
    bot.close()
    lines = log.read_text().splitlines()
    assert "INFO timeout_turn 2500" in lines
    assert any(line.startswith("INFO time_left ") for line in lines)
    board = lines[lines.index("BOARD") + 1 : lines.index("DONE")]
    assert board == ["0,6,2", "0,5,1", "1,6,2", "1,5,1", "2,6,2", "2,5,1", "3,6,2"]
    assert lines[-1] == "END"


def test_a_gomocup_engine_that_misreads_an_info_key_still_plays() -> None:
    # Rapfi, still winding up its last search, drops "INFO" and reads "time_left" as a command.
    code = (
        "import sys\n"
        "for line in sys.stdin:\n"
        "    word = line.split()[0]\n"
        "    if word == 'START': print('OK', flush=True)\n"
        "    if word == 'ABOUT': print('name=\"misreader\"', flush=True)\n"
        "    if word == 'BEGIN': print('ERROR Unknown command: TIME_LEFT\\n3,3', flush=True)\n"
        "    if word == 'END': break\n"
    )
    for misread in ("TIME_LEFT", "1000"):
        bot = GomocupBot(inline(code.replace("TIME_LEFT", misread)))
        assert bot.choose_move(view_after("connect5", size=7)) == "d4"
        bot.close()
    refusing = GomocupBot(inline(code.replace("TIME_LEFT", "BEGIN")))
    with pytest.raises(BridgeError, match="Unknown command: BEGIN"):
        refusing.choose_move(view_after("connect5", size=7))


def test_a_gomocup_engine_that_refuses_or_dies_fails_the_game() -> None:
    view = view_after("connect5", size=7)
    refusing = GomocupBot(inline("input(); print('ERROR size not supported', flush=True)"))
    with pytest.raises(BridgeError, match="size not supported"):
        refusing.choose_move(view)
    silent = GomocupBot(inline("pass"))
    with pytest.raises(BridgeError, match="exited"):
        silent.choose_move(view)
    with pytest.raises(BotError, match="Connect Five"):
        GomocupBot(script("pbrain_first.py")).choose_move(view_after("crusher", n=3))


def test_engine_process_reads_lines_and_notices_silence() -> None:
    echo = EngineProcess(
        inline("import sys\nfor line in sys.stdin: print(line.strip().upper(), flush=True)")
    )
    echo.send("hello")
    assert echo.read_line(10) == "HELLO"
    with pytest.raises(BridgeError, match="did not answer"):
        echo.read_line(0.05)
    echo.close()
    with pytest.raises(BridgeError, match="exited"):
        echo.read_line(10)
    with pytest.raises(BridgeError, match="cannot start"):
        EngineProcess(["/nonexistent/engine"])


def test_line_protocol_lines() -> None:
    view = view_after(
        "network",
        ["01", "10"],
        time_control=PerMove(move_ms=5000),
        clocks=Clocks(remaining_ms=(5000, 5000), running=0),
    )
    assert header_lines(view) == [
        "gamut 1",
        "game network rules=cs61b max_plies=400",
        "side 0 White",
        "time per_move 5000",
    ]
    lines = turn_lines(view)
    assert lines[0] == f"position {view.encoding}"
    assert lines[1] == "moves 01 10"
    assert lines[2] == "legal " + " ".join(view.legal_moves)
    assert lines[3].startswith("clocks ")
    assert lines[4] == "go"
    finished = view_after(
        "connect5", ["a1", "a2", "b1", "b2", "c1", "c2", "d1", "d2", "e1"], size=7
    )
    won = finished.__class__(**{**finished.__dict__, "result": GameResult(winner=0, reason="five")})
    assert result_line(won) == "result win five"


def test_line_program_plays_its_first_legal_move_and_can_resign() -> None:
    bot = LineBot(script("line_first.py"))
    view = view_after("crusher", n=3)
    assert bot.choose_move(view) == view.legal_moves[0]
    bot.close()
    quitter = LineBot(inline(RESIGNER))
    recorder = bound(quitter)
    assert quitter.choose_move(view) is None
    assert recorder.sent == [Resign(room_id="r1")]
    quitter.close()


def test_seed_program_finds_the_seed_example_win() -> None:
    rows = ["-----", "XXXX-", "-OOOO", "-----", "-----"]
    moves = ["a4", "b3", "b4", "c3", "c4", "d3", "d4", "e3"]
    view = view_after("connect5", moves, size=5)
    assert mover_rows(view.descriptor, view.position, 0) == rows
    assert board_text(rows, "scheme") == SEED_EXAMPLE + "\n"
    game, state = load_board(board_text(rows, "scheme"))
    assert game.encode(state) == view.encoding
    assert parse_answer("(4 1)\n") == (4, 1)
    bot = SeedProgramBot(script("seed_program.py"))
    assert bot.choose_move(view) == "e4"


def test_seed_program_sees_the_board_from_the_movers_side() -> None:
    moves = ["a4", "b3", "b4", "c3", "c4", "d3", "d4"]
    view = view_after("connect5", moves, my_side=1, size=5)
    swapped = mover_rows(view.descriptor, view.position, 1)
    assert swapped == ["-----", "OOOO-", "-XXX-", "-----", "-----"]
    forms: tuple[BoardFormat, ...] = ("scheme", "rows")
    for form in forms:
        bot = SeedProgramBot(script("seed_program.py"), board=form)
        assert bot.choose_move(view) == "e4"
    with pytest.raises(BridgeError, match="no move"):
        parse_answer("I resign")
    with pytest.raises(BridgeError, match="status 3"):
        SeedProgramBot(inline("raise SystemExit(3)")).choose_move(view)

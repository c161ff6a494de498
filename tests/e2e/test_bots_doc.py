"""docs/bots.md is true: its example bot and line-protocol program play on a real server,
and its raw JSON conversation is made of valid messages."""

from __future__ import annotations

import asyncio
import re
import shlex
import sys
from pathlib import Path

import pytest

from gamut_client.bots import Plan, PlayerBot, load_bot, run_bot, seek_terms
from gamut_client.bridges.line import LineBot
from gamut_protocol import parse_client_message, parse_server_message
from tests.e2e.live import gamut_server
from tests.e2e.test_bot_command import closed_port_url
from tests.e2e.test_bot_games import assert_engine_agrees, only_game

pytestmark = pytest.mark.timeout(120)

DOC = Path(__file__).parents[2] / "docs" / "bots.md"
EXAMPLE_SERVER = "ws://localhost:8080/ws"


def blocks(tag: str) -> list[str]:
    """The fenced code blocks of docs/bots.md whose info string is ``tag``."""
    return re.findall(rf"^```{re.escape(tag)}\n(.*?)^```", DOC.read_text(), re.M | re.S)


def write_example(tmp_path: Path, tag: str, name: str, url: str | None = None) -> Path:
    """The one code block ``tag`` saved as ``name``, pointed at ``url`` if given."""
    (code,) = blocks(tag)
    if url is not None:
        assert EXAMPLE_SERVER in code
        code = code.replace(EXAMPLE_SERVER, url)
    path = tmp_path / name
    path.write_text(code)
    return path


def test_the_raw_json_conversation_is_valid() -> None:
    client, server = blocks("json client"), blocks("json server")
    assert len(client) == 3
    assert len(server) == 4
    for text in client:
        parse_client_message(text)
    kinds = [parse_server_message(text).type for text in server]
    assert kinds == ["welcome", "room_snapshot", "move_made", "game_over"]


def test_the_ten_line_bot_is_about_ten_lines(tmp_path: Path) -> None:
    code = write_example(tmp_path, "python bot-example", "greedy.py").read_text()
    lines = [line for line in code.splitlines() if line.strip()]
    assert len(lines) <= 14
    bot = load_bot(f"{tmp_path / 'greedy.py'}:Greedy")
    assert type(bot).__name__ == "Greedy"


@pytest.mark.slow
async def test_the_ten_line_bot_plays_the_ai(tmp_path: Path) -> None:
    async with gamut_server(tmp_path, ai_workers=1) as url:
        path = write_example(tmp_path, "python bot-example", "greedy.py", url)
        process = await asyncio.create_subprocess_exec(
            sys.executable,
            str(path),
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
        )
        out, err = await asyncio.wait_for(process.communicate(), 100)
    assert process.returncode == 0, err.decode()
    assert re.fullmatch(
        r"\S+ Connect Five 9×9: (won|lost|drawn) \(\w+\) as [XO] in \d+ moves\n", out.decode()
    )


async def test_the_ten_line_bot_says_in_one_sentence_that_no_server_answers(
    tmp_path: Path,
) -> None:
    url = closed_port_url()
    path = write_example(tmp_path, "python bot-example", "greedy.py", url)
    process = await asyncio.create_subprocess_exec(
        sys.executable, str(path), stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE
    )
    out, err = await asyncio.wait_for(process.communicate(), 100)
    assert process.returncode == 1
    assert out == b""
    (line,) = err.decode().splitlines()
    assert line.startswith(f"greedy: cannot reach {url}: nothing listens there")
    assert "make run" in line
    assert "--server" in line


async def test_the_line_protocol_example_plays(tmp_path: Path) -> None:
    path = write_example(tmp_path, "python line-example", "firstmove.py")
    program = LineBot(shlex.join([sys.executable, str(path)]))
    terms = seek_terms("crusher", {"n": 3}, time_control="untimed")
    async with gamut_server(tmp_path) as url:
        ran = await asyncio.wait_for(
            asyncio.gather(
                run_bot(program, url, "firstmove", plan=Plan(seek=terms, games=1)),
                run_bot(PlayerBot("random:11"), url, "other", plan=Plan(accept_open=True, games=1)),
            ),
            100,
        )
    assert_engine_agrees(only_game(ran[0]))

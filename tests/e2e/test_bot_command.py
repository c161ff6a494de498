"""``gamut bot`` as a person runs it: a command against ``gamut serve`` in another process."""

from __future__ import annotations

import argparse
import asyncio
import shlex
import socket
import sys
from pathlib import Path

import pytest

from gamut_client.commands import bot as bot_command
from gamut_client.commands.bot_run import plan_from_args
from gamut_protocol import AiOpponent, PerMove
from tests.client.test_bridges import script
from tests.e2e.live import served

pytestmark = pytest.mark.timeout(180)


async def run_command(*arguments: str) -> tuple[int, str, str]:
    """Run ``gamut bot`` with ``arguments`` in a subprocess; its status, output and errors."""
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "gamut_client.commands.bot",
        *arguments,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    out, err = await asyncio.wait_for(process.communicate(), 150)
    assert process.returncode is not None
    return process.returncode, out.decode(), err.decode()


@pytest.mark.slow
async def test_a_gomocup_engine_plays_the_servers_ai_from_the_command_line(
    tmp_path: Path,
) -> None:
    async with served(tmp_path, "--ai-workers", "1") as url:
        status, out, err = await run_command(
            "--server",
            url,
            "--name",
            "pbrain",
            "--game",
            "connect5",
            "--size",
            "7",
            "--time",
            "untimed",
            "--opponent",
            "ai:1",
            "--games",
            "1",
            "gomocup:" + script("pbrain_first.py"),
        )
    assert status == 0, err
    lines = out.splitlines()
    assert len(lines) == 1
    assert "Connect Five 7×7: " in lines[0]
    assert any(word in lines[0] for word in ("won", "lost", "drawn"))


def closed_port_url() -> str:
    """The URL of a loopback port nothing listens on."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    return f"ws://127.0.0.1:{port}/ws"


async def test_an_unreachable_server_or_a_bad_spec_is_reported() -> None:
    url = closed_port_url()
    status, _, err = await run_command("--server", url, "--name", "b", "random")
    assert status == 1
    (line,) = err.splitlines()
    assert line.startswith(f"gamut bot: cannot reach {url}: nothing listens there")
    assert line.endswith("start a Gamut server there (make run) or give its address with --server")
    status, _, err = await run_command("--name", "b", "nonsense")
    assert status == 2
    assert "unknown player" in err
    assert "gomocup:COMMAND" in err


def test_the_command_line_makes_the_plan() -> None:
    parser = argparse.ArgumentParser()
    commands = parser.add_subparsers()
    bot_command.register(commands)
    line = "bot --name b --game loa --size 6 --opponent ai:4 --games 3 --parallel 2 random"
    args = parser.parse_args(shlex.split(line))
    assert args.handler is bot_command.run
    plan = plan_from_args(args)
    assert plan.seek is not None
    assert (plan.seek.game, plan.seek.options) == ("loa", {"size": 6})
    assert plan.seek.opponent == AiOpponent(level=4)
    assert plan.seek.time_control == PerMove(move_ms=10_000)
    assert (plan.games, plan.parallel, plan.accept_open) == (3, 2, False)
    accepting_args = parser.parse_args(shlex.split("bot --name b --accept ai:2"))
    accepting = plan_from_args(accepting_args)
    assert (accepting.seek, accepting.accept_open, accepting.only_game) == (None, True, None)

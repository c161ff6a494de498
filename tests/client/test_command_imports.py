"""``gamut`` lists its commands, and prints a command's help, without loading what the
commands run: not the server, its database or its web framework, not the network
client, the protocol's models or the terminal interface. Each command's module is
imported to register it, so what it runs is imported only when it runs."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

PROBE = """
import json, sys
from gamut_client.cli import main
try:
    main(sys.argv[1:])
except SystemExit:
    pass
print(json.dumps(sorted(sys.modules)))
"""
"""Runs ``gamut ARGS`` and prints the modules loaded by then, as the last line."""

HEAVY = frozenset(
    {"aiohttp", "sqlalchemy", "alembic", "redis", "websockets", "pydantic", "textual", "rich"}
    | {"gamut_protocol", "argon2", "openskill", "asyncpg", "aiosqlite", "uvloop"}
)
"""Packages none of the commands needs to be listed."""

SERVER_REGISTRATION = frozenset(
    {
        "gamut_server",
        "gamut_server.cli",
        "gamut_server.db_cli",
        "gamut_server.moderation",
        "gamut_server.moderation.cli",
    }
)
"""The server's modules that register ``gamut serve``, ``gamut db`` and ``gamut mod``."""


def modules_loaded_by(*args: str) -> set[str]:
    """The modules a ``gamut ARGS`` process has loaded once it is done."""
    done = subprocess.run(
        [sys.executable, "-c", PROBE, *args], capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    *shown, loaded = done.stdout.splitlines()
    assert shown, "the help was printed"
    return set(json.loads(loaded))


@pytest.mark.parametrize("args", [("--help",), ("play", "--help"), ("serve", "--help")])
def test_help_loads_no_server_network_or_interface_module(args: tuple[str, ...]) -> None:
    loaded = modules_loaded_by(*args)
    assert sorted(name for name in loaded if name.split(".")[0] in HEAVY) == []
    server = {name for name in loaded if name.split(".")[0] == "gamut_server"}
    assert server <= SERVER_REGISTRATION

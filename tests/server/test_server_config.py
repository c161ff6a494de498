"""Settings from the environment and the command line, and the rules for names."""

from __future__ import annotations

import argparse

import pytest

from gamut_server.cli import add_arguments, config_from_args
from gamut_server.config import DEFAULT_HOST, DEFAULT_PORT, ServerConfig
from gamut_server.identity import NameRefusedError, Names


def parse(*argv: str) -> argparse.Namespace:
    parser = argparse.ArgumentParser()
    add_arguments(parser)
    return parser.parse_args(argv)


def test_defaults_then_environment_then_command_line(monkeypatch: pytest.MonkeyPatch) -> None:
    assert (ServerConfig().host, ServerConfig().port, ServerConfig().db) == (
        DEFAULT_HOST,
        DEFAULT_PORT,
        None,
    )
    env = {"GAMUT_HOST": "::1", "GAMUT_PORT": "9000", "GAMUT_DB": "games.sqlite3"}
    assert ServerConfig.from_env(env).host == "::1"
    assert ServerConfig.from_env(env).port == 9000
    for key, value in env.items():
        monkeypatch.setenv(key, value)
    config = config_from_args(parse("--port", "9100", "--ai-workers", "0", "--grace", "1.5"))
    assert (config.host, config.port, config.db) == ("::1", 9100, "games.sqlite3")
    assert (config.ai_workers, config.grace_ms) == (0, 1500)
    assert config.migrate
    assert not config_from_args(parse("--no-migrate")).migrate


@pytest.mark.parametrize("port", ["http", "-1", "70000"])
def test_a_bad_port_in_the_environment_is_refused(port: str) -> None:
    with pytest.raises(ValueError, match="GAMUT_PORT"):
        ServerConfig.from_env({"GAMUT_PORT": port})


def test_a_name_is_held_by_its_token_while_used() -> None:
    names = Names()
    token = names.claim("ada", None, connection=1).token
    assert names.claim("ada", token, connection=2).token == token
    with pytest.raises(NameRefusedError) as taken:
        names.claim("ada", None, connection=3)
    assert taken.value.code == "name_taken"
    with pytest.raises(NameRefusedError) as wrong:
        names.claim("ada", "guess", connection=3)
    assert wrong.value.code == "bad_token"
    names.release("ada", 1, keep=False)
    names.release("ada", 2, keep=True)
    assert "ada" in names
    names.forget_idle("ada")
    assert "ada" not in names
    assert names.claim("ada", "chosen-token", connection=4).token == "chosen-token"


@pytest.mark.parametrize("name", ["ai", "ai-3", "AI-10"])
def test_the_ais_names_are_reserved(name: str) -> None:
    with pytest.raises(NameRefusedError):
        Names().claim(name, None, connection=1)

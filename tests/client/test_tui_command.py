"""``gamut play``'s command line: its options, and the names it plays under."""

from __future__ import annotations

import argparse

import pytest

from gamut_client.commands import play


def parse(*argv: str) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="gamut")
    play.register(parser.add_subparsers(dest="command"))
    return parser.parse_args(["play", *argv])


def test_the_options_and_their_defaults(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("GAMUT_SERVER", raising=False)
    args = parse()
    assert (args.server, args.name, args.token, args.log) == (play.DEFAULT_SERVER, None, None, None)
    assert args.handler is play.run
    args = parse("--server", "example.org:9000", "--name", "ada", "--log", "play.log")
    assert (args.server, args.name, args.log) == ("example.org:9000", "ada", "play.log")


def test_the_server_can_come_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GAMUT_SERVER", "wss://gamut.example.org/ws")
    assert parse().server == "wss://gamut.example.org/ws"


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("ada", "ada"),
        ("Ada Lovelace", "AdaLovelace"),
        ("-.x", "x"),
        ("名前", "player"),
        ("a" * 30, "a" * 24),
    ],
)
def test_login_names_are_made_into_player_names(text: str, name: str) -> None:
    assert play.clean_name(text) == name


def test_a_bad_server_url_is_refused_before_the_screen_opens() -> None:
    with pytest.raises(SystemExit, match="gamut play: a Gamut server URL starts with ws://"):
        play.run(parse("--server", "ftp://example.org"))

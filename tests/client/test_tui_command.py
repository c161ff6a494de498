"""``gamut play``'s command line: its options, and the names it plays under."""

from __future__ import annotations

import argparse

import pytest

from gamut_client.addresses import DEFAULT_SERVER
from gamut_client.commands import play
from gamut_client.identities import IdentityFile


def parse(*argv: str) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="gamut")
    play.register(parser.add_subparsers(dest="command"))
    return parser.parse_args(["play", *argv])


def test_the_options_and_their_defaults(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("GAMUT_SERVER", raising=False)
    args = parse()
    assert (args.server, args.name, args.token, args.log) == (DEFAULT_SERVER, None, None, None)
    assert not args.guest
    assert args.handler is play.run
    args = parse("--server", "example.org:9000", "--name", "ada", "--log", "play.log")
    assert (args.server, args.name, args.log) == ("example.org:9000", "ada", "play.log")


def test_the_server_can_come_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GAMUT_SERVER", "wss://gamut.example.org/ws")
    assert parse().server == "wss://gamut.example.org/ws"


@pytest.mark.parametrize("name", ["ada", "Ada_Lovelace", "a.b-c", "x" * 24])
def test_an_allowed_name_is_played_under_as_given(name: str) -> None:
    assert play.chosen_name(name) == name


@pytest.mark.parametrize(
    ("given", "suggestion"),
    [
        ("élodie dupont", "--name elodie_dupont would do"),
        ("a" * 500, "--name " + "a" * 24 + " would do"),
        ("-ada", "--name ada would do"),
        ("名前", "plain ASCII letters"),
    ],
)
def test_a_name_outside_the_rule_is_refused_with_what_is_allowed(
    given: str, suggestion: str
) -> None:
    with pytest.raises(ValueError, match="1 to 24 plain ASCII letters") as refusal:
        play.chosen_name(given)
    assert suggestion in str(refusal.value)
    assert "look alike" in str(refusal.value)


def test_the_command_refuses_the_name_before_the_screen_opens() -> None:
    with pytest.raises(SystemExit, match="gamut play: 'élodie dupont' cannot be used"):
        play.run(parse("--name", "élodie dupont"))


def test_the_login_name_is_used_when_allowed_and_never_rewritten(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(play, "login_name", lambda: "ada")
    assert play.chosen_name(None) == "ada"
    monkeypatch.setattr(play, "login_name", lambda: "Ada Lovelace")
    with pytest.raises(ValueError, match=r"choose one with --name \(such as --name Ada_Lovelace\)"):
        play.chosen_name(None)


def test_a_bad_server_url_is_refused_before_the_screen_opens() -> None:
    with pytest.raises(SystemExit, match="gamut play: a Gamut server URL starts with ws://"):
        play.run(parse("--server", "ftp://example.org"))


def test_a_kept_session_plays_as_its_account_unless_told_otherwise(
    monkeypatch: pytest.MonkeyPatch, tmp_path
) -> None:
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path))
    monkeypatch.delenv("GAMUT_SERVER", raising=False)
    assert play.account_name(parse()) is None, "nothing kept, and no terminal to ask at"
    IdentityFile().remember(DEFAULT_SERVER, "Ada_L", "session_abc")
    IdentityFile().remember(DEFAULT_SERVER, "guesty", "a-guest-token")
    assert play.account_name(parse()) == "Ada_L"
    assert play.account_name(parse("--name", "ada_l")) == "Ada_L"
    assert play.account_name(parse("--name", "guesty")) is None
    assert play.account_name(parse("--guest")) is None
    assert play.account_name(parse("--server", "ws://elsewhere:9/ws")) is None

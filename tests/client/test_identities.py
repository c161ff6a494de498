"""Saved guest tokens: where the file is, what it holds, who may read it, and the options."""

from __future__ import annotations

import argparse
import json
import stat
from pathlib import Path

import pytest

from gamut_client.commands import bot as bot_command
from gamut_client.commands import play as play_command
from gamut_client.commands.saved import identity_file
from gamut_client.identities import IdentityFile, config_folder

SERVER = "ws://127.0.0.1:8080/ws"


def mode(path: Path) -> int:
    """The permission bits of ``path``."""
    return stat.S_IMODE(path.stat().st_mode)


def test_the_test_run_never_uses_the_real_configuration(private_config_folder: Path) -> None:
    assert config_folder() == private_config_folder / "gamut"


def test_the_folder_follows_xdg_config_home_else_home(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert config_folder({"XDG_CONFIG_HOME": str(tmp_path / "xdg")}) == tmp_path / "xdg" / "gamut"
    assert config_folder({"XDG_CONFIG_HOME": "relative/xdg"}) == tmp_path / "home/.config/gamut"
    assert config_folder({}) == tmp_path / "home" / ".config" / "gamut"
    monkeypatch.delenv("XDG_CONFIG_HOME")
    assert IdentityFile().path == tmp_path / "home" / ".config" / "gamut" / "identities.json"


def test_tokens_are_kept_by_server_and_name(tmp_path: Path) -> None:
    saved = IdentityFile(tmp_path / "gamut" / "identities.json")
    assert saved.token(SERVER, "ada") is None
    assert saved.remember("127.0.0.1:8080", "ada", "t-ada")
    assert saved.remember(SERVER, "bob", "t-bob")
    assert saved.remember("ws://example.org:9000/ws", "ada", "t-other")
    again = IdentityFile(saved.path)
    assert again.token(SERVER, "ada") == "t-ada"
    assert again.token("http://127.0.0.1:8080", "bob") == "t-bob"
    assert again.token("example.org:9000", "ada") == "t-other"
    assert again.forget(SERVER, "ada")
    assert saved.token(SERVER, "ada") is None
    assert saved.token(SERVER, "bob") == "t-bob"
    assert json.loads(saved.path.read_text())["servers"] == {
        SERVER: {"bob": "t-bob"},
        "ws://example.org:9000/ws": {"ada": "t-other"},
    }


def test_the_file_is_private(tmp_path: Path) -> None:
    saved = IdentityFile(tmp_path / "config" / "gamut" / "identities.json")
    saved.remember(SERVER, "ada", "secret")
    assert mode(saved.path) == 0o600
    assert mode(saved.path.parent) == 0o700
    saved.path.chmod(0o644)
    saved.remember(SERVER, "bob", "secret too")
    assert mode(saved.path) == 0o600
    assert [p.name for p in saved.path.parent.iterdir()] == ["identities.json"]


def test_two_clients_saving_keep_each_others_tokens(tmp_path: Path) -> None:
    path = tmp_path / "identities.json"
    first, second = IdentityFile(path), IdentityFile(path)
    first.remember(SERVER, "ada", "t-ada")
    second.remember(SERVER, "bob", "t-bob")
    assert (first.token(SERVER, "ada"), first.token(SERVER, "bob")) == ("t-ada", "t-bob")


def test_a_damaged_file_counts_as_empty_and_is_replaced(tmp_path: Path) -> None:
    path = tmp_path / "identities.json"
    path.write_text("{not json")
    saved = IdentityFile(path)
    assert saved.token(SERVER, "ada") is None
    path.write_text(json.dumps({"servers": {SERVER: {"ada": 7, "bob": "t-bob"}, "x": []}}))
    assert saved.token(SERVER, "ada") is None
    assert saved.token(SERVER, "bob") == "t-bob"
    assert saved.remember(SERVER, "ada", "t-ada")
    assert json.loads(path.read_text()) == {
        "version": 1,
        "servers": {SERVER: {"bob": "t-bob", "ada": "t-ada"}},
    }


def test_a_file_that_cannot_be_written_is_reported_not_raised(tmp_path: Path) -> None:
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("")
    saved = IdentityFile(blocker / "identities.json")
    assert not saved.remember(SERVER, "ada", "t-ada")
    assert saved.token(SERVER, "ada") is None


def parse(command: str, *argv: str) -> argparse.Namespace:
    """The arguments of ``gamut play`` or ``gamut bot``."""
    parser = argparse.ArgumentParser()
    if command == "play":
        play_command.add_arguments(parser)
    else:
        bot_command.add_arguments(parser)
    return parser.parse_args(list(argv))


def test_both_commands_save_unless_told_not_to(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path))
    for command, extra in (("play", ()), ("bot", ("--name", "b", "random"))):
        args = parse(command, *extra)
        assert (args.no_save, args.forget) == (False, False)
        found = identity_file(args, SERVER, "b")
        assert found is not None
        assert found.path == tmp_path / "gamut" / "identities.json"
        assert identity_file(parse(command, "--no-save", *extra), SERVER, "b") is None


def test_forget_drops_the_saved_token_first(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path))
    saved = IdentityFile()
    saved.remember(SERVER, "ada", "t-ada")
    saved.remember(SERVER, "bob", "t-bob")
    kept = identity_file(parse("play", "--forget"), SERVER, "ada")
    assert kept is not None
    assert (kept.token(SERVER, "ada"), kept.token(SERVER, "bob")) == (None, "t-bob")
    saved.remember(SERVER, "ada", "t-ada")
    assert identity_file(parse("play", "--forget", "--no-save"), SERVER, "ada") is None
    assert saved.token(SERVER, "ada") is None

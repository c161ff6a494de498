"""The JSON Schemas cover every message, and ``gamut schema`` writes them."""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

import pytest

from gamut_client.commands import schema as command
from gamut_protocol import CLIENT_MESSAGE_TYPES, PROTOCOL_VERSION, SERVER_MESSAGE_TYPES
from gamut_protocol.schema import JSON_SCHEMA_DIALECT, SCHEMAS, client_schema, server_schema


@pytest.mark.parametrize(
    ("build", "types"),
    [(client_schema, CLIENT_MESSAGE_TYPES), (server_schema, SERVER_MESSAGE_TYPES)],
)
def test_each_schema_is_one_discriminated_union_of_its_direction(
    build: Any, types: dict[str, type]
) -> None:
    schema = build()
    assert schema["$schema"] == JSON_SCHEMA_DIALECT
    assert schema["x-gamut-protocol"] == PROTOCOL_VERSION
    assert schema["discriminator"]["propertyName"] == "type"
    mapping = schema["discriminator"]["mapping"]
    assert set(mapping) == set(types)
    assert len(schema["oneOf"]) == len(types)
    for tag, ref in mapping.items():
        definition = schema["$defs"][ref.removeprefix("#/$defs/")]
        assert definition["properties"]["type"]["const"] == tag
        assert definition["required"][0] == "type"
        assert definition["additionalProperties"] is False
        assert definition["description"]


def test_schemas_carry_bounds_and_field_descriptions() -> None:
    move = client_schema()["$defs"]["Move"]
    assert move["properties"]["ply"]["minimum"] == 0
    assert move["properties"]["move"]["maxLength"] == 64
    assert "stale" in move["properties"]["ply"]["description"]
    assert set(move["required"]) == {"type", "room_id", "move", "ply"}


def test_nested_union_members_require_their_kind() -> None:
    defs = client_schema()["$defs"]
    for name in ("PerMove", "Fischer", "Untimed", "AnyOpponent", "NamedOpponent", "AiOpponent"):
        assert defs[name]["required"][0] == "kind"


def test_schemas_are_plain_json() -> None:
    for build in SCHEMAS.values():
        assert json.loads(json.dumps(build())) == build()


def test_the_command_writes_both_files(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    parser = argparse.ArgumentParser(prog="gamut")
    command.register(parser.add_subparsers(dest="command"))
    out = tmp_path / "new" / "schemas"
    args = parser.parse_args(["schema", "--out", str(out)])
    assert args.handler(args) == 0
    assert sorted(p.name for p in out.iterdir()) == ["client.json", "server.json"]
    assert json.loads((out / "client.json").read_text(encoding="utf-8")) == client_schema()
    assert json.loads((out / "server.json").read_text(encoding="utf-8")) == server_schema()
    assert capsys.readouterr().out.split() == [str(out / "client.json"), str(out / "server.json")]


def test_the_command_prints_to_standard_output_and_writes_no_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    parser = argparse.ArgumentParser(prog="gamut")
    command.register(parser.add_subparsers(dest="command"))
    args = parser.parse_args(["schema"])
    assert args.handler(args) == 0
    assert list(tmp_path.iterdir()) == []
    printed = json.loads(capsys.readouterr().out)
    assert printed == {"client": client_schema(), "server": server_schema()}
    args = parser.parse_args(["schema", "server"])
    assert args.handler(args) == 0
    assert json.loads(capsys.readouterr().out) == server_schema()

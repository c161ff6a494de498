"""docs/protocol.md stays true: every example parses, and every type and code is documented."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import pytest

from gamut_protocol import (
    CLIENT_ADAPTER,
    CLIENT_MESSAGE_TYPES,
    ERROR_CODES,
    MAX_CLIENT_MESSAGE_BYTES,
    PROTOCOL_VERSION,
    SERVER_MESSAGE_TYPES,
    ProtocolError,
    parse_client_message,
    parse_server_message,
)

DOC = Path(__file__).resolve().parents[2] / "docs" / "protocol.md"
FENCE = re.compile(r"^```(json|text) (client|server)\n(.*?)^```$", re.MULTILINE | re.DOTALL)


@dataclass(frozen=True)
class Example:
    """One fenced example of the doc."""

    language: str
    direction: str
    text: str
    line: int


def examples() -> list[Example]:
    source = DOC.read_text(encoding="utf-8")
    return [
        Example(m[1], m[2], m[3], source.count("\n", 0, m.start()) + 1)
        for m in FENCE.finditer(source)
    ]


EXAMPLES = examples()


def example_id(example: Example) -> str:
    return f"line-{example.line}-{example.direction}"


def following(example: Example) -> Example:
    return EXAMPLES[EXAMPLES.index(example) + 1]


def test_the_doc_has_many_examples() -> None:
    assert len(EXAMPLES) > 60


@pytest.mark.parametrize(
    "example", [e for e in EXAMPLES if e.direction == "server"], ids=example_id
)
def test_server_examples_parse(example: Example) -> None:
    parse_server_message(example.text)


@pytest.mark.parametrize(
    "example",
    [e for e in EXAMPLES if e.language == "json" and e.direction == "client"],
    ids=example_id,
)
def test_client_examples_are_well_formed(example: Example) -> None:
    CLIENT_ADAPTER.validate_json(example.text, strict=True)


@pytest.mark.parametrize(
    "example", [e for e in EXAMPLES if e.direction == "client"], ids=example_id
)
def test_client_examples_refused_by_the_codec_show_the_real_error(example: Example) -> None:
    try:
        parse_client_message(example.text)
        refusal = None
    except ProtocolError as error:
        refusal = error.to_message()
    if refusal is None:
        assert example.language == "json", "a text example must be refused"
        return
    answer = following(example)
    assert answer.direction == "server"
    assert parse_server_message(answer.text) == refusal


def test_every_message_type_has_an_example() -> None:
    client = {
        CLIENT_ADAPTER.validate_json(e.text).type
        for e in EXAMPLES
        if e.language == "json" and e.direction == "client"
    }
    server = {parse_server_message(e.text).type for e in EXAMPLES if e.direction == "server"}
    assert client == set(CLIENT_MESSAGE_TYPES)
    assert server == set(SERVER_MESSAGE_TYPES)


def test_every_message_type_is_in_the_reference_tables() -> None:
    source = DOC.read_text(encoding="utf-8")
    reference = source[source.index("## Message reference") :]
    for tag in [*CLIENT_MESSAGE_TYPES, *SERVER_MESSAGE_TYPES]:
        assert re.search(rf"^\| (`\w+`, )?`{tag}`", reference, re.MULTILINE), tag


def test_every_error_code_is_documented_with_its_description() -> None:
    source = DOC.read_text(encoding="utf-8")
    for code, description in ERROR_CODES.items():
        assert f"| `{code}` | {description} |" in source


def test_the_doc_quotes_the_current_version_and_size_limit() -> None:
    source = DOC.read_text(encoding="utf-8")
    assert f"protocol version **{PROTOCOL_VERSION}**" in source
    assert f"{MAX_CLIENT_MESSAGE_BYTES:,} bytes" in source

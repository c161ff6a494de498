"""JSON Schemas of both directions, for bot authors in any language and for validators."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final

from pydantic import TypeAdapter

from gamut_protocol.client import CLIENT_ADAPTER
from gamut_protocol.common import PROTOCOL_VERSION
from gamut_protocol.server import SERVER_ADAPTER

JSON_SCHEMA_DIALECT: Final = "https://json-schema.org/draft/2020-12/schema"
"""The JSON Schema dialect pydantic writes."""

TAG_FIELDS: Final = ("type", "kind")
"""The fields that tell the members of a discriminated union apart."""


def client_schema() -> dict[str, Any]:
    """The JSON Schema every client message satisfies."""
    return _schema(CLIENT_ADAPTER, "Gamut client message", "A message from a client to a server.")


def server_schema() -> dict[str, Any]:
    """The JSON Schema every server message satisfies."""
    return _schema(SERVER_ADAPTER, "Gamut server message", "A message from a server to a client.")


SCHEMAS: Final[dict[str, Callable[[], dict[str, Any]]]] = {
    "client.json": client_schema,
    "server.json": server_schema,
}
"""Each schema's usual file name and the function that builds it."""


def _schema(adapter: TypeAdapter[Any], title: str, description: str) -> dict[str, Any]:
    """The adapter's validation schema, headed with its dialect, title and protocol version."""
    body = adapter.json_schema(mode="validation")
    for definition in body.get("$defs", {}).values():
        _require_tags(definition)
    header = {
        "$schema": JSON_SCHEMA_DIALECT,
        "title": title,
        "description": f"{description} Gamut protocol version {PROTOCOL_VERSION}.",
        "x-gamut-protocol": PROTOCOL_VERSION,
    }
    return header | body


def _require_tags(definition: dict[str, Any]) -> None:
    """Mark the ``type`` or ``kind`` tag of a union member required: unions read it first.

    The models give their tag a default, for building them in Python; on the wire a
    discriminated union cannot tell its members apart without it.
    """
    properties = definition.get("properties", {})
    for tag in TAG_FIELDS:
        if "const" in properties.get(tag, {}):
            required = definition.setdefault("required", [])
            if tag not in required:
                required.insert(0, tag)

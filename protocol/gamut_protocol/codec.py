"""Reading and writing messages: JSON text in, models out, and errors worth sending back.

``parse_client_message`` never lets a pydantic error escape: anything wrong with a
message becomes a :class:`ProtocolError` whose code, sentence, ``reply_to`` and
``request`` make the ``error`` message to send back (:meth:`ProtocolError.to_message`).
Parsing is strict: ``"5"`` is not a number and ``1`` is not ``true``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Final

import pydantic_core
from pydantic import BaseModel, TypeAdapter, ValidationError

from gamut_protocol.client import CLIENT_ADAPTER, CLIENT_MESSAGE_TYPES, ClientMessage, Hello
from gamut_protocol.common import (
    MAX_CLIENT_MESSAGE_BYTES,
    MAX_SERVER_MESSAGE_BYTES,
    MIN_PROTOCOL_VERSION,
    PATTERN_HINTS,
    PROTOCOL_VERSION,
    CorrelationId,
    RoomId,
    clip_sentence,
)
from gamut_protocol.errors import (
    BAD_JSON,
    BAD_MESSAGE,
    FATAL_ERRORS,
    TOO_LARGE,
    UNSUPPORTED_VERSION,
    ErrorCode,
)
from gamut_protocol.server import SERVER_ADAPTER, SERVER_MESSAGE_TYPES, ServerMessage
from gamut_protocol.server_lobby import ErrorMessage

_ID_ADAPTER: Final[TypeAdapter[str | int | None]] = TypeAdapter(CorrelationId | None)

MAX_REPORTED_ERRORS: Final = 3
"""How many field errors a ``bad_message`` sentence lists."""


class ProtocolError(ValueError):
    """A message the server must refuse, with everything its ``error`` answer needs."""

    def __init__(
        self,
        code: ErrorCode,
        message: str,
        *,
        reply_to: str | int | None = None,
        request: str | None = None,
    ) -> None:
        super().__init__(message)
        self.code: ErrorCode = code
        """The error code to send."""
        self.message = message
        """What went wrong, for people."""
        self.reply_to = reply_to
        """The ``id`` of the refused message, when it could be read."""
        self.request = request
        """The ``type`` of the refused message, when it is a known one."""
        self.fatal = code in FATAL_ERRORS
        """Whether the server should close the connection after answering."""

    def to_message(self, room_id: RoomId | None = None) -> ErrorMessage:
        """The ``error`` message to send back."""
        return ErrorMessage(
            code=self.code,
            message=clip_sentence(self.message),
            reply_to=self.reply_to,
            request=self.request,
            room_id=room_id,
            fatal=self.fatal,
        )


def is_supported_version(version: int) -> bool:
    """Whether a server built on this package accepts a client speaking ``version``."""
    return MIN_PROTOCOL_VERSION <= version <= PROTOCOL_VERSION


def check_version(version: int, *, reply_to: str | int | None = None) -> None:
    """Raise an ``unsupported_version`` :class:`ProtocolError` unless ``version`` is accepted."""
    if is_supported_version(version):
        return
    speaks = (
        f"version {PROTOCOL_VERSION}"
        if MIN_PROTOCOL_VERSION == PROTOCOL_VERSION
        else f"versions {MIN_PROTOCOL_VERSION} to {PROTOCOL_VERSION}"
    )
    newer = "upgrade the server" if version > PROTOCOL_VERSION else "upgrade the client"
    raise ProtocolError(
        UNSUPPORTED_VERSION,
        f"this server speaks Gamut protocol {speaks}, not version {version}: {newer}",
        reply_to=reply_to,
        request="hello",
    )


def parse_client_message(data: str | bytes | bytearray) -> ClientMessage:
    """The client message ``data`` holds; raises :class:`ProtocolError` if it is not one.

    A ``hello`` for a protocol version this package does not speak is refused with
    ``unsupported_version``, even when the rest of it is not understood.
    """
    _check_size(data, MAX_CLIENT_MESSAGE_BYTES)
    try:
        message = CLIENT_ADAPTER.validate_json(data, strict=True)
    except ValidationError as error:
        raw = _loose_json(data)
        refusal = _version_refusal(raw) or _refusal(raw, error, CLIENT_MESSAGE_TYPES)
        raise refusal from None
    if isinstance(message, Hello):
        check_version(message.protocol, reply_to=message.id)
    return message


def parse_server_message(data: str | bytes | bytearray) -> ServerMessage:
    """The server message ``data`` holds; raises :class:`ProtocolError` if it is not one."""
    _check_size(data, MAX_SERVER_MESSAGE_BYTES)
    try:
        return SERVER_ADAPTER.validate_json(data, strict=True)
    except ValidationError as error:
        raise _refusal(_loose_json(data), error, SERVER_MESSAGE_TYPES) from None


def dump(message: BaseModel) -> str:
    """The message as compact JSON text; fields that are ``null`` are left out."""
    return message.model_dump_json(exclude_none=True)


def _check_size(data: str | bytes | bytearray, max_bytes: int) -> None:
    """Raise ``too_large`` if ``data`` is longer than ``max_bytes`` in UTF-8."""
    size = len(data)
    if isinstance(data, str) and size <= max_bytes < 4 * size:
        size = len(data.encode(errors="replace"))
    if size > max_bytes:
        raise ProtocolError(TOO_LARGE, f"a message may hold {max_bytes} bytes, not {size}")


def _version_refusal(raw: Any) -> ProtocolError | None:
    """The ``unsupported_version`` refusal of a ``hello`` this package cannot read, if it is one.

    Checked before anything else in a ``hello``, so that a newer client whose ``hello``
    has fields unknown here still learns that the versions differ.
    """
    if not isinstance(raw, dict) or raw.get("type") != "hello":
        return None
    version = raw.get("protocol")
    if not isinstance(version, int) or isinstance(version, bool):
        return None
    try:
        check_version(version, reply_to=_read_id(raw))
    except ProtocolError as error:
        return error
    return None


def _refusal(
    raw: Any, error: ValidationError, types: Mapping[str, type[BaseModel]]
) -> ProtocolError:
    """The :class:`ProtocolError` for a message that failed validation.

    ``raw`` is the message's JSON value as far as it could be read (``None`` if not at all),
    from which the ``id`` and the ``type`` to echo back are taken.
    """
    reply_to = _read_id(raw)
    tag = raw.get("type") if isinstance(raw, dict) else None
    request = tag if isinstance(tag, str) and tag in types else None
    problems = error.errors(include_url=False)
    if problems and problems[0]["type"] == "json_invalid":
        detail = problems[0].get("ctx", {}).get("error", "invalid JSON")
        return ProtocolError(BAD_JSON, f"the message is not JSON: {detail}", reply_to=reply_to)
    sentence = _describe(problems, tag, list(types))
    return ProtocolError(BAD_MESSAGE, sentence, reply_to=reply_to, request=request)


def _loose_json(data: str | bytes | bytearray) -> Any:
    """The JSON value ``data`` holds, or ``None`` if it holds none."""
    try:
        return pydantic_core.from_json(data)
    except ValueError:
        return None


def _read_id(raw: Any) -> str | int | None:
    """The message's ``id`` if it is a valid correlation id, for echoing back."""
    value = raw.get("id") if isinstance(raw, dict) else None
    try:
        return _ID_ADAPTER.validate_python(value, strict=True)
    except ValidationError:
        return None


def _describe(problems: Sequence[Any], tag: object, known: list[str]) -> str:
    """A sentence naming what is wrong with a message that is JSON but no valid message."""
    first = problems[0]
    kind = first["type"]
    if kind in ("dict_type", "model_type"):
        return 'a message is a JSON object with a "type" field'
    if kind == "union_tag_not_found":
        return f'the message has no "type" field; the types are: {", ".join(known)}'
    if kind == "union_tag_invalid":
        return f"unknown message type {tag!r}; the types are: {', '.join(known)}"
    details = "; ".join(_field_problem(problem) for problem in problems[:MAX_REPORTED_ERRORS])
    more = len(problems) - MAX_REPORTED_ERRORS
    return f"bad {tag} message: {details}" + (f" (and {more} more)" if more > 0 else "")


def _field_problem(problem: Mapping[str, Any]) -> str:
    """One field's problem in words, such as ``field 'ply' is missing``."""
    path = ".".join(str(part) for part in problem["loc"][1:])
    kind = problem["type"]
    if kind == "missing":
        return f"field {path!r} is missing"
    if kind == "extra_forbidden":
        return f"unknown field {path!r}"
    if kind == "string_pattern_mismatch":
        pattern = problem.get("ctx", {}).get("pattern", "")
        return f"field {path!r} {PATTERN_HINTS.get(pattern, 'is not in the expected form')}"
    return f"field {path!r}: {problem['msg'][0].lower()}{problem['msg'][1:]}"

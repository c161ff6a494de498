"""One ``move_made`` serialised once for all its recipients.

A move's event goes out in two forms: with the legal moves to the player now to move,
and without them, answering the move, to its player (from protocol version 3 on; see
:mod:`gamut_server.core.delivery`). Both are the same text but for those two fields,
and most of it is the position. :class:`MoveTexts` serialises the event once without
``reply_to`` and ``legal_moves`` and writes each form from that text, the two fields
spliced in where the model's own serialisation puts them (``reply_to`` after ``type``,
``legal_moves`` last): the same text :func:`gamut_protocol.dump` makes, byte for byte.
"""

from __future__ import annotations

from typing import Final

from pydantic_core import to_json

from gamut_protocol import MoveMade, dump

HEAD: Final = '{"type":"move_made",'
"""How every ``move_made``'s text begins: ``reply_to``, when there is one, comes next."""

SPLICED: Final[set[str]] = {"reply_to", "legal_moves"}
"""The fields written into the shared text per form, rather than serialised with it."""

NO_MOVES: Final = ',"legal_moves":[]}'
"""The end of a ``move_made`` without legal moves."""


class MoveTexts:
    """The shared text of the last ``move_made`` serialised, to write its next forms from.

    Forms of one event are copies of it (``model_copy``), which share its position: an
    event with the same room, number and position object as the last one is that event,
    whatever its ``reply_to`` and legal moves. The position is held, so its identity
    cannot pass to another object meanwhile.
    """

    def __init__(self) -> None:
        """No event serialised yet."""
        self._key: tuple[object, str, int] | None = None
        self._body = ""

    def text(self, event: MoveMade) -> str:
        """``event`` as :func:`gamut_protocol.dump` writes it."""
        key = self._key
        if key is None or key[0] is not event.position or key[1:] != (event.room_id, event.seq):
            shared = event.model_dump_json(exclude_none=True, exclude=SPLICED)
            if not shared.startswith(HEAD) or not shared.endswith("}"):
                return dump(event)
            self._key = (event.position, event.room_id, event.seq)
            self._body = shared[len(HEAD) : -1]
        head = HEAD if event.reply_to is None else f'{HEAD}"reply_to":{_json(event.reply_to)},'
        if not event.legal_moves:
            return head + self._body + NO_MOVES
        return f'{head}{self._body},"legal_moves":{texts_json(event.legal_moves)}}}'


def texts_json(texts: tuple[str, ...]) -> str:
    """``texts`` as a JSON array, as pydantic writes it: joined as they are when they are
    printable and none holds a character JSON escapes (a quote, a backslash), which is
    several times quicker than serialising them (move texts always are)."""
    inner = '","'.join(texts)
    plain = inner.isprintable() and "\\" not in inner
    if not plain or inner.count('"') != 2 * (len(texts) - 1):
        return _json(texts)
    return f'["{inner}"]'


def _json(value: object) -> str:
    """``value`` as pydantic writes it in a model's JSON."""
    return to_json(value).decode()

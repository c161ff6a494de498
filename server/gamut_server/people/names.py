"""Names with one owner: one name whatever its case, and the names the server keeps.

Names are ASCII letters, digits, ``_``, ``.`` and ``-`` (the protocol's
``NAME_PATTERN``), so two names are one when they are equal once folded to lower case
(:func:`gamut_protocol.common.name_key`): ``Ada_L``, ``ada_l`` and ``ADA_L`` belong to
whoever took one of them first, and everyone sees that owner's spelling.

Some names are the server's own, for guests and accounts alike: the AI's (``ai``,
``ai-3``) and names that would pass for the service speaking (``admin``, ``system``…).
An account may not be called ``guest`` or ``guest-…`` either, so that such a name
always tells a guest.
"""

from __future__ import annotations

import re
from typing import Final

from gamut_protocol.common import MAX_NAME_LENGTH, NAME_PATTERN, name_key

AI_NAME: Final = re.compile(r"^ai(-\d+)?$")
"""Names kept for the server's own AI (``ai``, ``ai-3``), folded."""

SERVER_WORDS: Final = frozenset(
    {
        "admin",
        "administrator",
        "anonymous",
        "gamut",
        "mod",
        "moderator",
        "nobody",
        "null",
        "operator",
        "root",
        "server",
        "staff",
        "support",
        "system",
    }
)
"""Names that would pass for the service itself, folded."""

GUEST_NAME: Final = re.compile(r"^guest([-_.].*)?$")
"""Names only guests use (``guest-4711``), folded."""

_NAME: Final = re.compile(NAME_PATTERN)

NAME_RULE: Final = (
    f"a name has 1 to {MAX_NAME_LENGTH} letters, digits, '_', '.' or '-', "
    "and does not start with '.' or '-'"
)
"""What a name may be, in words."""


def reserved_because(name: str) -> str | None:
    """Why nobody may use ``name`` (the server keeps it), or ``None`` if it is free to take."""
    key = name_key(name)
    if AI_NAME.match(key):
        return f"the name {name!r} belongs to the server's AI"
    if key in SERVER_WORDS:
        return f"the name {name!r} is kept for the people who run this server"
    return None


def account_name_refusal(name: str) -> str | None:
    """Why ``name`` cannot be an account's, or ``None`` if it can (taken or not)."""
    if not 1 <= len(name) <= MAX_NAME_LENGTH or not _NAME.match(name):
        return NAME_RULE
    reserved = reserved_because(name)
    if reserved is not None:
        return reserved
    if GUEST_NAME.match(name_key(name)):
        return f"names starting with 'guest' are kept for guests: {name!r} cannot be an account"
    return None


__all__ = ["NAME_RULE", "account_name_refusal", "name_key", "reserved_because"]

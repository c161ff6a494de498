"""Player names as the protocol allows them, and what to say when one is not allowed.

A name is 1 to 24 ASCII letters, digits, ``_``, ``.`` and ``-``, not starting with
``.`` or ``-``. Plain ASCII keeps names that look alike but differ (a Cyrillic ``а``
for a Latin ``a``) from passing for one another. A name outside the rule is refused
with a sentence saying what is allowed and a name close to it that is; it is never
rewritten behind the person's back.
"""

from __future__ import annotations

import re
import unicodedata
from typing import Final

from gamut_protocol.common import MAX_NAME_LENGTH, NAME_PATTERN

NAME_RULE: Final = (
    f"a player's name is 1 to {MAX_NAME_LENGTH} plain ASCII letters, digits, '_', '.' "
    "or '-', not starting with '.' or '-' (no spaces or accents, so that names that "
    "look alike cannot pass for one another)"
)
"""The rule, in words."""


class InvalidNameError(ValueError):
    """A name the protocol does not allow; the message says why and what would do."""


def is_valid_name(name: str) -> bool:
    """Whether ``name`` may be played under."""
    return len(name) <= MAX_NAME_LENGTH and re.fullmatch(NAME_PATTERN, name) is not None


def suggest_name(text: str) -> str | None:
    """An allowed name close to ``text`` (accents dropped, spaces as ``_``), if any."""
    plain = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    name = re.sub(r"[^A-Za-z0-9_.-]", "", "_".join(plain.split())).lstrip(".-")
    name = name[:MAX_NAME_LENGTH]
    return name if name and is_valid_name(name) else None


def check_name(name: str) -> str:
    """``name`` itself if it is allowed; else :class:`InvalidNameError` saying what is."""
    if is_valid_name(name):
        return name
    shown = name if len(name) <= 40 else name[:37] + "…"
    suggestion = suggest_name(name)
    hint = f"; --name {suggestion} would do" if suggestion else ""
    raise InvalidNameError(f"{shown!r} cannot be used: {NAME_RULE}{hint}")

"""Commands typed on a chat line: ``/block NAME``, ``/unblock NAME``,
``/report NAME REASON`` and ``/challenges everyone|accounts|nobody``.

Pure: a typed line becomes the message to send, or a sentence saying how to type it.
A line not starting with ``/`` is chat, and ``//`` starts a chat line with ``/``.
"""

from __future__ import annotations

from typing import Final, get_args

from pydantic import ValidationError

from gamut_protocol import AcceptChallenges, Block, ClientMessage, Report, Unblock
from gamut_protocol.common import ChallengesFrom

HELP: Final = (
    "commands: /block NAME, /unblock NAME, /report NAME WHAT HAPPENED, "
    "/challenges everyone|accounts|nobody"
)
"""What the commands are, for a line that is none of them."""


def is_command(text: str) -> bool:
    """Whether a typed line is a command rather than chat."""
    return text.startswith("/") and not text.startswith("//")


def chat_text(text: str) -> str:
    """A typed chat line as it is said (``//`` stands for one ``/``)."""
    return text[1:] if text.startswith("//") else text


def parse_command(text: str, room_id: str | None = None) -> ClientMessage | str:
    """The message a command line asks for (a report in ``room_id``, if given; its ``id``
    the command's word, so that the answer is told), or a sentence saying what is wrong
    with it."""
    word, _, rest = text[1:].partition(" ")
    rest = rest.strip()
    name, _, reason = rest.partition(" ")
    try:
        match word.lower():
            case "block" if name and not reason:
                return Block(id=word, name=name)
            case "unblock" if name and not reason:
                return Unblock(id=word, name=name)
            case "report" if name and reason.strip():
                return Report(id=word, name=name, reason=reason.strip(), room_id=room_id)
            case "challenges" if rest in get_args(ChallengesFrom):
                return AcceptChallenges(id=word, challenges_from=rest)  # type: ignore[arg-type]
    except ValidationError:
        return f"{name!r} is no player's name; {HELP}"
    return HELP

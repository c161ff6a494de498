"""What is in force, read from the sanctions: pure, no I/O.

A :class:`SanctionBook` is built from the sanctions in force when it was loaded; its
questions take the current time, so a sanction that expires between two loads stops
applying at once.
"""

from __future__ import annotations

import ipaddress
import re
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Final

from gamut_server.records.moderation import Sanction

_UNITS: Final = {"m": 60, "h": 3600, "d": 86_400, "w": 7 * 86_400}
_DURATION: Final = re.compile(r"^\s*(\d{1,6})\s*([mhdw])\s*$")

Network = ipaddress.IPv4Network | ipaddress.IPv6Network


def parse_duration(text: str) -> timedelta:
    """``30m``, ``12h``, ``7d`` or ``2w`` as a duration; ``ValueError`` with a sentence."""
    match = _DURATION.match(text.lower())
    if match is None or int(match.group(1)) == 0:
        raise ValueError(
            f"a duration is a whole number and a unit, m, h, d or w (say 7d), not {text!r}"
        )
    return timedelta(seconds=int(match.group(1)) * _UNITS[match.group(2)])


def parse_network(text: str) -> Network:
    """An address or a network range (``203.0.113.7``, ``203.0.113.0/24``, ``2001:db8::/32``);
    ``ValueError`` with a sentence."""
    try:
        return ipaddress.ip_network(text.strip(), strict=False)
    except ValueError:
        raise ValueError(
            f"{text!r} is neither an address nor a network range (say 203.0.113.0/24)"
        ) from None


def until_sentence(sanction: Sanction) -> str:
    """``until 2026-12-01 14:00 UTC`` or ``for good``."""
    if sanction.expires_at is None:
        return "for good"
    return f"until {sanction.expires_at:%Y-%m-%d %H:%M} UTC"


def banned_sentence(sanction: Sanction) -> str:
    """What a banned player is told when their sign-in is refused or their session ends."""
    return f"the account {sanction.shown!r} is banned {until_sentence(sanction)}: {sanction.reason}"


def muted_sentence(sanction: Sanction) -> str:
    """What a muted player is told when a chat line is refused."""
    return f"you are muted {until_sentence(sanction)}: {sanction.reason}"


def address_sentence(sanction: Sanction) -> str:
    """What a client from a banned network is told before its WebSocket opens."""
    return f"your address is banned {until_sentence(sanction)}: {sanction.reason}"


def taken_off_sentence(sanction: Sanction, name: str) -> str:
    """What a guest taken off ``name`` (as they spell it) is told as their session ends."""
    return (
        f"a moderator took you off the name {name!r} {until_sentence(sanction)}: "
        f"{sanction.reason}; choose another name to play on"
    )


def name_kept_sentence(sanction: Sanction) -> str:
    """What a guest's ``hello`` under a name kept from guests is told."""
    return (
        f"guests may not use the name {sanction.shown!r} {until_sentence(sanction)}: "
        f"{sanction.reason}; choose another name"
    )


@dataclass(frozen=True, slots=True)
class _Range:
    network: Network
    sanction: Sanction


class SanctionBook:
    """The bans, mutes and names kept from guests in force, by name and by network."""

    def __init__(self, sanctions: Iterable[Sanction] = ()) -> None:
        """A book of ``sanctions`` (those no longer in force are ignored when asked)."""
        self._bans: dict[str, Sanction] = {}
        self._mutes: dict[str, Sanction] = {}
        self._kept: dict[str, Sanction] = {}
        self._ranges: list[_Range] = []
        for sanction in sanctions:
            self._add(sanction)

    def _add(self, sanction: Sanction) -> None:
        """File one sanction (the latest of a kind on a subject wins)."""
        if sanction.kind == "ban":
            self._bans[sanction.subject] = sanction
        elif sanction.kind == "mute":
            self._mutes[sanction.subject] = sanction
        elif sanction.kind == "name":
            self._kept[sanction.subject] = sanction
        else:
            self._ranges.append(_Range(parse_network(sanction.subject), sanction))

    def ban(self, name: str, now: datetime) -> Sanction | None:
        """The ban on the name (any case) in force at ``now``, if any."""
        return _in_force(self._bans.get(name.lower()), now)

    def mute(self, name: str, now: datetime) -> Sanction | None:
        """The mute on the name in force at ``now``, if any."""
        return _in_force(self._mutes.get(name.lower()), now)

    def kept_from_guests(self, name: str, now: datetime) -> Sanction | None:
        """The sanction keeping guests off the name (any case) at ``now``, if any."""
        return _in_force(self._kept.get(name.lower()), now)

    def address_ban(self, address: str, now: datetime) -> Sanction | None:
        """The ban of a network holding ``address`` in force at ``now``, if any."""
        try:
            ip = ipaddress.ip_address(address)
        except ValueError:
            return None
        for entry in self._ranges:
            same_family = ip.version == entry.network.version
            if same_family and ip in entry.network and entry.sanction.in_force(now):
                return entry.sanction
        return None

    def banned_names(self, now: datetime) -> set[str]:
        """Every name (folded) banned at ``now``."""
        return {name for name, sanction in self._bans.items() if sanction.in_force(now)}


def _in_force(sanction: Sanction | None, now: datetime) -> Sanction | None:
    """``sanction`` if it applies at ``now``."""
    return sanction if sanction is not None and sanction.in_force(now) else None

"""The game screen's sentences: the status line, the legend, and what the keys do now."""

from __future__ import annotations

from typing import Final

from gamut_client.tui.clock import describe_time_control
from gamut_client.tui.room_model import RoomModel, result_points
from gamut_client.tui.session import LinkState
from gamut_protocol import RatingChange
from gamut_protocol.room import ABANDONED, GameResult

AREA_NAMES: Final = {"dead": "cells no one may use"}
"""Sentences for areas that are not a side's goals."""

AWAY_TOO_LONG: Final = (
    "this client was cut off (a lost connection, or a computer put to sleep) for longer "
    "than the server keeps a seat for a player who left, so the game went to your "
    "opponent. ctrl+t offers a rematch; Esc goes back to the lobby for a new game."
)
"""What happened, and what to do, when this client's absence lost the game."""


def status_text(room: RoomModel, link: LinkState) -> str:
    """The top line: the game, the room, the time control, spectators and the link."""
    parts = [
        room.descriptor.title,
        f"room {room.room_id}",
        describe_time_control(room.time_control),
        f"{room.spectators} watching",
    ]
    if room.rated:
        parts.append("rated")
    if room.your_side is None:
        parts.append("you are watching")
    parts.append(link.text)
    return " · ".join(parts)


def area_legend(room: RoomModel) -> list[tuple[str, str]]:
    """Each area this game's board shades, and what it is."""
    sides = room.descriptor.sides
    lines = []
    for name in sorted(room.descriptor.geometry.areas):
        if name.startswith("goal:") and name[5:] in ("0", "1"):
            lines.append((name, f"{sides[int(name[5:])]}'s goal"))
        else:
            lines.append((name, AREA_NAMES.get(name, name)))
    return lines


def keys_hint(room: RoomModel, selected: str | None) -> str:
    """What the keys do at this moment."""
    if room.your_side is None:
        return "arrows look around · Esc back to the lobby"
    if not room.running:
        return "ctrl+t rematch · ctrl+n decline a rematch · Esc back to the lobby"
    if selected is not None:
        return f"{selected} picked up: arrows to a highlighted cell, Enter moves, Esc puts back"
    if room.my_turn:
        return "arrows move · Enter picks up or places · or just type a move and Enter"
    return "waiting for the opponent · ctrl+o offer a draw · ctrl+r resign"


def offer_prompt(room: RoomModel) -> str | None:
    """What to answer to the opponent's pending offer, if any."""
    if room.your_side is None:
        return None
    theirs = 1 - room.your_side
    if room.running and room.draw_offer == theirs:
        return f"{room.players[theirs].name} offers a draw: ctrl+o accepts, ctrl+n declines"
    if not room.running and room.rematch_offer == theirs:
        return f"{room.players[theirs].name} offers a rematch: ctrl+t accepts, ctrl+n declines"
    return None


def result_text(room: RoomModel) -> str | None:
    """The result from this client's point of view once the game is over, and the new
    ratings once a rated game is rated."""
    text = _outcome_text(room)
    if text is None or room.ratings is None:
        return text
    return f"{text} · New ratings: {', '.join(map(rating_change_text, room.ratings))}"


def rating_change_text(change: RatingChange) -> str:
    """One player's new rating: ``Ada_L 1562? (+62)``."""
    provisional = "?" if change.provisional else ""
    sign = "+" if change.change > 0 else "−" if change.change < 0 else "±"
    return f"{change.name} {change.rating}{provisional} ({sign}{abs(change.change)})"


def _outcome_text(room: RoomModel) -> str | None:
    """The result for the one reading it, once the game is over: who won and what that
    means for them, the score, then the game's own sentence: "You won (1-0): X makes five
    in a row", "ada won (1-0): …" for a watcher, "Draw (½-½): Drawn by agreement"."""
    result = room.result
    if result is None:
        return None
    sentence = result.message or result.reason
    score = result_points(result)
    if score is None:
        return sentence
    lost = result.winner is not None and room.your_side not in (None, result.winner)
    if lost and result.reason == ABANDONED:
        sentence = AWAY_TOO_LONG
    return f"{_verdict(room, result)} ({score[0]}-{score[1]}): {sentence}"


def _verdict(room: RoomModel, result: GameResult) -> str:
    """The verdict for the reader: You won, You lost, ada won (for a watcher) or Draw."""
    if result.winner is None:
        return "Draw"
    if room.your_side is None:
        return f"{room.players[result.winner].name} won"
    return "You won" if result.winner == room.your_side else "You lost"

"""Open seeks and challenges: who made each, who may see it, and who may accept it."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from gamut_protocol import NamedOpponent, Seek, SeekInfo
from gamut_server.rooms.effects import ConnectionId, Who
from gamut_server.rooms.rated import ShownRating
from gamut_server.rooms.spec import RoomSpec, SeatSpec


@dataclass(frozen=True, slots=True)
class OpenSeek:
    """A seek waiting in the lobby."""

    info: SeekInfo
    """The seek as clients see it."""
    author: Who
    """The connection that made it; the game starts with that connection seated."""

    @property
    def seek_id(self) -> str:
        """The seek's id."""
        return self.info.seek_id

    @property
    def challenged(self) -> str | None:
        """The one player who may accept it, for a challenge; ``None`` for an open seek."""
        opponent = self.info.opponent
        return opponent.name if isinstance(opponent, NamedOpponent) else None

    def visible_to(self, who: Who) -> bool:
        """Whether ``who`` may see (and, unless they made it, accept) this seek."""
        challenged = self.challenged
        return challenged is None or who.name in (challenged, self.author.name)

    def spec(self, acceptor: Who, author_side: int, rating: ShownRating | None = None) -> RoomSpec:
        """The game the seek becomes when ``acceptor`` takes it, the author on
        ``author_side``; a rated seek's seats show the author's rating and ``rating``."""
        info = self.info
        author = SeatSpec(
            name=self.author.name,
            kind=self.author.kind,
            account=self.author.account,
            rating=info.author_rating,
            provisional=bool(info.author_provisional),
        )
        other = SeatSpec(
            name=acceptor.name,
            kind=acceptor.kind,
            account=acceptor.account,
            rating=None if rating is None else rating.rating,
            provisional=rating is not None and rating.provisional,
        )
        seats = (author, other) if author_side == 0 else (other, author)
        return RoomSpec(
            game=info.game,
            options=info.options,
            seats=seats,
            time_control=info.time_control,
            rated=info.rated,
        )


class SeekBook:
    """Every open seek, in the order they were made."""

    def __init__(self, prefix: str = "s") -> None:
        """No seeks; new ones are numbered after ``prefix``."""
        self._seeks: dict[str, OpenSeek] = {}
        self._prefix = prefix
        self._made = 0

    def __iter__(self) -> Iterator[OpenSeek]:
        """Every open seek, oldest first."""
        return iter(list(self._seeks.values()))

    def __len__(self) -> int:
        """How many seeks are open."""
        return len(self._seeks)

    def new_id(self) -> str:
        """A fresh seek id."""
        self._made += 1
        while f"{self._prefix}{self._made}" in self._seeks:
            self._made += 1
        return f"{self._prefix}{self._made}"

    def restore(self, seek: OpenSeek) -> OpenSeek | None:
        """Open again ``seek``, kept from an earlier lobby, under its id if that id is
        free (under a fresh one if a new seek took it); ``None`` if it is open already.
        An id is never given twice: ids made afterwards follow a restored one of the same
        prefix."""
        held = self._seeks.get(seek.seek_id)
        if held is not None:
            return None if held.info == seek.info else self._restore_renamed(seek)
        number = seek.seek_id.removeprefix(self._prefix)
        if seek.seek_id.startswith(self._prefix) and number.isdigit():
            self._made = max(self._made, int(number))
        self.add(seek)
        return seek

    def _restore_renamed(self, seek: OpenSeek) -> OpenSeek:
        """Open ``seek`` again under a fresh id."""
        info = seek.info.model_copy(update={"seek_id": self.new_id()})
        renamed = OpenSeek(info, seek.author)
        self.add(renamed)
        return renamed

    def add(self, seek: OpenSeek) -> None:
        """Open ``seek``."""
        self._seeks[seek.seek_id] = seek

    def get(self, seek_id: str, who: Who) -> OpenSeek | None:
        """The seek ``seek_id`` if ``who`` may see it."""
        seek = self._seeks.get(seek_id)
        return seek if seek is not None and seek.visible_to(who) else None

    def remove(self, seek_id: str) -> OpenSeek | None:
        """Close the seek ``seek_id``; returns it if it was open."""
        return self._seeks.pop(seek_id, None)

    def by_author(self, name: str) -> list[OpenSeek]:
        """The seeks ``name`` has open."""
        return [seek for seek in self._seeks.values() if seek.author.name == name]

    def made_on(self, conn: ConnectionId) -> list[OpenSeek]:
        """The seeks made on connection ``conn``."""
        return [seek for seek in self._seeks.values() if seek.author.conn == conn]

    def challenging(self, name: str) -> list[OpenSeek]:
        """The challenges to ``name``."""
        return [seek for seek in self._seeks.values() if seek.challenged == name]

    def visible_to(self, who: Who) -> list[OpenSeek]:
        """The seeks ``who`` may see: open ones, their own, and challenges to them."""
        return [seek for seek in self._seeks.values() if seek.visible_to(who)]


def seek_info(
    seek_id: str,
    author: str,
    title: str,
    message: Seek,
    options: dict[str, bool | int | str],
    rating: ShownRating | None = None,
) -> SeekInfo:
    """The lobby's view of a ``seek`` message, with the game's full options (and for a
    rated seek, its author's ``rating``)."""
    return SeekInfo(
        seek_id=seek_id,
        author=author,
        title=title,
        game=message.game,
        options=options,
        time_control=message.time_control,
        opponent=message.opponent,
        side=message.side,
        rated=message.rated,
        rating_range=message.rating_range if message.rated else None,
        author_rating=None if rating is None else rating.rating,
        author_provisional=None if rating is None else rating.provisional or None,
    )


def coin(rng: random.Random | None = None) -> Callable[[], int]:
    """A fair coin for drawing sides: returns 0 or 1."""
    source = rng if rng is not None else random.SystemRandom()
    return lambda: source.randrange(2)

"""What the store raises when a write cannot be accepted."""

from __future__ import annotations


class StorageError(Exception):
    """Base of every error the store raises on purpose."""


class StorageUnavailableError(StorageError):
    """The database could not take the write (a dropped connection, a restart, a locked,
    full or read-only file): nothing of it was stored, and it may be made again later."""


class FencedError(StorageError):
    """The writer no longer holds the game: another node took its room over (the game's
    epoch moved on), so the write was refused and nothing of it stored."""

    def __init__(self, game_id: str, epoch: int, current: int) -> None:
        super().__init__(f"game {game_id!r} is at epoch {current}, not {epoch}: it moved")
        self.game_id = game_id
        """The game written to."""
        self.epoch = epoch
        """The epoch the writer held."""
        self.current = current
        """The game's epoch now."""


class GameNotFoundError(StorageError, LookupError):
    """No game has the given id."""

    def __init__(self, game_id: str) -> None:
        super().__init__(f"no game with id {game_id!r}")
        self.game_id = game_id
        """The id that was looked up."""


class DuplicateGameError(StorageError):
    """A game with the chosen id already exists."""

    def __init__(self, game_id: str) -> None:
        super().__init__(f"a game with id {game_id!r} already exists")
        self.game_id = game_id
        """The id that is taken."""


class GameStateError(StorageError):
    """The game's status does not allow the write (a move in a finished game…)."""

    def __init__(self, game_id: str, status: str, action: str) -> None:
        super().__init__(f"cannot {action} game {game_id!r}: it is {status}")
        self.game_id = game_id
        """The game written to."""
        self.status = status
        """The status the game is in."""


class DuplicateMoveError(StorageError):
    """A move with this ply is already stored for the game."""

    def __init__(self, game_id: str, ply: int) -> None:
        super().__init__(f"game {game_id!r} already has a move at ply {ply}")
        self.game_id = game_id
        """The game written to."""
        self.ply = ply
        """The ply that was already taken."""


class MoveOrderError(StorageError):
    """The move's ply skips ahead of the next free ply."""

    def __init__(self, game_id: str, ply: int, expected: int) -> None:
        super().__init__(f"game {game_id!r} expects ply {expected}, not {ply}")
        self.game_id = game_id
        """The game written to."""
        self.ply = ply
        """The ply that was given."""
        self.expected = expected
        """The ply the game expects next."""


class DuplicateChatError(StorageError):
    """A chat line with this sequence number is already stored for the room."""

    def __init__(self, room: str, seq: int) -> None:
        super().__init__(f"room {room!r} already has a chat line at seq {seq}")
        self.room = room
        """The room written to."""
        self.seq = seq
        """The sequence number that was already taken."""


class DuplicateAccountError(StorageError):
    """An account with this name already exists."""

    def __init__(self, name: str) -> None:
        super().__init__(f"an account named {name!r} already exists")
        self.name = name
        """The name that is taken."""


class StoreClosedError(StorageError):
    """A write came after the store began to close."""

    def __init__(self) -> None:
        super().__init__("the store is closed")


class SchemaError(StorageError):
    """The database's tables are not the ones this Gamut uses, and were not changed."""

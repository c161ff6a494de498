"""One room as the game screen shows it, kept up to date from the server's messages.

:class:`RoomModel` starts from a ``room_snapshot`` and applies each room event
(moves, the end of the game, draw and rematch offers, players coming and going,
chat) and the errors answering this client's requests in the room. It does no
I/O: the moment a message arrived is passed in, so the clocks can be counted down
and every method can be tested with made-up times.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from gamut_client.tui.clock import ClockState
from gamut_client.tui.moves import cells_in_text
from gamut_protocol import (
    ChatEntry,
    ChatLine,
    ChatRemoved,
    Clocks,
    DrawDeclined,
    DrawOffered,
    ErrorMessage,
    GameDescriptor,
    GameOver,
    GameRated,
    GameResult,
    MoveMade,
    MoveRecord,
    PlayerConnected,
    PlayerDisconnected,
    Position,
    RatingChange,
    RematchDeclined,
    RematchOffered,
    RematchStarted,
    RoomSnapshot,
    RoomStatus,
    RoomUpdated,
    Seat,
    ServerMessage,
    Side,
    TimeControl,
)
from gamut_protocol.room import ABORTED

Offer = DrawOffered | DrawDeclined | RematchOffered | RematchDeclined
"""The events about draw and rematch offers."""

MAX_CHAT_LINES = 500
"""Chat lines kept per room."""


@dataclass
class RoomModel:
    """Everything the game screen shows about one room."""

    room_id: str
    """The room's id."""
    descriptor: GameDescriptor
    """The game: title, sides, board geometry and notation."""
    players: tuple[Seat, Seat]
    """Who plays side 0 and side 1."""
    your_side: Side | None
    """The side this client plays; ``None`` when watching."""
    position: Position
    """The current position."""
    legal_moves: tuple[str, ...]
    """Every legal move of the side to move."""
    time_control: TimeControl
    """The room's time control."""
    status: RoomStatus = "running"
    """Whether the game is still being played."""
    moves: list[MoveRecord] = field(default_factory=list)
    """Every move played, in order."""
    rated: bool = False
    """Whether the game counts for ratings."""
    ratings: tuple[RatingChange, RatingChange] | None = None
    """Both players' new ratings, once a rated game between people has been rated."""
    spectators: int = 0
    """How many are watching."""
    clock: ClockState | None = None
    """Both clocks as last read, or ``None`` when untimed."""
    result: GameResult | None = None
    """How the game ended."""
    draw_offer: Side | None = None
    """The side offering a draw, if one is pending."""
    rematch_offer: Side | None = None
    """The side offering a rematch, if one is pending."""
    chat: list[ChatEntry] = field(default_factory=list)
    """The room's chat, oldest first."""
    chat_epoch: int = 0
    """Bumped whenever :attr:`chat` is replaced rather than added to."""
    chat_total: int = 0
    """Chat lines received since :attr:`chat_epoch` last changed (old ones are dropped)."""
    last_cells: tuple[str, ...] = ()
    """The cells the last move touched."""
    rematch_room: str | None = None
    """The room a rematch is played in, once both agreed."""
    notice: str | None = None
    """The latest thing to tell the player: a refused move's sentence, an offer…"""
    notices: int = 0
    """How many times :attr:`notice` was set, so the same sentence twice shows twice."""
    clock_paused: bool = False
    """Whether the clocks are shown stopped until the server's next reading (the link
    dropped: the server may pause them for its downtime)."""

    @classmethod
    def from_snapshot(cls, snapshot: RoomSnapshot, now: float) -> RoomModel:
        """The room as ``snapshot`` describes it, received at ``now``."""
        model = cls(
            room_id=snapshot.room_id,
            descriptor=snapshot.game,
            players=snapshot.players,
            your_side=snapshot.your_side,
            position=snapshot.position,
            legal_moves=snapshot.legal_moves,
            time_control=snapshot.time_control,
        )
        model.reset(snapshot, now)
        return model

    def reset(self, snapshot: RoomSnapshot, now: float) -> None:
        """Replace everything known by ``snapshot`` (a resume the server could not replay)."""
        self.descriptor = snapshot.game
        self.players = snapshot.players
        self.your_side = snapshot.your_side
        self.position = snapshot.position
        self.legal_moves = snapshot.legal_moves
        self.time_control = snapshot.time_control
        self.status = snapshot.status
        self.moves = list(snapshot.moves)
        self.rated = snapshot.rated
        self.ratings = snapshot.ratings
        self.spectators = snapshot.spectators
        self.result = snapshot.result
        self.draw_offer = snapshot.draw_offer
        self.rematch_offer = snapshot.rematch_offer
        self.chat = list(snapshot.chat[-MAX_CHAT_LINES:])
        self.chat_epoch += 1
        self.chat_total = len(self.chat)
        self._read_clocks(snapshot.clocks, now)
        last = snapshot.moves[-1].move if snapshot.moves else ""
        self.last_cells = cells_in_text(last, snapshot.game.cells)

    def apply(self, message: ServerMessage, now: float) -> bool:
        """Apply one message about this room, received at ``now``; whether it changed anything."""
        match message:
            case RoomSnapshot():
                self.reset(message, now)
            case MoveMade():
                self._moved(message, now)
            case GameOver():
                self._ended(message.result, message.clocks, now)
            case GameRated():
                self.ratings = message.players
            case DrawOffered() | DrawDeclined() | RematchOffered() | RematchDeclined():
                self._offer(message)
            case RematchStarted():
                self.rematch_room = message.new_room_id
                self._tell("Rematch agreed: the new game starts.")
            case PlayerConnected() | PlayerDisconnected():
                self._presence(message)
            case ChatLine():
                self._said(ChatEntry(author=message.author, text=message.text, seq=message.seq))
            case ChatRemoved():
                self.chat = [entry for entry in self.chat if entry.seq != message.line_seq]
                self.chat_epoch += 1
                self.chat_total = len(self.chat)
            case ErrorMessage():
                self._tell(message.message)
            case RoomUpdated():
                self.spectators = message.room.spectators
            case _:
                return False
        return True

    def _read_clocks(self, clocks: Clocks | None, now: float) -> None:
        """Take a new clock reading, if the message had one."""
        if clocks is not None:
            self.clock = ClockState(clocks, now)
            self.clock_paused = False

    def pause_clocks(self, now: float) -> None:
        """Stop counting at ``now`` until the server's next reading: the link dropped."""
        if self.clock is None or self.clock.running is None or not self.running:
            return
        shown = tuple(self.clock.remaining_ms(side, now) for side in (0, 1))
        self.clock = ClockState(Clocks(remaining_ms=(shown[0], shown[1])), now)
        self.clock_paused = True

    def _moved(self, made: MoveMade, now: float) -> None:
        """A move was played."""
        self.moves.append(MoveRecord(move=made.move, think_ms=made.think_ms))
        self.position = made.position
        self.legal_moves = made.legal_moves
        self.last_cells = made.cells or cells_in_text(made.move, self.descriptor.cells)
        self.draw_offer = None
        self._read_clocks(made.clocks, now)
        mine = made.side == self.your_side
        self._tell(None if mine else f"{self.name_of(made.side)} played {made.move}")

    def _ended(self, result: GameResult, clocks: Clocks | None, now: float) -> None:
        """The game is over."""
        self.result = result
        self.status = "aborted" if result.reason == "aborted" else "finished"
        self.legal_moves = ()
        self.draw_offer = None
        self._read_clocks(clocks, now)
        if self.clock is not None and self.clock.running is not None:
            stopped = Clocks(remaining_ms=self.clock.clocks.remaining_ms)
            self.clock = ClockState(stopped, self.clock.received_at)
        self._tell(None)

    def _offer(self, message: Offer) -> None:
        """A draw or rematch offer was made or declined."""
        match message:
            case DrawOffered():
                self.draw_offer = message.side
                self._tell(f"{self._does(message.side, 'offer')} a draw.")
            case DrawDeclined():
                self.draw_offer = None
                self._tell(f"{self._does(message.side, 'decline')} the draw.")
            case RematchOffered():
                self.rematch_offer = message.side
                self._tell(f"{self._does(message.side, 'offer')} a rematch.")
            case RematchDeclined():
                self.rematch_offer = None
                self._tell(f"{self._does(message.side, 'decline')} the rematch.")

    def _does(self, side: Side, verb: str) -> str:
        """``You offer`` or ``bob offers``: the player of ``side`` doing ``verb``."""
        return f"You {verb}" if side == self.your_side else f"{self.players[side].name} {verb}s"

    def _presence(self, message: PlayerConnected | PlayerDisconnected) -> None:
        """A player left or came back."""
        connected = isinstance(message, PlayerConnected)
        seats = list(self.players)
        seats[message.side] = seats[message.side].model_copy(update={"connected": connected})
        self.players = (seats[0], seats[1])
        who = self.name_of(message.side)
        if connected:
            self._tell("You are back." if who == "You" else f"{who} is back.")
        else:
            grace = getattr(message, "grace_ms", None)
            limit = f" ({grace // 1000} s to come back)" if grace else ""
            self._tell(f"{who} lost the connection{limit}.")

    def _said(self, entry: ChatEntry) -> None:
        """A chat line in the room."""
        self.chat.append(entry)
        self.chat_total += 1
        del self.chat[:-MAX_CHAT_LINES]

    def _tell(self, notice: str | None) -> None:
        """Set the notice."""
        self.notice = notice
        self.notices += 1

    @property
    def running(self) -> bool:
        """Whether the game is still being played."""
        return self.status == "running"

    @property
    def my_turn(self) -> bool:
        """Whether this client is to move now."""
        return self.running and self.your_side == self.position.to_move

    def name_of(self, side: Side) -> str:
        """The player of ``side``, as ``You`` when it is this client."""
        return "You" if side == self.your_side else self.players[side].name

    def side_label(self, side: Side) -> str:
        """``ada (White)``: the player and the side they play."""
        return f"{self.players[side].name} ({self.descriptor.sides[side]})"

    def clock_ms(self, side: Side, now: float) -> int | None:
        """What ``side``'s clock shows at ``now``; ``None`` when untimed."""
        return None if self.clock is None else self.clock.remaining_ms(side, now)

    def headline(self) -> str:
        """One line saying where the game stands."""
        if self.result is not None:
            score = result_points(self.result)
            if score is None:
                return "Game over: " + (self.result.message or self.result.reason)
            first, second = (seat.name for seat in self.players)
            return f"Game over: {first} {score[0]}-{score[1]} {second}"
        to_move = self.position.to_move
        if self.your_side is None:
            return f"{self.side_label(to_move)} to move"
        if to_move == self.your_side:
            return f"Your move ({self.descriptor.sides[to_move]})"
        if self.ai_thinking:
            return f"{self.side_label(to_move)} is thinking…"
        return f"Waiting for {self.side_label(to_move)}"

    @property
    def ai_thinking(self) -> bool:
        """Whether the server's AI is choosing a move now."""
        return self.running and self.players[self.position.to_move].kind == "ai"

    def move_rows(self) -> list[str]:
        """The move list in numbered pairs: ``1. b2-b4  e2-c2``."""
        texts = [record.move for record in self.moves]
        width = max((len(text) for text in texts), default=0)
        rows = []
        for number, index in enumerate(range(0, len(texts), 2), start=1):
            reply = texts[index + 1] if index + 1 < len(texts) else ""
            rows.append(f"{number:>3}. {texts[index]:<{width}}  {reply}".rstrip())
        return rows

    @property
    def winning_line(self) -> frozenset[str]:
        """The cells of the winning network or line, once the game has one."""
        return frozenset(self.result.line) if self.result is not None else frozenset()


def result_points(result: GameResult) -> tuple[str, str] | None:
    """Each side's points: ``("1", "0")``, ``("0", "1")``, ``("½", "½")``; ``None`` when
    the game was aborted."""
    if result.reason == ABORTED:
        return None
    if result.winner is None:
        return ("½", "½")
    return ("1", "0") if result.winner == 0 else ("0", "1")

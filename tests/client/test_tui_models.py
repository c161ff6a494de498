"""The terminal client's view models: rooms, clocks, the lobby, the session and the forms."""

from __future__ import annotations

import pytest

from gamut_client.link import Disconnected, Reconnected
from gamut_client.tui import game_text
from gamut_client.tui.clock import ClockState, describe_time_control, format_clock
from gamut_client.tui.lobby_model import LobbyModel, room_row, seek_row
from gamut_client.tui.room_model import MAX_CHAT_LINES, RoomModel
from gamut_client.tui.seek_form import FormError, SeekForm, build_seek, option_value
from gamut_client.tui.session import LinkState, Session
from gamut_engine import load_game
from gamut_protocol import (
    AiOpponent,
    ChatLine,
    Clocks,
    DrawDeclined,
    DrawOffered,
    ErrorMessage,
    Fischer,
    GameInfo,
    GameOver,
    GameResult,
    Join,
    LobbySnapshot,
    NamedOpponent,
    NotationHint,
    OptionInfo,
    PerMove,
    PlayerDisconnected,
    RematchOffered,
    RematchStarted,
    RoomLeft,
    RoomRemoved,
    RoomSummary,
    RoomUpdated,
    Seat,
    SeekCreated,
    SeekInfo,
    SeekRemoved,
    TournamentStatus,
    Untimed,
    Welcome,
)
from tests.client.tui_support import (
    PLAYERS,
    WHITE_WINS,
    game_over,
    move_made,
    network,
    snapshot,
)

FIVE_SECONDS = PerMove(move_ms=5000)


def test_a_clock_counts_down_only_on_the_running_side_and_never_below_zero() -> None:
    clock = ClockState(Clocks(remaining_ms=(5000, 5000), running=1), received_at=100.0)
    assert clock.remaining_ms(0, now=102.5) == 5000
    assert clock.remaining_ms(1, now=102.5) == 2500
    assert clock.remaining_ms(1, now=110.0) == 0
    assert clock.remaining_ms(1, now=99.0) == 5000


def test_clock_readings_for_people() -> None:
    assert format_clock(9_450) == "9.4"
    assert format_clock(10_000) == "0:10"
    assert format_clock(299_999) == "4:59"
    assert format_clock(3_723_000) == "1:02:03"
    assert format_clock(-5) == "0.0"
    assert describe_time_control(Untimed()) == "untimed"
    assert describe_time_control(FIVE_SECONDS) == "5 s a move"
    assert describe_time_control(Fischer(initial_ms=300_000, increment_ms=2_000)) == "5 min + 2 s"


def test_a_room_follows_moves_and_its_clocks_from_the_snapshot_on() -> None:
    game = network()
    clocks = Clocks(remaining_ms=(5000, 5000), running=0)
    room = RoomModel.from_snapshot(snapshot(game, clocks=clocks, time_control=FIVE_SECONDS), 10.0)
    assert (room.my_turn, room.headline()) == (True, "Your move (White)")
    assert room.clock_ms(0, 11.0) == 4000
    after = Clocks(remaining_ms=(5000, 5000), running=1)
    assert room.apply(move_made(game, (), "01", seq=1, clocks=after), 12.0)
    assert (room.my_turn, room.headline()) == (False, "Waiting for bot7 (Black)")
    assert room.clock_ms(1, 13.5) == 3500
    assert room.clock_ms(0, 13.5) == 5000
    assert (room.last_cells, room.notice) == (("01",), None)
    room.apply(move_made(game, ("01",), "10", seq=2), 14.0)
    assert room.notice == "bot7 played 10"
    assert room.move_rows() == ["  1. 01  10"]


def test_the_end_of_a_game_stops_the_clocks_and_shows_the_winning_network() -> None:
    game = network()
    moves = WHITE_WINS[:-1]
    clocks = Clocks(remaining_ms=(4000, 3000), running=0)
    room = RoomModel.from_snapshot(snapshot(game, moves, your_side=1, clocks=clocks), 0.0)
    room.apply(move_made(game, moves, WHITE_WINS[-1], seq=1), 1.0)
    room.apply(game_over(game, WHITE_WINS, seq=2), 1.0)
    assert room.status == "finished"
    assert not room.legal_moves
    assert room.winning_line == {"01", "31", "34", "64", "61", "72"}
    assert room.headline() == "Game over: ada 1-0 bot7"
    assert room.clock is not None
    assert room.clock.running is None
    assert room.clock_ms(0, 100.0) == 4000
    assert game_text.result_text(room) == "You lost (1-0): White completes a network"
    assert room.move_rows()[-1] == "  6. 64"


def test_a_game_lost_by_being_away_says_what_happened_and_what_to_do() -> None:
    room = RoomModel.from_snapshot(snapshot(network(), ("01",)), 0.0)
    left = GameResult(winner=1, reason="abandoned", message="ada left the game: bot7 wins")
    room.apply(GameOver(room_id="r1", seq=2, result=left), 1.0)
    said = game_text.result_text(room)
    assert said is not None
    assert said.startswith("You lost (0-1): this client was cut off")
    assert "ctrl+t offers a rematch" in said
    won = GameResult(winner=0, reason="abandoned", message="bot7 left the game: ada wins")
    room.apply(GameOver(room_id="r1", seq=3, result=won), 2.0)
    assert game_text.result_text(room) == "You won (1-0): bot7 left the game: ada wins"


def test_a_finished_snapshot_highlights_the_line_at_once() -> None:
    room = RoomModel.from_snapshot(snapshot(network(), WHITE_WINS, your_side=None), 0.0)
    assert room.status == "finished"
    assert len(room.winning_line) == 6
    assert room.last_cells == ("64",)
    assert game_text.result_text(room) == "ada won (1-0): White completes a network"


def test_a_draw_shows_half_points_and_an_aborted_game_no_score() -> None:
    room = RoomModel.from_snapshot(snapshot(network(), ("01",)), 0.0)
    drawn = GameResult(reason="agreement", message="Drawn by agreement")
    room.apply(GameOver(room_id="r1", seq=2, result=drawn), 1.0)
    assert game_text.result_text(room) == "Draw (½-½): Drawn by agreement"
    assert room.headline() == "Game over: ada ½-½ bot7"
    aborted = GameResult(reason="aborted", message="The game was aborted")
    room.apply(GameOver(room_id="r1", seq=3, result=aborted), 2.0)
    assert game_text.result_text(room) == "The game was aborted"
    assert room.headline() == "Game over: The game was aborted"


def test_offers_presence_chat_and_refusals_become_notices() -> None:
    room = RoomModel.from_snapshot(snapshot(network()), 0.0)
    room.apply(DrawOffered(room_id="r1", seq=1, side=1), 0.0)
    assert (room.draw_offer, room.notice) == (1, "bot7 offers a draw.")
    assert game_text.offer_prompt(room) == "bot7 offers a draw: ctrl+o accepts, ctrl+n declines"
    room.apply(DrawDeclined(room_id="r1", seq=2, side=0), 0.0)
    assert (room.draw_offer, room.notice) == (None, "You decline the draw.")
    room.apply(PlayerDisconnected(room_id="r1", seq=3, side=1, grace_ms=60_000), 0.0)
    assert not room.players[1].connected
    assert room.notice == "bot7 lost the connection (60 s to come back)."
    error = ErrorMessage(code="illegal_move", message="45 is already occupied.", room_id="r1")
    before = room.notices
    room.apply(error, 0.0)
    room.apply(error, 0.0)
    assert room.notice == "45 is already occupied."
    assert room.notices == before + 2
    for number in range(MAX_CHAT_LINES + 3):
        room.apply(ChatLine(room_id="r1", seq=4 + number, author="bot7", text=f"hi {number}"), 0)
    assert len(room.chat) == MAX_CHAT_LINES
    assert room.chat_total == MAX_CHAT_LINES + 3
    assert room.chat[-1].text == f"hi {MAX_CHAT_LINES + 2}"


def test_rematch_offers_after_the_game() -> None:
    room = RoomModel.from_snapshot(snapshot(network(), WHITE_WINS), 0.0)
    room.apply(RematchOffered(room_id="r1", seq=1, side=1), 0.0)
    assert game_text.offer_prompt(room) == "bot7 offers a rematch: ctrl+t accepts, ctrl+n declines"
    room.apply(RematchStarted(room_id="r1", seq=2, new_room_id="r2"), 0.0)
    assert room.rematch_room == "r2"


def test_a_snapshot_replaces_everything_and_restarts_the_chat() -> None:
    game = network()
    room = RoomModel.from_snapshot(snapshot(game), 0.0)
    room.apply(ChatLine(room_id="r1", seq=1, author="ada", text="hello"), 0.0)
    epoch = room.chat_epoch
    room.apply(snapshot(game, ("01", "10", "72"), seq=9), 5.0)
    assert room.position.ply == 3
    assert room.chat == []
    assert room.chat_epoch == epoch + 1
    assert room.last_cells == ("72",)


def test_the_status_line_and_the_key_hints_follow_the_game() -> None:
    room = RoomModel.from_snapshot(snapshot(network(), time_control=FIVE_SECONDS), 0.0)
    link = LinkState(False, "connection lost (boom); reconnecting…")
    assert game_text.status_text(room, link) == (
        "Network · room r1 · 5 s a move · 0 watching · connection lost (boom); reconnecting…"
    )
    assert game_text.keys_hint(room, None).startswith("arrows move")
    assert game_text.keys_hint(room, "01").startswith("01 picked up")
    watched = RoomModel.from_snapshot(snapshot(network(), your_side=None), 0.0)
    assert "you are watching" in game_text.status_text(watched, link)
    assert [name for name, _ in game_text.area_legend(room)] == ["dead", "goal:0", "goal:1"]
    crusher = RoomModel.from_snapshot(snapshot(load_game("crusher", n=3)), 0.0)
    assert game_text.area_legend(crusher) == []


def summary(room_id: str = "r5", ply: int = 3) -> RoomSummary:
    return RoomSummary(room_id=room_id, game="network", title="Network", players=PLAYERS, ply=ply)


def seek(seek_id: str = "s1", author: str = "bob") -> SeekInfo:
    return SeekInfo(
        seek_id=seek_id,
        author=author,
        title="Connect Five 15×15",
        game="connect5",
        opponent=NamedOpponent(name="ada"),
        time_control=FIVE_SECONDS,
    )


def test_the_lobby_follows_rooms_seeks_and_chat() -> None:
    lobby = LobbyModel(me="ada")
    lobby.apply(LobbySnapshot(rooms=(summary(),), seeks=(seek(),), online=4))
    assert list(lobby.rooms) == ["r5"]
    assert list(lobby.seeks) == ["s1"]
    assert lobby.online == 4
    assert lobby.apply(RoomUpdated(room=summary(ply=4)))
    assert lobby.rooms["r5"].ply == 4
    lobby.apply(SeekCreated(seek=seek("s2", "ada")))
    assert [s.seek_id for s in lobby.my_seeks()] == ["s2"]
    lobby.apply(SeekRemoved(seek_id="s1", reason="accepted", room_id="r6"))
    lobby.apply(RoomRemoved(room_id="r5"))
    assert list(lobby.seeks) == ["s2"]
    assert not lobby.rooms
    assert lobby.apply(ChatLine(author="bob", text="anyone?"))
    assert not lobby.apply(ChatLine(room_id="r5", seq=2, author="bob", text="room talk"))
    assert [line.text for line in lobby.chat] == ["anyone?"]
    assert lobby.active_players() == ["ada"]


def test_lobby_rows_describe_rooms_and_seeks_in_words() -> None:
    assert room_row(summary()) == ("Network", "ada vs bot7 [bot]", "playing", "3", "0", "untimed")
    assert seek_row(seek(), me="ada") == (
        "bob",
        "Connect Five 15×15",
        "5 s a move",
        "you",
        "either",
        "no",
    )


def welcome(name: str = "ada") -> Welcome:
    return Welcome(protocol=1, server="test", name=name, kind="human")


def test_the_session_opens_a_game_screen_for_ones_own_games_and_asked_for_rooms() -> None:
    session = Session()
    session.welcomed(welcome())
    game = network()
    update = session.handle(snapshot(game, room_id="r1"), 0.0)
    assert update.open_room == "r1"
    assert session.rooms["r1"].your_side == 0
    stranger = session.handle(snapshot(game, room_id="r2", your_side=None), 0.0)
    assert stranger.open_room is None
    session.watch("r3")
    watched = session.handle(snapshot(game, room_id="r3", your_side=None), 0.0)
    assert watched.open_room == "r3"
    again = session.handle(snapshot(game, ("01",), room_id="r1", seq=4), 1.0)
    assert again.open_room is None
    assert session.rooms["r1"].position.ply == 1


def test_a_new_game_does_not_take_the_screen_from_a_game_being_played() -> None:
    session = Session()
    session.welcomed(welcome())
    game = network()
    session.handle(snapshot(game, room_id="r1"), 0.0)
    session.handle(snapshot(game, room_id="r2"), 0.0)
    session.handle(snapshot(game, room_id="r3", your_side=None), 0.0)
    assert not session.may_replace("r1", "r2")
    assert session.may_replace("r1", "r1")
    assert session.may_replace("r3", "r2")
    assert session.may_replace(None, "r2")
    resigned = GameResult(winner=1, reason="resign", message="White resigns.")
    session.handle(GameOver(room_id="r1", seq=1, result=resigned), 0.0)
    assert session.may_replace("r1", "r2")


def test_the_session_routes_room_events_lobby_messages_and_stray_errors() -> None:
    session = Session()
    session.welcomed(welcome())
    game = network()
    session.handle(snapshot(game), 0.0)
    update = session.handle(move_made(game, (), "01", seq=1), 1.0)
    assert update.rooms == {"r1"}
    assert not update.lobby
    update = session.handle(RoomUpdated(room=summary("r1")), 1.0)
    assert update.lobby
    assert update.rooms == {"r1"}
    refused = ErrorMessage(code="unknown_seek", message="no open seek has the id s9")
    assert session.handle(refused, 1.0).notice == "no open seek has the id s9"
    illegal = ErrorMessage(code="illegal_move", message="no", room_id="r1")
    assert session.handle(illegal, 1.0).notice is None
    assert session.handle(RoomLeft(room_id="r1"), 1.0).rooms == {"r1"}
    assert "r1" not in session.rooms


def test_the_session_shows_the_link_dropping_and_coming_back() -> None:
    session = Session()
    assert not session.link.up
    session.handle(Disconnected("the server went away"), 0.0)
    assert session.link.text == "connection lost (the server went away); reconnecting…"
    update = session.handle(Reconnected(welcome(), ("r1",)), 0.0)
    assert update.link
    assert session.link == LinkState(True, "connected as ada")


def test_clocks_stand_still_while_the_link_is_down_then_take_the_servers_figures() -> None:
    game = network()
    clocks = Clocks(remaining_ms=(5000, 5000), running=0)
    session = Session()
    session.handle(welcome(), 0.0)
    session.handle(snapshot(game, clocks=clocks, time_control=FIVE_SECONDS), 10.0)
    room = session.rooms["r1"]
    update = session.handle(Disconnected("the server went away"), 11.0)
    assert (update.rooms, room.clock_paused) == (frozenset({"r1"}), True)
    assert room.clock_ms(0, 11.0) == room.clock_ms(0, 60.0) == 4000
    update = session.handle(Reconnected(welcome(), ("r1",)), 60.0)
    assert update.refresh == (Join(room_id="r1", role="player"),)
    paused_by_server = Clocks(remaining_ms=(4000, 5000), running=0)
    session.handle(snapshot(game, clocks=paused_by_server, time_control=FIVE_SECONDS), 61.0)
    assert (room.clock_paused, room.clock_ms(0, 62.0)) == (False, 3000)


def test_an_untimed_room_has_no_clock_to_pause_or_refresh() -> None:
    session = Session()
    session.handle(snapshot(network()), 10.0)
    session.handle(Disconnected("gone"), 11.0)
    assert not session.rooms["r1"].clock_paused
    assert session.handle(Reconnected(welcome(), ("r1",)), 12.0).refresh == ()


def test_the_headline_says_when_the_ai_is_thinking() -> None:
    players = (Seat(name="ada", kind="human"), Seat(name="ai-3", kind="ai"))
    room = RoomModel.from_snapshot(snapshot(network(), ("01",)), 0.0)
    assert (room.ai_thinking, room.headline()) == (False, "Waiting for bot7 (Black)")
    room.players = players
    assert (room.ai_thinking, room.headline()) == (True, "ai-3 (Black) is thinking…")


GAMES = (
    GameInfo(
        name="connect5",
        title="Connect Five 15×15",
        sides=("X", "O"),
        options=(OptionInfo(name="size", help="cells a side", default=15, minimum=5, maximum=19),),
        notation=NotationHint(summary="h8"),
    ),
    GameInfo(
        name="loa",
        title="Lines of Action 8×8",
        sides=("Black", "White"),
        options=(OptionInfo(name="size", help="cells a side", default=8, choices=(5, 6, 8)),),
        notation=NotationHint(summary="b1-b3"),
    ),
)


def test_the_form_makes_a_seek_against_the_ai_with_the_seeds_time() -> None:
    form = SeekForm(game="connect5", options={"size": "15"}, time="board", opponent="ai", level=2)
    seek_message = build_seek(form, GAMES[0])
    assert seek_message.options == {"size": 15}
    assert seek_message.time_control == PerMove(move_ms=45_000)
    assert seek_message.opponent == AiOpponent(level=2)
    assert seek_message.side is None


def test_the_form_makes_a_challenge_and_leaves_out_empty_options() -> None:
    form = SeekForm(game="loa", options={"size": ""}, opponent="player", player=" bob ", side=1)
    seek_message = build_seek(form, GAMES[1])
    assert seek_message.options == {}
    assert seek_message.opponent == NamedOpponent(name="bob")
    assert seek_message.side == 1


@pytest.mark.parametrize(
    ("form", "problem"),
    [
        (SeekForm(game="connect5", options={"size": "30"}), "size is at most 19"),
        (SeekForm(game="connect5", options={"size": "big"}), "size is a whole number, not 'big'"),
        (SeekForm(game="loa", options={"size": "7"}), "size is one of 5, 6, 8, not '7'"),
        (SeekForm(game="loa", opponent="player"), "name the player to challenge"),
        (
            SeekForm(game="loa", opponent="player", player="no spaces"),
            "a player's name may hold only letters",
        ),
        (SeekForm(game="loa", opponent="ai", level=9), "the AI's level is from 1 to 8"),
        (SeekForm(game="loa", time="forever"), "unknown time control 'forever'"),
    ],
)
def test_the_form_says_what_to_fix(form: SeekForm, problem: str) -> None:
    info = {info.name: info for info in GAMES}[form.game]
    with pytest.raises(FormError) as refused:
        build_seek(form, info)
    assert str(refused.value).startswith(problem)


def test_boolean_options_read_yes_and_no() -> None:
    flag = OptionInfo(name="swap", help="swap rule", default=False)
    assert option_value(flag, "yes") is True
    assert option_value(flag, "no") is False


def test_a_tournament_pairing_is_a_notice_and_its_game_opens() -> None:
    session = Session()
    session.welcomed(welcome())
    news = TournamentStatus(
        tournament="t1",
        status="running",
        joined=True,
        room_id="r7",
        message="round 1: ada against bot7",
    )
    update = session.handle(news, 0.0)
    assert update.notice == "Tournament: round 1: ada against bot7"
    assert session.handle(snapshot(network(), room_id="r7"), 0.0).open_room == "r7"
    quiet = TournamentStatus(tournament="t1", status="running", joined=True)
    assert session.handle(quiet, 0.0).notice is None

"""The lobby: seeks, challenges, AI games, pairing into rooms, lobby chat and caps."""

from __future__ import annotations

from gamut_protocol import (
    AcceptSeek,
    AiOpponent,
    CancelSeek,
    Chat,
    ChatLine,
    Fischer,
    GameList,
    ListGames,
    ListRooms,
    LobbySnapshot,
    NamedOpponent,
    Resign,
    RoomList,
    RoomRemoved,
    RoomSnapshot,
    RoomUpdated,
    Seek,
    SeekCreated,
    SeekRemoved,
)
from gamut_server.rooms import (
    Lobby,
    LobbyConfig,
    OpenRoom,
    RoomChanged,
    SeatSpec,
    Who,
    ai_seat,
)
from gamut_server.rooms.room import Room
from tests.server.rooms_support import ALICE, BOB, CAROL, error_to, only, received

DAVE = Who(5, "dave")


def make_lobby(max_seeks: int = 5, max_rooms: int = 10) -> Lobby:
    """A lobby with alice, bob and carol subscribed, numbered rooms, and side 0 by lot."""
    ids = iter(f"room{n}" for n in range(1, 1_000))
    config = LobbyConfig(
        max_seeks=max_seeks,
        max_rooms=max_rooms,
        new_room_id=lambda: next(ids),
        choose_side=lambda: 0,
    )
    lobby = Lobby(config)
    for who in (ALICE, BOB, CAROL):
        lobby.enter(who, 0)
    return lobby


def test_entering_sends_the_snapshot_unless_declined():
    lobby = make_lobby()
    lobby.handle(ALICE, Chat(text="hello all"), 1)
    effects = lobby.enter(DAVE, 2, reply_to="hi")
    snapshot = only(received(effects, DAVE), LobbySnapshot)
    assert snapshot.reply_to == "hi"
    assert snapshot.online == 4
    assert [line.text for line in snapshot.chat] == ["hello all"]
    quiet = Who(6, "quiet-bot", "bot")
    assert lobby.enter(quiet, 3, subscribe=False) == []
    assert lobby.online == 5
    later = lobby.handle(ALICE, Chat(text="again"), 4)
    assert received(later, quiet) == []


def test_an_open_seek_is_announced_to_the_lobby():
    lobby = make_lobby()
    effects = lobby.handle(ALICE, Seek(game="connect5", options={"size": 9}, id="s"), 1)
    mine = only(received(effects, ALICE), SeekCreated)
    assert mine.reply_to == "s"
    seek = only(received(effects, BOB), SeekCreated).seek
    assert seek.author == "alice"
    assert seek.title == "Connect Five 9×9"
    assert seek.options == {"size": 9, "max_plies": 400}
    assert only(received(effects, CAROL), SeekCreated).reply_to is None
    assert [s.seek_id for s in lobby.snapshot(DAVE).seeks] == [seek.seek_id]


def test_seeks_for_unknown_games_or_bad_options_are_refused():
    lobby = make_lobby()
    unknown = lobby.handle(ALICE, Seek(game="chess"), 1)
    assert error_to(unknown, ALICE).code == "unknown_game"
    assert error_to(unknown, ALICE).request == "seek"
    bad = lobby.handle(ALICE, Seek(game="loa", options={"size": 7}), 2)
    assert error_to(bad, ALICE).code == "bad_options"
    extra = lobby.handle(ALICE, Seek(game="loa", options={"colour": "red"}), 3)
    assert "colour" in error_to(extra, ALICE).message
    assert lobby.snapshot(ALICE).seeks == ()


def test_accepting_a_seek_pairs_the_players_in_a_new_room():
    lobby = make_lobby()
    created = lobby.handle(
        ALICE, Seek(game="network", side=1, time_control=Fischer(initial_ms=60_000)), 1
    )
    seek_id = only(received(created, BOB), SeekCreated).seek.seek_id
    effects = lobby.handle(BOB, AcceptSeek(seek_id=seek_id, id=9), 2)
    opening = only(effects, OpenRoom)
    assert opening.room_id == "room1"
    assert opening.spec.seats == (SeatSpec("bob", "bot"), SeatSpec("alice", "human"))
    assert opening.spec.time_control == Fischer(initial_ms=60_000)
    assert opening.members == (ALICE, BOB)
    assert opening.reply_to == (BOB.conn, 9)
    removed = only(received(effects, CAROL), SeekRemoved)
    assert (removed.reason, removed.room_id) == ("accepted", "room1")
    assert lobby.snapshot(CAROL).seeks == ()
    assert lobby.rooms_of("alice") == ("room1",)


def test_the_opened_room_starts_with_both_snapshots_and_reaches_the_lobby():
    lobby = make_lobby()
    created = lobby.handle(ALICE, Seek(game="network"), 1)
    seek_id = only(received(created, BOB), SeekCreated).seek.seek_id
    opening = only(lobby.handle(BOB, AcceptSeek(seek_id=seek_id, id="go"), 2), OpenRoom)
    room = Room(opening.room_id, opening.spec)
    started = room.start(opening.members, 3, opening.reply_to)
    assert only(received(started, ALICE), RoomSnapshot).your_side == 0
    assert only(received(started, BOB), RoomSnapshot).reply_to == "go"
    update = lobby.room_changed(only(started, RoomChanged).summary)
    assert only(received(update, CAROL), RoomUpdated).room.room_id == "room1"
    listed = lobby.handle(CAROL, ListRooms(game="network"), 4)
    assert [r.room_id for r in only(received(listed, CAROL), RoomList).rooms] == ["room1"]
    assert (
        only(received(lobby.handle(CAROL, ListRooms(game="loa"), 5), CAROL), RoomList).rooms == ()
    )


def test_a_move_updates_the_listed_ply_for_subscribers():
    lobby = make_lobby()
    opening = only(lobby.handle(ALICE, Seek(game="network", opponent=AiOpponent()), 1), OpenRoom)
    room = Room(opening.room_id, opening.spec)
    lobby.room_changed(only(room.start(opening.members, 2), RoomChanged).summary)
    moved = lobby.room_moved("room1", 1)
    assert only(received(moved, CAROL), RoomUpdated).room.ply == 1
    assert lobby.snapshot(CAROL).rooms[0].ply == 1
    assert lobby.room_moved("nowhere", 3) == []
    quiet = make_lobby()
    for who in (ALICE, BOB, CAROL):
        quiet.leave(who, 3)
    quiet.room_changed(lobby.snapshot(CAROL).rooms[0])
    assert quiet.room_moved("room1", 2) == []
    assert quiet.snapshot(DAVE).rooms[0].ply == 2


def test_plies_kept_while_nobody_follows_give_way_to_a_newer_summary_or_a_removal():
    lobby = make_lobby()
    opening = only(lobby.handle(ALICE, Seek(game="network", opponent=AiOpponent()), 1), OpenRoom)
    room = Room(opening.room_id, opening.spec)
    summary = only(room.start(opening.members, 2), RoomChanged).summary
    for who in (ALICE, BOB, CAROL):
        lobby.leave(who, 3)
    lobby.room_changed(summary)
    assert lobby.room_moved("room1", 5) == []
    lobby.room_changed(summary.model_copy(update={"ply": 7}))
    assert lobby.snapshot(DAVE).rooms[0].ply == 7
    lobby.leave(DAVE, 4)
    lobby.room_moved("room1", 8)
    lobby.room_removed("room1")
    assert lobby.snapshot(DAVE).rooms == ()


def test_nobody_accepts_their_own_seek_or_an_unknown_one():
    lobby = make_lobby()
    created = lobby.handle(ALICE, Seek(game="network"), 1)
    seek_id = only(received(created, ALICE), SeekCreated).seek.seek_id
    assert error_to(lobby.handle(ALICE, AcceptSeek(seek_id=seek_id), 2), ALICE).code == "own_seek"
    missing = lobby.handle(BOB, AcceptSeek(seek_id="s999"), 3)
    assert error_to(missing, BOB).code == "unknown_seek"


def test_a_challenge_is_seen_and_accepted_only_by_the_challenged():
    lobby = make_lobby()
    effects = lobby.handle(ALICE, Seek(game="loa", opponent=NamedOpponent(name="bob")), 1)
    seek_id = only(received(effects, BOB), SeekCreated).seek.seek_id
    assert received(effects, CAROL) == []
    assert lobby.snapshot(CAROL).seeks == ()
    stolen = lobby.handle(CAROL, AcceptSeek(seek_id=seek_id), 2)
    assert error_to(stolen, CAROL).code == "unknown_seek"
    accepted = lobby.handle(BOB, AcceptSeek(seek_id=seek_id), 3)
    assert only(accepted, OpenRoom).spec.game == "loa"


def test_challenges_to_absent_players_or_oneself_are_refused():
    lobby = make_lobby()
    absent = lobby.handle(ALICE, Seek(game="loa", opponent=NamedOpponent(name="zed")), 1)
    assert error_to(absent, ALICE).code == "unknown_player"
    itself = lobby.handle(ALICE, Seek(game="loa", opponent=NamedOpponent(name="alice")), 2)
    assert error_to(itself, ALICE).code == "own_seek"


def test_a_seek_against_the_ai_opens_a_room_at_once():
    lobby = make_lobby()
    effects = lobby.handle(ALICE, Seek(game="crusher", opponent=AiOpponent(level=6), id=1), 1)
    opening = only(effects, OpenRoom)
    assert opening.spec.seats == (SeatSpec("alice", "human"), ai_seat(6))
    assert opening.spec.options == {"n": 3, "max_plies": 400}
    assert opening.members == (ALICE,)
    assert opening.reply_to == (ALICE.conn, 1)
    assert received(effects, BOB) == []


def test_the_seeker_may_give_the_ai_the_first_move():
    lobby = make_lobby()
    effects = lobby.handle(ALICE, Seek(game="network", opponent=AiOpponent(), side=1), 1)
    assert only(effects, OpenRoom).spec.seats[0] == ai_seat(3)


def test_cancelling_is_for_the_author_only():
    lobby = make_lobby()
    created = lobby.handle(ALICE, Seek(game="network"), 1)
    seek_id = only(received(created, ALICE), SeekCreated).seek.seek_id
    theirs = lobby.handle(BOB, CancelSeek(seek_id=seek_id), 2)
    assert error_to(theirs, BOB).code == "own_seek"
    cancelled = lobby.handle(ALICE, CancelSeek(seek_id=seek_id, id="x"), 3)
    assert only(received(cancelled, ALICE), SeekRemoved).reply_to == "x"
    assert only(received(cancelled, CAROL), SeekRemoved).reason == "cancelled"
    again = lobby.handle(ALICE, CancelSeek(seek_id=seek_id), 4)
    assert error_to(again, ALICE).code == "unknown_seek"


def test_open_seeks_are_capped_per_player():
    lobby = make_lobby(max_seeks=2)
    for n in range(2):
        lobby.handle(ALICE, Seek(game="network"), n)
    refused = lobby.handle(ALICE, Seek(game="network"), 3)
    assert error_to(refused, ALICE).code == "too_many_seeks"
    assert len(lobby.snapshot(BOB).seeks) == 2


def test_a_thousand_ai_games_from_one_connection_stop_at_the_cap():
    lobby = make_lobby(max_rooms=3)
    answers = [
        lobby.handle(ALICE, Seek(game="network", opponent=AiOpponent()), n) for n in range(1_000)
    ]
    opened = [a for a in answers if any(isinstance(e, OpenRoom) for e in a)]
    assert len(opened) == 3
    assert error_to(answers[-1], ALICE).code == "unavailable"
    assert len(lobby.rooms_of("alice")) == 3


def test_a_finished_room_frees_a_place_under_the_cap():
    lobby = make_lobby(max_rooms=1)
    opening = only(lobby.handle(ALICE, Seek(game="network", opponent=AiOpponent()), 1), OpenRoom)
    room = Room(opening.room_id, opening.spec)
    lobby.room_changed(only(room.start(opening.members, 2), RoomChanged).summary)
    assert lobby.rooms_of("alice") == ("room1",)
    ended = room.handle(ALICE, Resign(room_id="room1"), 3)
    lobby.room_changed(only(ended, RoomChanged).summary)
    assert lobby.rooms_of("alice") == ()
    assert any(
        isinstance(e, OpenRoom)
        for e in lobby.handle(ALICE, Seek(game="network", opponent=AiOpponent()), 4)
    )


def test_accepting_is_refused_when_either_player_is_at_the_cap():
    lobby = make_lobby(max_rooms=1)
    lobby.handle(ALICE, Seek(game="network", opponent=AiOpponent()), 1)
    created = lobby.handle(ALICE, Seek(game="network"), 2)
    seek_id = only(received(created, BOB), SeekCreated).seek.seek_id
    refused = lobby.handle(BOB, AcceptSeek(seek_id=seek_id), 3)
    assert error_to(refused, BOB).code == "unavailable"
    assert "alice" in error_to(refused, BOB).message
    assert len(lobby.snapshot(BOB).seeks) == 1


def test_leaving_expires_ones_seeks_and_challenges_to_one():
    lobby = make_lobby()
    lobby.handle(ALICE, Seek(game="network"), 1)
    lobby.handle(CAROL, Seek(game="loa", opponent=NamedOpponent(name="alice")), 2)
    effects = lobby.leave(ALICE, 3)
    reasons = [m.reason for m in received(effects, CAROL) if isinstance(m, SeekRemoved)]
    assert reasons == ["expired", "expired"]
    assert lobby.snapshot(BOB).seeks == ()
    assert lobby.online == 2


def test_lobby_chat_lines_have_no_sequence_number():
    lobby = make_lobby()
    effects = lobby.handle(BOB, Chat(text="anyone for crusher?", id=5), 1)
    line = only(received(effects, CAROL), ChatLine)
    assert (line.author, line.room_id, line.seq) == ("bob", None, None)
    assert only(received(effects, BOB), ChatLine).reply_to == 5


def test_games_and_room_removal():
    lobby = make_lobby()
    games = only(received(lobby.handle(ALICE, ListGames(id=1), 1), ALICE), GameList)
    # Hex and Connect Four come from the test-only packages registered in the
    # gamut.games group.
    assert [game.name for game in games.games] == [
        "network",
        "connect5",
        "loa",
        "crusher",
        "connect4",
        "hex",
    ]
    assert games.reply_to == 1
    assert lobby.room_removed("nowhere") == []
    opening = only(lobby.handle(ALICE, Seek(game="network", opponent=AiOpponent()), 2), OpenRoom)
    room = Room(opening.room_id, opening.spec)
    lobby.room_changed(only(room.start(opening.members, 3), RoomChanged).summary)
    removed = lobby.room_removed("room1")
    assert only(received(removed, CAROL), RoomRemoved).room_id == "room1"
    assert lobby.snapshot(CAROL).rooms == ()

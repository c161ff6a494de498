"""Who is online, in the pure lobby: the snapshot's list and the ``presence`` messages.

Subscribers entered with ``presence=True`` speak protocol version 2; the others must
see exactly what version 1 showed.
"""

from __future__ import annotations

from gamut_protocol import (
    AcceptSeek,
    AiOpponent,
    LobbySnapshot,
    OnlinePlayer,
    Presence,
    Resign,
    Seek,
    SeekCreated,
    ServerMessage,
)
from gamut_server.rooms import Effect, Lobby, LobbyConfig, OpenRoom, RoomChanged, Who
from gamut_server.rooms.room import Room
from tests.server.rooms_support import ALICE, ALICE_AGAIN, BOB, CAROL, only, received

OLD = Who(7, "olga")
"""A subscriber speaking protocol version 1."""

DAVE = Who(8, "dave")


def make_lobby(max_listed: int = 200) -> Lobby:
    """A lobby with numbered rooms where alice (human), bob (bot) and carol (human) follow
    who is online, and olga follows the lobby at protocol version 1."""
    ids = iter(f"room{n}" for n in range(1, 1_000))
    config = LobbyConfig(
        new_room_id=lambda: next(ids), choose_side=lambda: 0, max_listed_online=max_listed
    )
    lobby = Lobby(config)
    for who in (ALICE, BOB, CAROL):
        lobby.enter(who, 0, presence=True)
    lobby.enter(OLD, 0)
    return lobby


def presences(effects: list[Effect], who: Who) -> list[Presence]:
    """The ``presence`` messages ``who`` gets from ``effects``, in order."""
    return [m for m in received(effects, who) if isinstance(m, Presence)]


def player(name: str, kind: str = "human", *playing: str) -> OnlinePlayer:
    """An entry of the online list."""
    return OnlinePlayer.model_validate({"name": name, "kind": kind, "playing": playing})


def open_and_start(lobby: Lobby, effects: list[Effect], now: int) -> tuple[Room, list[Effect]]:
    """Run the room an ``OpenRoom`` of ``effects`` asks for, and pass its start to the lobby."""
    opening = only(effects, OpenRoom)
    room = Room(opening.room_id, opening.spec)
    started = room.start(opening.members, now)
    return room, lobby.room_changed(only(started, RoomChanged).summary)


def test_the_snapshot_lists_who_is_online_people_first_for_version_2_only() -> None:
    lobby = make_lobby()
    snapshot = only(received(lobby.enter(DAVE, 1, presence=True), DAVE), LobbySnapshot)
    assert snapshot.online == 5
    names = [(entry.name, entry.kind) for entry in snapshot.present or ()]
    assert names == [
        ("alice", "human"),
        ("carol", "human"),
        ("olga", "human"),
        ("dave", "human"),
        ("bob", "bot"),
    ]
    old = only(received(lobby.enter(Who(9, "otto"), 2), Who(9, "otto")), LobbySnapshot)
    assert old.present is None
    assert "present" not in old.model_dump(exclude_none=True)


def test_a_long_list_is_capped_but_the_count_is_not() -> None:
    lobby = make_lobby(max_listed=3)
    for number in range(20):
        lobby.enter(Who(100 + number, f"bot{number}", "bot"), 1)
    snapshot = lobby.snapshot(ALICE, presence=True)
    assert snapshot.online == 24
    assert [entry.name for entry in snapshot.present or ()] == ["alice", "carol", "olga"]


def test_arrivals_and_departures_are_announced_once_per_player() -> None:
    lobby = make_lobby()
    arrived = lobby.enter(DAVE, 1, subscribe=False)
    assert presences(arrived, ALICE) == [Presence(player=player("dave"), online=5)]
    assert presences(arrived, BOB) == presences(arrived, CAROL) == presences(arrived, ALICE)
    assert received(arrived, OLD) == []
    assert received(arrived, DAVE) == []
    second = lobby.enter(ALICE_AGAIN, 2, presence=True)
    assert presences(second, CAROL) == []
    assert only(received(second, ALICE_AGAIN), LobbySnapshot).online == 5
    assert lobby.leave(ALICE, 3) == []
    gone = lobby.leave(ALICE_AGAIN, 4)
    assert presences(gone, CAROL) == [Presence(player=player("alice"), left=True, online=4)]
    assert received(gone, OLD) == []


def test_an_arriving_subscriber_is_not_told_of_itself() -> None:
    lobby = make_lobby()
    arrived = lobby.enter(DAVE, 1, presence=True)
    assert [type(m) for m in received(arrived, DAVE)] == [LobbySnapshot]
    assert presences(arrived, CAROL) == [Presence(player=player("dave"), online=5)]


def test_a_game_between_two_players_is_announced_when_it_opens_and_when_it_ends() -> None:
    lobby = make_lobby()
    created = lobby.handle(ALICE, Seek(game="network", side=0), 1)
    seek_id = only(received(created, BOB), SeekCreated).seek.seek_id
    accepted = lobby.handle(BOB, AcceptSeek(seek_id=seek_id), 2)
    assert presences(accepted, CAROL) == [
        Presence(player=player("alice", "human", "room1"), online=4),
        Presence(player=player("bob", "bot", "room1"), online=4),
    ]
    assert not any(isinstance(m, Presence) for m in received(accepted, OLD))
    room, started = open_and_start(lobby, accepted, 3)
    assert presences(started, CAROL) == [], "the room's start repeats nothing"
    listed = lobby.snapshot(CAROL, presence=True).present or ()
    assert listed[0] == player("alice", "human", "room1")
    resigned = room.handle(BOB, Resign(room_id="room1"), 4)
    ended = lobby.room_changed(only(resigned, RoomChanged).summary)
    assert presences(ended, CAROL) == [
        Presence(player=player("alice"), online=4),
        Presence(player=player("bob", "bot"), online=4),
    ]


def test_the_ai_is_never_listed_and_its_games_announce_the_player_only() -> None:
    lobby = make_lobby()
    effects = lobby.handle(CAROL, Seek(game="loa", opponent=AiOpponent(level=2)), 1)
    assert presences(effects, ALICE) == [
        Presence(player=player("carol", "human", "room1"), online=4)
    ]
    names = [entry.name for entry in lobby.snapshot(ALICE, presence=True).present or ()]
    assert "ai-2" not in names


def test_a_player_away_from_a_game_is_listed_with_it_on_return() -> None:
    lobby = make_lobby()
    effects = lobby.handle(CAROL, Seek(game="network", opponent=AiOpponent()), 1)
    open_and_start(lobby, effects, 2)
    gone = lobby.leave(CAROL, 3)
    assert presences(gone, ALICE) == [
        Presence(player=player("carol", "human", "room1"), left=True, online=3)
    ]
    back = lobby.enter(Who(10, "carol"), 4, presence=True)
    assert presences(back, ALICE) == [Presence(player=player("carol", "human", "room1"), online=4)]
    assert lobby.rooms_of("carol") == ("room1",)


def test_a_room_removed_while_running_frees_its_players() -> None:
    lobby = make_lobby()
    effects = lobby.handle(CAROL, Seek(game="network", opponent=AiOpponent()), 1)
    open_and_start(lobby, effects, 2)
    removed = lobby.room_removed("room1")
    assert presences(removed, ALICE) == [Presence(player=player("carol"), online=4)]
    assert lobby.rooms_of("carol") == ()


def test_nothing_is_announced_without_presence_subscribers() -> None:
    lobby = Lobby(LobbyConfig(new_room_id=lambda: "room1"))
    lobby.enter(OLD, 0)
    messages: list[ServerMessage] = []
    for batch in (
        lobby.enter(DAVE, 1, subscribe=False),
        lobby.handle(DAVE, Seek(game="network", opponent=AiOpponent()), 2),
        lobby.leave(DAVE, 3),
    ):
        messages += received(batch, OLD)
    assert not any(isinstance(m, Presence) for m in messages)
    assert lobby.players_online == 1

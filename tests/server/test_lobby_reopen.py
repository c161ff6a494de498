"""A lobby's seeks told to their authors' nodes, and opened again in a new lobby (a
cluster whose lobby changed node): under the same ids, announced, and acceptable."""

from __future__ import annotations

from gamut_protocol import AcceptSeek, CancelSeek, LobbySnapshot, NamedOpponent, Seek, SeekCreated
from gamut_server.cluster.kept_seeks import KeptSeeks
from gamut_server.rooms import Effect, Lobby, LobbyConfig, OpenRoom, SeekKept
from gamut_server.rooms.seeks import OpenSeek
from tests.server.rooms_support import ALICE, BOB, CAROL, only, received


def kept(effects: list[Effect]) -> list[SeekKept]:
    """The seeks a batch tells its authors' nodes to keep or drop."""
    return [effect for effect in effects if isinstance(effect, SeekKept)]


def old_lobby() -> tuple[KeptSeeks, list[OpenSeek]]:
    """A lobby where alice seeks a game and bob challenges her: what alice's and bob's
    nodes keep of it."""
    lobby = Lobby()
    for who in (ALICE, BOB, CAROL):
        lobby.enter(who, 0)
    copies = KeptSeeks()
    for effects in (
        lobby.handle(ALICE, Seek(game="crusher", options={"n": 3}, id="c"), 1),
        lobby.handle(BOB, Seek(game="loa", opponent=NamedOpponent(name="alice")), 1),
        lobby.handle(ALICE, Seek(game="network", id="x"), 1),
        lobby.handle(ALICE, CancelSeek(seek_id="s3"), 2),
    ):
        for effect in kept(effects):
            copies.note(effect)
    return copies, [*copies.of(ALICE.conn), *copies.of(BOB.conn)]


def test_the_authors_node_keeps_each_open_seek_until_it_closes() -> None:
    copies, seeks = old_lobby()
    assert [(seek.seek_id, seek.author) for seek in seeks] == [("s1", ALICE), ("s2", BOB)]
    assert seeks[1].challenged == "alice"
    assert copies.opened_by(ALICE.conn, "x") is None, "the seek asked as x was cancelled"
    assert copies.opened_by(ALICE.conn, None) is None
    opened = copies.opened_by(ALICE.conn, "c")
    assert opened is not None
    assert opened.seek_id == "s1", "the seek asked as c"
    copies.forget(ALICE.conn)
    assert copies.of(ALICE.conn) == ()
    assert copies.opened_by(ALICE.conn, "c") is None
    assert len(copies) == 1


def test_a_new_lobby_opens_the_kept_seeks_again_under_their_ids() -> None:
    copies, _ = old_lobby()
    lobby = Lobby(LobbyConfig(new_room_id=lambda: "room1"))
    lobby.enter(CAROL, 5)
    effects = lobby.enter(ALICE, 5, seeks=copies.of(ALICE.conn))
    snapshot = only(received(effects, ALICE), LobbySnapshot)
    assert [seek.seek_id for seek in snapshot.seeks] == ["s1"]
    assert only(received(effects, CAROL), SeekCreated).seek.seek_id == "s1"
    effects = lobby.enter(BOB, 6, seeks=copies.of(BOB.conn))
    challenge = only(received(effects, ALICE), SeekCreated).seek
    assert (challenge.seek_id, challenge.author) == ("s2", "bob")
    assert received(effects, CAROL) == [], "a challenge is shown to its two players only"
    assert lobby.enter(BOB, 7, seeks=copies.of(BOB.conn))[1:] == [], "never opened twice"
    opened = only(lobby.handle(CAROL, AcceptSeek(seek_id="s1"), 8), OpenRoom)
    assert {who.name for who in opened.members} == {"alice", "carol"}
    fresh = only(received(lobby.handle(CAROL, Seek(game="network"), 9), CAROL), SeekCreated)
    assert fresh.seek.seek_id == "s3", "new ids follow the kept ones"


def test_a_kept_seek_whose_id_was_taken_opens_under_a_fresh_one() -> None:
    copies, _ = old_lobby()
    lobby = Lobby()
    lobby.enter(CAROL, 5)
    lobby.handle(CAROL, Seek(game="network"), 5)
    effects = lobby.enter(ALICE, 6, seeks=copies.of(ALICE.conn))
    snapshot = only(received(effects, ALICE), LobbySnapshot)
    assert [(seek.seek_id, seek.author) for seek in snapshot.seeks] == [
        ("s1", "carol"),
        ("s2", "alice"),
    ]
    changes = [(effect.seek_id, effect.info is not None) for effect in kept(effects)]
    assert changes == [("s2", True), ("s1", False)], "alice's node keeps it under its new id"


def test_a_new_leaders_seeks_never_take_the_id_of_a_seek_still_to_come_back() -> None:
    copies, _ = old_lobby()
    lobby = Lobby(LobbyConfig(seek_prefix="s2.1."))
    lobby.enter(CAROL, 5)
    fresh = only(received(lobby.handle(CAROL, Seek(game="network"), 5), CAROL), SeekCreated)
    assert fresh.seek.seek_id == "s2.1.1"
    effects = lobby.enter(ALICE, 6, seeks=copies.of(ALICE.conn))
    snapshot = only(received(effects, ALICE), LobbySnapshot)
    assert {seek.seek_id for seek in snapshot.seeks} == {"s2.1.1", "s1"}

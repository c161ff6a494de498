"""The storage layer over real databases: the same suite on SQLite and PostgreSQL."""

from __future__ import annotations

import asyncio
import sqlite3
from dataclasses import replace
from datetime import UTC, datetime, timedelta, timezone
from pathlib import Path

import pytest

from gamut_server.storage import (
    DEFAULT_URL,
    Clock,
    DuplicateAccountError,
    DuplicateChatError,
    DuplicateGameError,
    DuplicateMoveError,
    GameNotFoundError,
    GameStateError,
    MoveOrderError,
    MoveRecord,
    NewGame,
    Player,
    Result,
    Store,
    database_url,
)
from gamut_server.storage.urls import shown_url
from tests.server.storage_backends import (
    Backend,
    unavailable,
)

T0 = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)
ALICE = Player("alice", "human")
BOT = Player("deep-five", "bot")
START = Clock((300_000, 300_000), to_move=0)


def at(seconds: float) -> datetime:
    """A fixed instant ``seconds`` after T0: no test reads the wall clock."""
    return T0 + timedelta(seconds=seconds)


def new_game(**changes: object) -> NewGame:
    """A Connect Five game between alice and a bot, with ``changes`` applied."""
    spec = NewGame(
        game="connect5",
        options={"size": 15},
        time_control={"kind": "total", "total_ms": 300_000, "increment_ms": 0},
        players=(ALICE, BOT),
        clock=START,
    )
    return replace(spec, **changes)  # type: ignore[arg-type]


async def play(
    store: Store, game_id: str, moves: list[str], first_ply: int = 0
) -> list[MoveRecord]:
    """Record ``moves`` in turn, side 0 first, each thinking (ply + 1) seconds."""
    records = []
    remaining = [300_000, 300_000]
    for ply, text in enumerate(moves, start=first_ply):
        side = ply % 2
        remaining[side] -= 1000 * (ply + 1)
        clock = Clock((remaining[0], remaining[1]), to_move=1 - side)
        record = await store.record_move(
            game_id,
            ply=ply,
            move=text,
            side=side,
            think_ms=1000 * (ply + 1),
            clock=clock,
            seq=ply + 1,
            at=at(ply + 1),
        )
        records.append(record)
    return records


async def test_a_new_game_reads_back_as_written(store: Store) -> None:
    spec = new_game(rated=True, pool="connect5-blitz", players=(ALICE, BOT))
    info = await store.create_game(spec, at=at(0))
    assert len(info.id) == 8
    assert info.game == "connect5"
    assert info.options == {"size": 15}
    assert info.time_control == {"kind": "total", "total_ms": 300_000, "increment_ms": 0}
    assert info.players == (ALICE, BOT)
    assert (info.rated, info.pool) == (True, "connect5-blitz")
    assert (info.status, info.result) == ("running", None)
    assert (info.clock, info.plies, info.last_seq) == (START, 0, 0)
    assert info.created_at == info.started_at == info.clock_at == at(0)
    assert info.created_at.tzinfo is UTC
    assert info.finished_at is None
    assert await store.game_info(info.id) == info


async def test_timestamps_in_any_zone_come_back_as_utc(store: Store) -> None:
    local = datetime(2026, 3, 1, 14, 30, tzinfo=timezone(timedelta(hours=2)))
    info = await store.create_game(new_game(), at=local)
    assert info.created_at == local
    assert info.created_at.tzinfo is UTC
    assert info.created_at.hour == 12
    with pytest.raises(ValueError, match="timezone-aware"):
        await store.create_game(new_game(), at=datetime(2026, 3, 1))


async def test_a_chosen_id_is_kept_and_cannot_be_reused(store: Store) -> None:
    info = await store.create_game(new_game(game_id="rematch1"), at=at(0))
    assert info.id == "rematch1"
    with pytest.raises(DuplicateGameError):
        await store.create_game(new_game(game_id="rematch1"), at=at(1))


async def test_moves_update_the_game_and_read_back_in_order(store: Store) -> None:
    info = await store.create_game(new_game(), at=at(0))
    written = await play(store, info.id, ["h8", "i9", "h9"])
    record = await store.game(info.id)
    assert record.moves == tuple(written)
    assert [move.move for move in record.moves] == ["h8", "i9", "h9"]
    assert [move.side for move in record.moves] == [0, 1, 0]
    assert record.info.plies == 3
    assert record.info.last_seq == 3
    assert record.info.clock == written[-1].clock == Clock((296_000, 298_000), to_move=1)
    assert record.info.clock_at == at(3)


async def test_unfinished_games_and_their_moves_survive_a_restart(backend: Backend) -> None:
    async with await backend.open() as first:
        running = await first.create_game(new_game(), at=at(0))
        written = await play(first, running.id, ["h8", "i9"])
        waiting = await first.create_game(new_game(players=(ALICE, None)), start=False, at=at(5))
        done = await first.create_game(new_game(), at=at(6))
        await first.finish_game(done.id, Result(1, "resign"), at=at(7))
    async with await backend.open() as second:
        recovered = await second.unfinished_games()
    assert [record.info.id for record in recovered] == [running.id, waiting.id]
    resumed, seated = recovered
    assert resumed.moves == tuple(written)
    assert resumed.info.clock == Clock((299_000, 298_000), to_move=0)
    assert resumed.info.clock_at == at(2)
    assert (resumed.info.plies, resumed.info.last_seq) == (2, 2)
    assert seated.info.status == "waiting"
    assert seated.info.players == (ALICE, None)
    assert seated.moves == ()


async def test_a_duplicate_ply_is_rejected_and_changes_nothing(store: Store) -> None:
    info = await store.create_game(new_game(), at=at(0))
    [first] = await play(store, info.id, ["h8"])
    with pytest.raises(DuplicateMoveError) as caught:
        await store.record_move(
            info.id, ply=0, move="a1", side=0, think_ms=5, clock=START, seq=9, at=at(9)
        )
    assert caught.value.ply == 0
    record = await store.game(info.id)
    assert record.moves == (first,)
    assert (record.info.plies, record.info.last_seq, record.info.clock) == (1, 1, first.clock)


async def test_the_same_move_stored_again_is_a_success_stored_once(store: Store) -> None:
    info = await store.create_game(new_game(), at=at(0))
    [first] = await play(store, info.id, ["h8"])
    await store.record_move(
        info.id, ply=0, move="h8", side=0, think_ms=5, clock=first.clock, seq=1, at=at(9)
    )
    record = await store.game(info.id)
    assert record.moves == (first,)
    assert (record.info.plies, record.info.last_seq) == (1, 1)


async def test_a_ply_that_skips_ahead_is_rejected(store: Store) -> None:
    info = await store.create_game(new_game(), at=at(0))
    with pytest.raises(MoveOrderError) as caught:
        await store.record_move(
            info.id, ply=1, move="h8", side=0, think_ms=5, clock=START, seq=1, at=at(1)
        )
    assert caught.value.expected == 0
    assert (await store.game(info.id)).moves == ()


async def test_two_writers_of_the_same_ply_cannot_both_win(store: Store) -> None:
    info = await store.create_game(new_game(), at=at(0))

    async def attempt(text: str) -> str:
        try:
            await store.record_move(
                info.id, ply=0, move=text, side=0, think_ms=5, clock=START, seq=1, at=at(1)
            )
        except DuplicateMoveError:
            return "rejected"
        return text

    outcomes = await asyncio.gather(*(attempt(text) for text in ("a1", "b2", "c3", "d4")))
    winners = [outcome for outcome in outcomes if outcome != "rejected"]
    assert len(winners) == 1
    record = await store.game(info.id)
    assert [move.move for move in record.moves] == winners
    assert record.info.plies == 1


async def test_moves_need_a_running_game_that_exists(store: Store) -> None:
    waiting = await store.create_game(new_game(players=(ALICE, None)), start=False, at=at(0))
    with pytest.raises(GameStateError, match="waiting"):
        await play(store, waiting.id, ["h8"])
    with pytest.raises(GameNotFoundError):
        await play(store, "nosuchid", ["h8"])
    with pytest.raises(GameNotFoundError):
        await store.game("nosuchid")


async def test_a_waiting_game_starts_once_both_seats_are_taken(store: Store) -> None:
    with pytest.raises(ValueError, match="empty seat"):
        await store.create_game(new_game(players=(ALICE, None)), at=at(0))
    info = await store.create_game(new_game(players=(None, BOT)), start=False, at=at(0))
    assert (info.status, info.started_at, info.clock_at) == ("waiting", None, None)
    clock = Clock((60_000, 60_000), to_move=0)
    await store.start_game(info.id, (ALICE, BOT), clock=clock, seq=4, at=at(30))
    started = await store.game_info(info.id)
    assert (started.status, started.players, started.clock) == ("running", (ALICE, BOT), clock)
    assert (started.started_at, started.clock_at, started.last_seq) == (at(30), at(30), 4)
    with pytest.raises(GameStateError, match="running"):
        await store.start_game(info.id, (ALICE, BOT), at=at(31))
    await play(store, info.id, ["h8"])


async def test_finishing_stores_the_result_once(store: Store) -> None:
    info = await store.create_game(new_game(), at=at(0))
    await play(store, info.id, ["h8", "i9"])
    flagged = Clock((0, 298_000), to_move=0)
    line = ("h8", "h9", "h10", "h11", "h12")
    await store.finish_game(info.id, Result(1, "timeout", line), clock=flagged, seq=3, at=at(9))
    done = await store.game_info(info.id)
    assert (done.status, done.result) == ("finished", Result(1, "timeout", line))
    assert (done.clock, done.last_seq, done.finished_at) == (flagged, 3, at(9))
    with pytest.raises(GameStateError, match="finished"):
        await store.finish_game(info.id, Result(0, "resign"), at=at(10))
    with pytest.raises(GameStateError, match="finished"):
        await play(store, info.id, ["i10"], first_ply=2)
    with pytest.raises(GameNotFoundError):
        await store.finish_game("nosuchid", Result(None, "agreed"), at=at(10))


async def test_an_aborted_game_keeps_its_reason_and_leaves_the_lists(store: Store) -> None:
    info = await store.create_game(new_game(), at=at(0))
    await store.abort_game(info.id, reason="no_first_move", seq=1, at=at(60))
    aborted = await store.game_info(info.id)
    assert (aborted.status, aborted.result) == ("aborted", Result(None, "no_first_move"))
    assert aborted.finished_at == at(60)
    assert await store.unfinished_games() == []
    assert (await store.finished_games()).total == 0
    with pytest.raises(GameStateError, match="aborted"):
        await store.abort_game(info.id, at=at(61))


async def finished_fixture(store: Store) -> list[str]:
    """Six finished games (newest last) plus a running and an aborted one."""
    carol = Player("carol", "guest")
    setups = [
        ("connect5", (ALICE, BOT)),
        ("loa", (BOT, carol)),
        ("connect5", (carol, ALICE)),
        ("network", (ALICE, carol)),
        ("connect5", (BOT, carol)),
        ("loa", (ALICE, BOT)),
    ]
    ids = []
    for minute, (game, players) in enumerate(setups):
        info = await store.create_game(new_game(game=game, players=players), at=at(60 * minute))
        await store.finish_game(info.id, Result(0, "five"), at=at(60 * minute + 30))
        ids.append(info.id)
    await store.create_game(new_game(), at=at(1000))
    aborted = await store.create_game(new_game(), at=at(1001))
    await store.abort_game(aborted.id, at=at(1002))
    return ids


async def test_finished_games_page_newest_first(store: Store) -> None:
    ids = await finished_fixture(store)
    newest_first = ids[::-1]
    pages = [await store.finished_games(limit=4, offset=offset) for offset in (0, 4, 8)]
    assert [page.total for page in pages] == [6, 6, 6]
    assert [info.id for info in pages[0].games] == newest_first[:4]
    assert [info.id for info in pages[1].games] == newest_first[4:]
    assert pages[2].games == ()
    assert all(info.status == "finished" for info in pages[0].games)
    with pytest.raises(ValueError, match="limit"):
        await store.finished_games(limit=0)


async def test_finished_games_filter_by_game_and_player(store: Store) -> None:
    ids = await finished_fixture(store)
    by_game = await store.finished_games(game="connect5")
    assert [info.id for info in by_game.games] == [ids[4], ids[2], ids[0]]
    by_player = await store.finished_games(player="alice")
    assert [info.id for info in by_player.games] == [ids[5], ids[3], ids[2], ids[0]]
    both = await store.finished_games(game="loa", player="carol")
    assert ([info.id for info in both.games], both.total) == ([ids[1]], 1)
    assert (await store.finished_games(player="nobody")).total == 0


async def test_export_writes_header_and_numbered_moves(store: Store) -> None:
    spec = new_game(game_id="exp1", players=(ALICE, replace(BOT, name='deep "five"')))
    await store.create_game(spec, at=at(0))
    await play(store, "exp1", ["h8", "i9", "h9"])
    line = ("h8", "h9", "h10", "h11", "h12")
    await store.finish_game("exp1", Result(0, "five", line), at=at(341))
    assert await store.export_game("exp1") == (
        '[Id "exp1"]\n'
        '[Game "connect5"]\n'
        '[Options "{\\"size\\":15}"]\n'
        '[TimeControl "{\\"increment_ms\\":0,\\"kind\\":\\"total\\",\\"total_ms\\":300000}"]\n'
        '[Side0 "alice"]\n'
        '[Side0Kind "human"]\n'
        '[Side1 "deep \\"five\\""]\n'
        '[Side1Kind "bot"]\n'
        '[Rated "no"]\n'
        '[Status "finished"]\n'
        '[Result "1-0"]\n'
        '[Reason "five"]\n'
        '[Line "h8 h9 h10 h11 h12"]\n'
        '[Created "2026-03-01T12:00:00Z"]\n'
        '[Started "2026-03-01T12:00:00Z"]\n'
        '[Finished "2026-03-01T12:05:41Z"]\n'
        "\n"
        "1. h8 {1.000s}\n"
        "2. i9 {2.000s}\n"
        "3. h9 {3.000s}\n"
        "1-0\n"
    )


async def test_export_of_a_running_game_with_an_account(store: Store) -> None:
    account = await store.create_account("alice", "argon2-hash", at=at(0))
    seated = replace(ALICE, account_id=account.id)
    await store.create_game(new_game(game_id="exp2", players=(seated, BOT)), at=at(0))
    text = await store.export_game("exp2")
    assert f'[Side0Account "{account.id}"]\n' in text
    assert '[Result "*"]\n' in text
    assert "[Reason" not in text
    assert "[Finished" not in text
    assert text.endswith("\n\n*\n")


async def test_chat_lines_replay_per_room_after_a_restart(backend: Backend) -> None:
    async with await backend.open() as first:
        await first.record_chat("g1", seq=3, author="alice", text="good luck", at=at(1))
        await first.record_chat("g1", seq=5, author="deep-five", text="you too", at=at(2))
        await first.record_chat("lobby", seq=1, author="carol", text="anyone?", at=at(3))
        with pytest.raises(DuplicateChatError):
            await first.record_chat("g1", seq=5, author="alice", text="again", at=at(4))
    async with await backend.open() as second:
        room = await second.chat_lines("g1")
        later = await second.chat_lines("g1", after_seq=3)
        first_only = await second.chat_lines("g1", limit=1)
    assert [(line.seq, line.author, line.text) for line in room] == [
        (3, "alice", "good luck"),
        (5, "deep-five", "you too"),
    ]
    assert room[0].at == at(1)
    assert [line.seq for line in later] == [5]
    assert [line.seq for line in first_only] == [3]


async def test_accounts_are_unique_and_can_be_revoked(store: Store) -> None:
    account = await store.create_account("alice", "hash-1", at=at(0))
    assert await store.account("alice") == account
    with pytest.raises(DuplicateAccountError):
        await store.create_account("alice", "hash-2", at=at(1))
    assert await store.revoke_account("alice") is True
    revoked = await store.account("alice")
    assert revoked is not None
    assert revoked.revoked
    assert await store.revoke_account("nobody") is False
    assert await store.account("nobody") is None


async def test_sqlite_file_runs_in_wal_mode(tmp_path: Path) -> None:
    path = tmp_path / "nested" / "gamut.sqlite3"
    async with await Store.open(str(path)) as store:
        await store.create_game(new_game(), at=at(0))
    with sqlite3.connect(path) as connection:
        assert connection.execute("PRAGMA journal_mode").fetchone() == ("wal",)


async def test_in_memory_sqlite_keeps_data_while_open() -> None:
    async with await Store.open("sqlite://") as store:
        info = await store.create_game(new_game(), at=at(0))
        await play(store, info.id, ["h8"])
        assert (await store.game(info.id)).info.plies == 1


async def test_schema_is_for_postgresql_only(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="PostgreSQL"):
        await Store.open(f"sqlite:///{tmp_path / 'x.sqlite3'}", schema="elsewhere")


@pytest.mark.parametrize(
    ("given", "expected"),
    [
        (None, DEFAULT_URL),
        ("", DEFAULT_URL),
        ("games.db", "sqlite+aiosqlite:///games.db"),
        ("/var/lib/gamut/g.sqlite3", "sqlite+aiosqlite:////var/lib/gamut/g.sqlite3"),
        ("sqlite:///gamut.sqlite3", "sqlite+aiosqlite:///gamut.sqlite3"),
        ("sqlite://", "sqlite+aiosqlite://"),
        ("postgresql://u:p@db:5433/gamut", "postgresql+asyncpg://u:p@db:5433/gamut"),
        ("postgres://u@db/gamut", "postgresql+asyncpg://u@db/gamut"),
        ("postgresql+asyncpg://u@db/gamut", "postgresql+asyncpg://u@db/gamut"),
    ],
)
def test_database_urls_map_to_the_async_drivers(given: str | None, expected: str) -> None:
    assert database_url(given).render_as_string(hide_password=False) == expected


def test_a_database_is_shown_without_its_password() -> None:
    assert (
        shown_url("postgresql://gamut:s3cret@db/gamut") == "postgresql+asyncpg://gamut:***@db/gamut"
    )
    assert shown_url("games.sqlite3") == "games.sqlite3"
    assert shown_url(None) == "gamut.sqlite3"


def test_other_database_drivers_are_refused() -> None:
    with pytest.raises(ValueError, match="unsupported"):
        database_url("mysql://root@localhost/test")
    with pytest.raises(ValueError, match="unsupported"):
        database_url("postgresql+psycopg2://root@localhost/test")


def test_a_missing_database_skips_locally_and_fails_in_ci(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CI", "false")
    with pytest.raises(pytest.skip.Exception, match="gone"):
        unavailable("gone")
    monkeypatch.setenv("CI", "true")
    with pytest.raises(pytest.fail.Exception, match="gone"):
        unavailable("gone")

"""The operator's reissue of a revoked account's token, on the database itself."""

from __future__ import annotations

import asyncio
from pathlib import Path

from gamut_server.ladder.accounts import TokenHasher
from gamut_server.ladder_live.__main__ import main
from gamut_server.storage import Store


async def test_a_revoked_account_gets_a_working_token_from_the_operator(
    tmp_path: Path, capsys
) -> None:
    db = str(tmp_path / "gamut.sqlite3")
    async with await Store.open(db) as store:
        await store.create_account("deep", TokenHasher().issue().token_hash)
        await store.revoke_account("deep")
    assert await _run(["reissue", "deep", "--db", db]) == 0
    token = capsys.readouterr().out.split()[-1]
    async with await Store.open(db) as store:
        account = await store.account("deep")
    assert account is not None
    assert not account.revoked
    assert TokenHasher().verify(account.token_hash, token)
    assert await _run(["reissue", "nobody", "--db", db]) == 1
    assert "no account" in capsys.readouterr().err


async def _run(argv: list[str]) -> int:
    """Run the command in a thread (it runs its own event loop)."""
    return await asyncio.to_thread(main, argv)

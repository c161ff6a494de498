"""``python -m gamut_server.ladder_live reissue NAME [--db URL]``: the operator's way to give
an account a new token without the old one (after it was revoked or lost).

It works on the database directly, so it runs on the server's machine; the new token is
printed once.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
from collections.abc import Sequence

from gamut_server.core.identity import Names
from gamut_server.edge.addresses import AddressLimits
from gamut_server.ladder_live.registry import AccountRegistry, UnknownAccountError
from gamut_server.people.accounts import AccountBook
from gamut_server.people.hashing import HashingPool
from gamut_server.people.throttle import PasswordFailures
from gamut_server.storage import Store


async def reissue(db: str | None, name: str) -> str:
    """A new token for the account ``name`` in the database ``db``."""
    async with await Store.open(db) as store:
        book = AccountBook(store, Names(), AddressLimits(), HashingPool(), PasswordFailures())
        try:
            return await AccountRegistry(book).operator_reissue(name)
        finally:
            book.pool.close()


def main(argv: Sequence[str] | None = None) -> int:
    """Reissue a token; returns the exit status."""
    parser = argparse.ArgumentParser(prog="python -m gamut_server.ladder_live", description=__doc__)
    parser.add_argument("action", choices=("reissue",))
    parser.add_argument("name")
    parser.add_argument("--db", default=os.environ.get("GAMUT_DB"), help="the server's database")
    args = parser.parse_args(argv)
    try:
        token = asyncio.run(reissue(args.db, args.name))
    except UnknownAccountError as error:
        print(f"gamut: {error}", file=sys.stderr)
        return 1
    print(f"new token of {args.name} (the old one no longer works):\n\n  {token}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Greeting a connection: its ``hello`` welcomed under a name (an account's, or a guest's
bound to a token) or refused, or a connection that only watches.

:class:`Greeting` is a part of :class:`~gamut_server.core.hub.Hub`: it reads the hub's
names, accounts, sanctions and cluster bindings, declared here.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from gamut_protocol import PRESENCE_VERSION, WATCH_VERSION, Hello, Watching, Welcome
from gamut_protocol.errors import ALREADY_AUTHENTICATED, BAD_MESSAGE, BANNED, NAME_TAKEN
from gamut_server.cluster.names import SharedNames
from gamut_server.config import SERVER_NAME
from gamut_server.core.driver import Driver
from gamut_server.core.identity import NameRefusedError, Names, TokenDigest
from gamut_server.core.ops import Enter
from gamut_server.core.replies import error, who_of
from gamut_server.core.safety import Safety
from gamut_server.edge.addresses import AddressLimits
from gamut_server.edge.connection import Connection
from gamut_server.ladder_live.ops import SignedIn
from gamut_server.metrics import ServerMetrics
from gamut_server.people.accounts import AccountBook, Attempt, SignInError
from gamut_server.rooms import Lobby
from gamut_server.storage import Account, Store

if TYPE_CHECKING:
    from gamut_server.ladder_live.service import LadderService


class Greeting:
    """The hub's answers to ``hello``, and the names it binds."""

    store: Store
    driver: Driver
    names: Names
    accounts: AccountBook
    addresses: AddressLimits
    safety: Safety
    metrics: ServerMetrics
    welcomed: int
    ladder: LadderService | None
    shared_names: SharedNames | None

    @property
    def lobby(self) -> Lobby:
        """The lobby."""
        return self.driver.lobby

    async def _hello(self, conn: Connection, hello: Hello) -> None:
        """Welcome a client under its name, or refuse the name; a ``hello`` without one
        opens a connection that only watches."""
        if conn.welcomed or (conn.watcher and hello.name is None):
            error(conn, ALREADY_AUTHENTICATED, "this connection has already said hello", hello)
            return
        if hello.name is None:
            self._watch(conn, hello)
            return
        conn.protocol = hello.protocol
        banned = self.safety.banned_refusal(hello.name)
        if banned is not None:
            self.metrics.refused("banned")
            error(conn, BANNED, banned, hello)
            return
        try:
            account = await self._sign_in(conn, hello, hello.name)
            name, token = (account.name, None) if account else await self._claim_guest(conn, hello)
        except (NameRefusedError, SignInError) as refusal:
            error(conn, refusal.code, refusal.message, hello)
            return
        conn.name, conn.kind, conn.lobby = name, hello.kind, hello.lobby
        conn.account_id = None if account is None else account.id
        conn.protocol = hello.protocol
        self.welcomed += 1
        self.addresses.welcomed(conn.address)
        conn.send(
            Welcome(
                reply_to=hello.id,
                protocol=hello.protocol,
                server=SERVER_NAME,
                name=name,
                kind=hello.kind,
                guest=account is None,
                token=token,
                rooms=await self._rooms_of(name),
            )
        )
        await self.safety.welcomed(conn)
        presence = hello.protocol >= PRESENCE_VERSION
        await self.driver.lobby_op(Enter(who_of(conn), hello.lobby, presence, hello.id))
        session = None if self.ladder is None else self.ladder.session(conn.id)
        if session is not None and self.ladder is not None:
            await self.ladder.tell(SignedIn(session))

    async def _sign_in(self, conn: Connection, hello: Hello, name: str) -> Account | None:
        """The account the ``hello`` under ``name`` signs in to (its token, or else the
        connection's session cookie, proving it), holding its name; ``None`` for a
        guest's name."""
        token = hello.token if hello.token is not None else conn.session_secret
        attempt = Attempt(conn.address, self.driver.now_ms())
        account = await self.accounts.hello_account(name, token, attempt)
        if account is None:
            return None
        self.names.claim_account(account.name, conn.id)
        await self._hold_account(conn, account.name)
        if self.ladder is not None:
            self.ladder.sign_in(conn, account)
        return account

    def _watch(self, conn: Connection, hello: Hello) -> None:
        """Let a connection without a name watch rooms (protocol version 4 on). It stays
        unwelcomed for the per-address limits (at most ``unwelcomed`` from one address)
        and follows no lobby."""
        if hello.protocol < WATCH_VERSION:
            text = f"a hello needs a name before protocol version {WATCH_VERSION}"
            error(conn, BAD_MESSAGE, text, hello)
            return
        conn.watcher = True
        conn.protocol = hello.protocol
        conn.send(Watching(reply_to=hello.id, protocol=hello.protocol, server=SERVER_NAME))

    async def _rooms_of(self, name: str) -> tuple[str, ...]:
        """The unfinished games where ``name`` has a seat (in a cluster, on any node)."""
        if self.shared_names is None:
            return self.lobby.rooms_of(name)
        return tuple(await self.store.unfinished_ids(name))

    async def _hold_account(self, conn: Connection, name: str) -> None:
        """In a cluster: mark ``name`` as its account's on every node, or refuse the
        sign-in (undone here) while a guest of another node holds it."""
        if self.shared_names is None:
            return
        try:
            await self.shared_names.bind_account(name)
        except NameRefusedError:
            if self.ladder is not None:
                self.ladder.disconnected(conn)
            self.names.release(name, conn.id, keep=False)
            raise

    async def _claim_guest(self, conn: Connection, hello: Hello) -> tuple[str, str]:
        """Bind the ``hello``'s name to this guest connection; store a new binding's hash
        (so a seat it takes is still its own after a restart). Returns the name as its
        holder spells it, and the token.

        In a cluster the name must also be free on every node, or bound there to the
        same token: the binding in Redis is checked first, and a new one made there.
        """
        assert hello.name is not None, "a hello without a name only watches"
        kept = self.safety.guest_name_refusal(hello.name)
        if kept is not None:
            self.metrics.refused("name_kept")
            raise NameRefusedError(NAME_TAKEN, kept)
        if self.shared_names is not None:
            await self._adopt_shared_binding(hello)
        claim = self.names.claim(hello.name, hello.token, conn.id)
        shared = self.shared_names
        try:
            if claim.digest and shared and not await shared.bind_guest(claim.name, claim.digest):
                raise NameRefusedError(
                    NAME_TAKEN, f"the name {hello.name!r} was taken just now; choose another"
                )
        except NameRefusedError:
            self.names.release(claim.name, conn.id, keep=False)
            raise
        if claim.digest is not None:
            try:
                await self.store.save_guest_claim(claim.name, claim.digest.stored())
            except BaseException:
                self.names.release(claim.name, conn.id, keep=False)
                raise
        return claim.name, claim.token

    async def _adopt_shared_binding(self, hello: Hello) -> None:
        """Check the ``hello`` against the cluster's binding of its name, and bind the
        name here to the same token if another node holds it."""
        assert self.shared_names is not None
        assert hello.name is not None, "a hello without a name only watches"
        digest = await self.shared_names.guest_digest(hello.name, hello.token)
        if digest is not None and hello.name not in self.names:
            self.names.restore(hello.name, digest)

    async def restore_guest_claims(self) -> None:
        """After a restart: bind every guest seated in an unfinished game to its stored token."""
        seated = {
            seat.name
            for handle in self.driver.rooms.values()
            if not handle.room.over
            for seat in handle.room.spec.seats
            if not seat.is_ai
        }
        for name, stored in (await self.store.guest_claim_hashes(seated)).items():
            self.names.restore(name, TokenDigest.parse(stored))

"""People's accounts: signing up, signing in with a password or a session, changing the
password, and the ``hello`` of an account.

An account is a name with one owner whatever its case. A person makes one with a
password (``POST /api/signup``); a bot author registers one and gets a token (``POST
/api/accounts``); either kind can have both. A ``hello`` under an account's name signs
in with a session's secret (the browser's cookie, or the secret ``gamut login`` keeps)
or with the bot's token; a person without either is told to sign in. Passwords and
tokens are checked in the hashing pool, and every try spends from its address's and
its account's allowances first (see :mod:`.throttle`).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Final

from gamut_protocol.errors import BAD_TOKEN, NAME_TAKEN, RATE_LIMITED, UNAVAILABLE, ErrorCode
from gamut_server.core.identity import NameRefusedError, Names
from gamut_server.edge.addresses import AddressLimits
from gamut_server.ladder.accounts import AccountNameError, TokenHasher, check_name
from gamut_server.people.hashing import HashingBusyError, HashingPool
from gamut_server.people.passwords import Passwords, password_refusal
from gamut_server.people.sessions import Sessions, is_session_secret
from gamut_server.people.throttle import PasswordFailures, wait_sentence
from gamut_server.storage import Account, DuplicateAccountError, Store

SIGN_IN_HINT: Final = "sign in with its password (gamut login, or the page's sign-in form)"
"""How a person signs in, for refusals."""


class AccountTakenError(ValueError):
    """The name is registered already (whatever its case), or a guest holds it now."""


class UnknownAccountError(LookupError):
    """No account has this name."""


class PasswordRefusedError(ValueError):
    """A password that cannot be used; the message says why."""


class SignInError(ValueError):
    """A sign-in refused: ``code`` for programs, the message for people."""

    def __init__(self, code: ErrorCode, message: str) -> None:
        super().__init__(message)
        self.code: ErrorCode = code
        """``bad_token``, ``name_taken``, ``rate_limited`` or ``unavailable``."""
        self.message = message
        """Why, for people."""


@dataclass(frozen=True, slots=True)
class Attempt:
    """Where a sign-in comes from: the client's address and the time (``now_ms``)."""

    address: str
    """The client's address."""
    now_ms: int
    """The event loop's clock, in milliseconds."""


async def _hold_nothing(name: str) -> None:
    """A server alone has no other node to keep off a name."""


class AccountBook:
    """Every account: making them, signing in, and their passwords."""

    def __init__(
        self,
        store: Store,
        names: Names,
        addresses: AddressLimits,
        pool: HashingPool,
        failures: PasswordFailures,
        *,
        tokens: TokenHasher | None = None,
    ) -> None:
        """Accounts in ``store``; ``names`` are the names in use here."""
        self.store = store
        self.names = names
        self.addresses = addresses
        self.pool = pool
        """Where passwords and tokens are hashed."""
        self.failures = failures
        """Wrong passwords per account."""
        self.tokens = tokens or TokenHasher()
        """Hashes and checks bots' tokens."""
        self.passwords = Passwords(pool)
        """Hashes and checks passwords."""
        self.sessions = Sessions(store)
        """Signed-in sessions."""
        self.hold_name: Callable[[str], Awaitable[None]] = _hold_nothing
        """Keeps guests of other nodes off a name about to be registered; raises
        :class:`NameRefusedError` if a guest holds it there (a cluster sets it)."""

    # --- making accounts ---------------------------------------------------------------

    async def create(
        self, name: str, *, token_hash: str | None = None, password: str | None = None
    ) -> Account:
        """Register ``name`` with a token's hash, a password, or both.

        Raises :class:`AccountNameError` for a name that cannot be an account's,
        :class:`PasswordRefusedError`, :class:`AccountTakenError` for a name registered
        (whatever its case) or held by a guest, and :class:`HashingBusyError`.
        """
        check_name(name)
        if password is not None:
            _check_password(password, name)
        guest_playing = (
            f"a guest called {name!r} is playing under this name; try again once they leave"
        )
        if self.names.guest_bound(name):
            raise AccountTakenError(guest_playing)
        try:
            await self.hold_name(name)
        except NameRefusedError:
            raise AccountTakenError(guest_playing) from None
        with self.names.registering(name):
            existing = await self.store.account(name)
            if existing is not None:
                raise AccountTakenError(_taken(name, existing))
            password_hash = None if password is None else await self.passwords.hash(password)
            try:
                account = await self.store.create_account(
                    name, token_hash, password_hash=password_hash
                )
            except DuplicateAccountError:
                raise AccountTakenError(f"the name {name!r} was registered just now") from None
            await self.store.forget_guest_claim(name)
        return account

    # --- signing in --------------------------------------------------------------------

    async def sign_in(self, name: str, password: str, attempt: Attempt) -> Account:
        """The account ``name`` if ``password`` is its password; raises
        :class:`SignInError` (wrong, unknown, too many tries, pool full)."""
        self._spend_attempt(name, attempt)
        account = await self.store.account(name)
        if account is None:
            raise SignInError(BAD_TOKEN, f"no account is called {name!r}")
        if account.password_hash is None:
            raise SignInError(
                BAD_TOKEN,
                f"the account {account.name!r} has no password yet: its owner can set one "
                "with its token (POST /api/account/password)",
            )
        if not await self._verify(self.passwords.verify(account.password_hash, password)):
            self.failures.failed(account.name, attempt.now_ms)
            raise SignInError(BAD_TOKEN, f"that is not the password of {account.name!r}")
        return account

    async def hello_account(self, name: str, token: str | None, attempt: Attempt) -> Account | None:
        """The account a ``hello`` under ``name`` signs in to with ``token`` (a session's
        secret or a bot's token); ``None`` when no account has the name. Raises
        :class:`SignInError` when one has and ``token`` does not open it."""
        account = await self.store.account(name)
        if account is None:
            return None
        if token is None:
            raise SignInError(
                NAME_TAKEN,
                f"the name {name!r} belongs to the account {account.name!r}: "
                f"{SIGN_IN_HINT}, or send its token",
            )
        if is_session_secret(token):
            signed = await self.sessions.account(token)
            if signed is None or signed.id != account.id:
                raise SignInError(
                    BAD_TOKEN,
                    f"this sign-in to {account.name!r} has ended: {SIGN_IN_HINT} again",
                )
            return account
        await self.check_token(account, token, attempt)
        return account

    async def check_token(self, account: Account, token: str, attempt: Attempt) -> None:
        """Let ``token`` prove ``account`` (a bot's token), or raise
        :class:`SignInError`."""
        if account.revoked:
            raise SignInError(
                BAD_TOKEN,
                f"the token of {account.name!r} was revoked: its owner must have a new one issued",
            )
        self._spend_attempt(account.name, attempt, spend=False)
        stored = account.token_hash
        if not await self._verify(self.pool.run(lambda: self.tokens.verify(stored, token))):
            self.failures.failed(account.name, attempt.now_ms)
            self.addresses.allow("sign_ins", attempt.address, attempt.now_ms)
            raise SignInError(BAD_TOKEN, f"that is not the token of {account.name!r}")

    def _spend_attempt(self, name: str, attempt: Attempt, *, spend: bool = True) -> None:
        """Count one try at ``name``'s secret (unless not ``spend``: a bot's token, whose
        tries count only when wrong), or refuse it: its address or the account has tried
        too often (the refusal counts toward the address's cut-off)."""
        refusal = self.failures.refusal(name, attempt.now_ms)
        wait = self.addresses.wait_ms("sign_ins", attempt.address, attempt.now_ms)
        if refusal is None and wait:
            refusal = f"too many sign-ins from your address: {wait_sentence(wait)} and try again"
        if refusal is not None:
            # Refused sign-ins count against the address like other refused requests:
            # one that keeps asking is cut off.
            sentence = self.addresses.refused_sentence(refusal, attempt.address, attempt.now_ms)
            raise SignInError(RATE_LIMITED, sentence)
        if spend:
            self.addresses.allow("sign_ins", attempt.address, attempt.now_ms)

    async def _verify(self, check: Awaitable[bool]) -> bool:
        """The verdict of a hash check, or :class:`SignInError` if the pool is full."""
        try:
            return await check
        except HashingBusyError as busy:
            raise SignInError(UNAVAILABLE, str(busy)) from None

    # --- passwords ---------------------------------------------------------------------

    async def set_password(self, account: Account, password: str) -> None:
        """Give ``account`` the password ``password``, and sign every session of it out
        (the caller opens a new one for the person who changed it)."""
        _check_password(password, account.name)
        await self.store.set_password(account.id, await self.passwords.hash(password))
        await self.sessions.end_all(account)


def _check_password(password: str, name: str) -> None:
    """Raise :class:`PasswordRefusedError` if ``password`` cannot be ``name``'s."""
    refusal = password_refusal(password, name)
    if refusal is not None:
        raise PasswordRefusedError(refusal)


def _taken(name: str, existing: Account) -> str:
    """Why ``name`` cannot be registered: ``existing`` has it."""
    if existing.name == name:
        return f"the name {name!r} is already registered"
    return (
        f"the name {name!r} is already registered as {existing.name!r}: "
        "names are one whatever their case"
    )


__all__ = [
    "AccountBook",
    "AccountNameError",
    "AccountTakenError",
    "Attempt",
    "PasswordRefusedError",
    "SignInError",
    "UnknownAccountError",
]

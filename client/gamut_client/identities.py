"""Tokens kept between runs: a guest's, so a restarted client gets its name and its seats
back, and the session ``gamut login`` opened for an account.

A server binds a guest's name to the token its first ``welcome`` gave, for as long as
the player is connected or holds a seat in an unfinished game. A client that saves the
token and shows it in its next ``hello`` comes back under the same name and can take
its seats back; one that forgets it is ``name_taken``. :class:`IdentityFile` keeps the
tokens in ``$XDG_CONFIG_HOME/gamut/identities.json`` (``~/.config/gamut/…`` when the
variable is not set), one per server URL and name::

    {"version": 1, "servers": {"ws://127.0.0.1:8080/ws": {"ada": "3Rk9xQ…"}}}

An account's session secret (``session_…``) is kept the same way, under the account's
name; :meth:`IdentityFile.session` finds it for ``gamut play``.

The file is private (mode 0600, in a folder of mode 0700), replaced whole on each
write, and read again just before, so clients saving at once keep each other's
entries. Saving is a convenience: a file that cannot be read counts as empty and one
that cannot be written is logged, and the client plays on.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import tempfile
from collections.abc import Mapping
from pathlib import Path
from typing import Final

from gamut_client.addresses import server_url

log = logging.getLogger(__name__)

FILE_NAME: Final = "identities.json"
"""The file's name in Gamut's configuration folder."""

FORMAT_VERSION: Final = 1
"""The version of the file's layout."""

SESSION_PREFIX: Final = "session_"
"""How a session's secret starts (a guest's token never does)."""

Servers = dict[str, dict[str, str]]
"""Tokens by server URL, then by player name."""


def config_folder(environ: Mapping[str, str] | None = None) -> Path:
    """Gamut's configuration folder: ``$XDG_CONFIG_HOME/gamut``, else ``~/.config/gamut``.

    A relative ``XDG_CONFIG_HOME`` is ignored, as the XDG specification asks.
    """
    environ = os.environ if environ is None else environ
    xdg = environ.get("XDG_CONFIG_HOME", "")
    base = Path(xdg) if xdg and Path(xdg).is_absolute() else Path.home() / ".config"
    return base / "gamut"


class IdentityFile:
    """The saved guest tokens, by server and name."""

    def __init__(self, path: Path | None = None) -> None:
        """The tokens saved in ``path``, by default ``identities.json`` in :func:`config_folder`."""
        self.path = path if path is not None else config_folder() / FILE_NAME
        """Where the tokens are kept."""

    def token(self, server: str, name: str) -> str | None:
        """The token saved for ``name`` on ``server``, if any."""
        return self._read().get(server_url(server), {}).get(name)

    def session(self, server: str) -> tuple[str, str] | None:
        """The account name and session secret ``gamut login`` kept for ``server``, if any."""
        for name, token in self._read().get(server_url(server), {}).items():
            if token.startswith(SESSION_PREFIX):
                return name, token
        return None

    def remember(self, server: str, name: str, token: str) -> bool:
        """Save ``token`` for ``name`` on ``server``; whether it was written."""
        servers = self._read()
        names = servers.setdefault(server_url(server), {})
        if names.get(name) == token:
            return True
        names[name] = token
        return self._write(servers)

    def forget(self, server: str, name: str) -> bool:
        """Drop the token saved for ``name`` on ``server``; whether the file holds none now."""
        servers = self._read()
        url = server_url(server)
        names = servers.get(url, {})
        if name not in names:
            return True
        del names[name]
        if not names:
            del servers[url]
        return self._write(servers)

    def _read(self) -> Servers:
        """Everything saved; empty when there is no file or it cannot be read."""
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            return {}
        except (OSError, ValueError) as error:
            log.warning("ignoring the saved identities in %s: %s", self.path, error)
            return {}
        return _valid(data)

    def _write(self, servers: Servers) -> bool:
        """Replace the file with ``servers``, privately; whether it was written."""
        text = json.dumps({"version": FORMAT_VERSION, "servers": servers}, indent=2) + "\n"
        folder = self.path.parent
        try:
            folder.mkdir(mode=0o700, parents=True, exist_ok=True)
            handle, temporary = tempfile.mkstemp(dir=folder, prefix=".identities-")
        except OSError as error:
            log.warning("cannot save identities in %s: %s", self.path, error)
            return False
        try:
            with os.fdopen(handle, "w", encoding="utf-8") as stream:
                stream.write(text)
                stream.flush()
                os.fsync(stream.fileno())
            os.replace(temporary, self.path)
        except OSError as error:
            log.warning("cannot save identities in %s: %s", self.path, error)
            with contextlib.suppress(OSError):
                os.unlink(temporary)
            return False
        return True


def _valid(data: object) -> Servers:
    """The well-formed entries of the file's JSON (others are ignored)."""
    servers = data.get("servers") if isinstance(data, dict) else None
    if not isinstance(servers, dict):
        return {}
    return {
        str(url): {name: token for name, token in names.items() if _is_text(name, token)}
        for url, names in servers.items()
        if isinstance(names, dict)
    }


def _is_text(*values: object) -> bool:
    """Whether every value is a non-empty string."""
    return all(isinstance(value, str) and value for value in values)

"""Database URLs: the SQLite default and the mapping of plain URLs to the async drivers."""

from __future__ import annotations

from sqlalchemy.engine import URL, make_url

DEFAULT_URL = "sqlite+aiosqlite:///gamut.sqlite3"
"""The embedded default: ``gamut.sqlite3`` in the working folder."""

_DRIVERS = {
    "sqlite": "sqlite+aiosqlite",
    "sqlite+aiosqlite": "sqlite+aiosqlite",
    "postgres": "postgresql+asyncpg",
    "postgresql": "postgresql+asyncpg",
    "postgresql+asyncpg": "postgresql+asyncpg",
}


def database_url(url: str | None = None) -> URL:
    """The async SQLAlchemy URL for ``url``.

    ``None`` or an empty string gives :data:`DEFAULT_URL`; text without ``://`` is a
    SQLite file path; ``sqlite://…`` and ``postgresql://…`` (or ``postgres://…``) are
    mapped to the aiosqlite and asyncpg drivers. Other drivers raise ``ValueError``.
    """
    if not url:
        url = DEFAULT_URL
    elif "://" not in url:
        url = f"sqlite+aiosqlite:///{url}"
    parsed = make_url(url)
    driver = _DRIVERS.get(parsed.drivername.lower())
    if driver is None:
        known = ", ".join(sorted(_DRIVERS))
        raise ValueError(f"unsupported database URL {parsed.drivername!r}; use one of {known}")
    return parsed.set(drivername=driver)


def is_sqlite(url: URL) -> bool:
    """Whether ``url`` names a SQLite database."""
    return url.get_backend_name() == "sqlite"


def is_memory(url: URL) -> bool:
    """Whether ``url`` names an in-memory SQLite database (gone when the store closes)."""
    return is_sqlite(url) and url.database in (None, "", ":memory:")


def shown_url(url: str | None) -> str:
    """Where the games are kept, for people: a file as given, a URL without its password."""
    if url and "://" in url:
        return database_url(url).render_as_string(hide_password=True)
    return url or "gamut.sqlite3"

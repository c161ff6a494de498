"""Alembic's environment: runs the revisions on the connection Gamut hands over.

:mod:`gamut_server.storage.migrate` opens the connection (and its transaction, and on
PostgreSQL a lock that keeps two servers from migrating at once) and passes it in
``config.attributes["connection"]``.
"""

from __future__ import annotations

from alembic import context

import gamut_server.storage  # noqa: F401  (its modules register every table on the metadata)
from gamut_server.storage.schema import metadata

connection = context.config.attributes.get("connection")
if connection is None:
    raise RuntimeError("Gamut's migrations run through `gamut db upgrade` or `gamut serve`")

context.configure(
    connection=connection,
    target_metadata=metadata,
    # SQLite alters a table by copying it; Alembic's batch mode does that for us.
    render_as_batch=connection.dialect.name == "sqlite",
)
with context.begin_transaction():
    context.run_migrations()

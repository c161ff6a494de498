"""Alembic's script directory for Gamut's tables: ``env.py`` and ``versions/``.

The revisions are run by :mod:`gamut_server.storage.migrate` (``gamut serve`` at
start, ``gamut db upgrade``), never by a separate ``alembic.ini``.
"""

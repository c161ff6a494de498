"""Keeping a ``DataTable``'s rows equal to a list of keyed rows, changing only what changed.

Clearing and refilling a table of hundreds of rooms on every lobby message costs
milliseconds each; :func:`sync_rows` updates the cells that differ, removes rows that
are gone and appends new ones, and rebuilds only when the order of the rows changed.
"""

from __future__ import annotations

from collections.abc import Iterable

from rich.markup import escape
from textual.widgets import DataTable


def sync_rows(table: DataTable[str], rows: Iterable[tuple[str, tuple[str, ...]]]) -> None:
    """Make ``table`` show ``rows`` (key, cells) in order, keeping the cursor on its key.

    Cells are escaped: the table reads markup, and a name's ``[bot]`` mark would vanish.
    """
    wanted = {key: tuple(escape(cell) for cell in cells) for key, cells in rows}
    current = _cursor_key(table)
    shown = [row_key.value for row_key in table.rows]
    kept = [key for key in shown if key in wanted]
    order = list(wanted)
    if kept != order[: len(kept)]:
        table.clear()
        kept = []
    for key in shown:
        if key is not None and key not in wanted and key in table.rows:
            table.remove_row(key)
    for key in kept:
        _update_cells(table, key, wanted[key])
    for key in order[len(kept) :]:
        table.add_row(*wanted[key], key=key)
    if current is not None and current in table.rows:
        table.move_cursor(row=table.get_row_index(current))


def _cursor_key(table: DataTable[str]) -> str | None:
    """The key of the row under the cursor, if any."""
    if not table.row_count:
        return None
    return table.coordinate_to_cell_key(table.cursor_coordinate).row_key.value


def _update_cells(table: DataTable[str], key: str, cells: tuple[str, ...]) -> None:
    """Set the cells of row ``key`` that differ from ``cells``."""
    old = table.get_row(key)
    for column, (before, after) in zip(table.columns, zip(old, cells, strict=True), strict=True):
        if before != after:
            table.update_cell(key, column, after, update_width=True)

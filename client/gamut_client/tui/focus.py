"""Moving the focus at once, so keys typed ahead land where the person meant them.

The application routes each key to the widget that has the focus when it takes the key
from its queue. A focus moved any later (by the widget the key reached, or by
``Widget.focus``, which waits until the keys already queued are routed) sends the keys
typed meanwhile to the old widget: a fast typist, or anyone on a busy machine, would
lose them. So the screens move the focus with ``Screen.set_focus``, in a priority
binding (run while the key is routed) or before the key is routed
(:meth:`~gamut_client.tui.app.GamutApp.on_event` asks the screen first).
"""

from __future__ import annotations

from typing import Final

from textual import events
from textual.binding import Binding

FOCUS_BINDINGS: Final = (
    Binding("tab", "app.focus_next", "Next", show=False, priority=True),
    Binding("shift+tab", "app.focus_previous", "Previous", show=False, priority=True),
)
"""Tab and shift+Tab, moving the focus before the next key is routed."""


def typed_character(event: events.Key) -> str | None:
    """The printable character ``event`` types, if any."""
    return event.character if event.is_printable else None

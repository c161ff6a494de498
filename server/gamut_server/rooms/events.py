"""A room's numbered events, kept for replay to clients that resume."""

from __future__ import annotations

from collections import deque

from gamut_protocol import ChatLine, SequencedEvent


class EventLog:
    """The room's sequence counter and its latest events, oldest first."""

    def __init__(self, last_seq: int = 0, keep: int = 5_000) -> None:
        """A log whose last event was ``last_seq``, keeping at most ``keep`` events."""
        self.last_seq = last_seq
        """The sequence number of the room's latest event (0 before the first)."""
        self._first_kept = last_seq + 1
        self._events: deque[SequencedEvent] = deque(maxlen=keep)

    def next_seq(self) -> int:
        """The number for the next event (call :meth:`append` with that event next)."""
        return self.last_seq + 1

    def append(self, event: SequencedEvent) -> None:
        """Keep ``event``, numbered :meth:`next_seq`."""
        assert event.seq == self.last_seq + 1, "events are numbered in order"
        if len(self._events) == self._events.maxlen:
            self._first_kept += 1
        self._events.append(event)
        self.last_seq = event.seq or self.last_seq

    def redact(self, seq: int, text: str) -> None:
        """Replace the words of the chat line numbered ``seq``, if it is kept."""
        for index, event in enumerate(self._events):
            if event.seq == seq and isinstance(event, ChatLine):
                self._events[index] = event.model_copy(update={"text": text})
                return

    def rewind(self, last_seq: int) -> None:
        """Forget every event numbered above ``last_seq`` (a batch that was not stored):
        the next event is numbered ``last_seq + 1`` again."""
        while self._events and (self._events[-1].seq or 0) > last_seq:
            self._events.pop()
        self.last_seq = min(self.last_seq, last_seq)
        self._first_kept = self.last_seq + 1 - len(self._events)

    def after(self, seq: int) -> list[SequencedEvent] | None:
        """Every event numbered above ``seq``; ``None`` unless all of them are kept.

        A ``seq`` beyond the latest one (a client that saw events from before a
        restart) also gives ``None``: the client needs a snapshot.
        """
        if seq > self.last_seq or seq + 1 < self._first_kept:
            return None
        skip = seq + 1 - self._first_kept
        return list(self._events)[skip:]

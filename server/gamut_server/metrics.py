"""What an operator's monitoring reads: ``GET /metrics`` in Prometheus' text format.

Made with ``prometheus_client``, each server application with its own registry (several
servers may share a process, as in the tests). Counters and histograms are updated
where things happen (a move stored, a write committed, a refusal); the rest is read from
the hub when scraped. Every name starts with ``gamut_``. See ``docs/operations.md``.

The endpoint answers clients on the server's own machine (a loopback address, after any
trusted proxy) and 404 to everyone else, so ``curl http://127.0.0.1:PORT/metrics``
works on the server and strangers see nothing.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Iterator
from typing import Final, Protocol

from prometheus_client import CollectorRegistry, Counter, Histogram, generate_latest
from prometheus_client.core import GaugeMetricFamily, Metric
from prometheus_client.exposition import CONTENT_TYPE_LATEST

CONTENT_TYPE: Final = CONTENT_TYPE_LATEST
"""The media type of Prometheus' text format."""

LATENCY_BUCKETS: Final = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5)
"""Histogram buckets in seconds for a move's latency and a store commit's."""


class Readings(Protocol):
    """What the hub tells a scrape."""

    def gauges(self) -> dict[str, tuple[str, float]]:
        """Each gauge's name (without ``gamut_``) with its help and value."""
        ...


class ServerMetrics:
    """One server's metrics and their registry."""

    def __init__(self) -> None:
        """Every counter at zero."""
        self.registry = CollectorRegistry()
        """Where every metric of this server is registered."""
        self.moves = Counter(
            "gamut_moves", "Moves stored and broadcast, the AI's included.", registry=self.registry
        )
        self.move_latency = Histogram(
            "gamut_move_latency_seconds",
            "From a player's move read off its socket to its broadcast queued (stored first).",
            buckets=LATENCY_BUCKETS,
            registry=self.registry,
        )
        self.store_commit = Histogram(
            "gamut_store_commit_seconds",
            "From a write handed to the store to its transaction committed.",
            buckets=LATENCY_BUCKETS,
            registry=self.registry,
        )
        self.ai_search = Histogram(
            "gamut_ai_search_seconds",
            "How long the hosted AI's searches took, from the request queued to the answer.",
            buckets=(0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 3.0, 5.0, 8.0),
            registry=self.registry,
        )
        self.refusals = Counter(
            "gamut_refusals",
            "Requests refused by a limit or a sanction, by limit.",
            ["limit"],
            registry=self.registry,
        )

    def refused(self, limit: str) -> None:
        """Count one refusal by ``limit``."""
        self.refusals.labels(limit).inc()

    def read_from(self, readings: Readings) -> None:
        """Read the gauges from ``readings`` at every scrape."""
        self.registry.register(_Gauges(readings))

    def text(self) -> bytes:
        """Every metric in Prometheus' text format."""
        return generate_latest(self.registry)


class _Gauges:
    """A collector asking the hub for its gauges when scraped."""

    def __init__(self, readings: Readings) -> None:
        self.readings = readings

    def collect(self) -> Iterator[Metric]:
        """One gauge for each of the hub's readings."""
        for name, (help_text, value) in self.readings.gauges().items():
            yield GaugeMetricFamily(f"gamut_{name}", help_text, value=value)


def is_local(address: str) -> bool:
    """Whether ``address`` is on the server's own machine."""
    try:
        return ipaddress.ip_address(address).is_loopback
    except ValueError:
        return False

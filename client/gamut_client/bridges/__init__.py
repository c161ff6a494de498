"""Bridges that let programs written for other protocols play on a Gamut server."""

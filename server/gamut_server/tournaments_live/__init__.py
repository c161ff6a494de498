"""Tournaments on a running server: the director, entering and withdrawing, the HTTP API."""

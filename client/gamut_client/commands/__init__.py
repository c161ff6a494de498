"""Subcommands of ``gamut`` that live in the client package."""

"""Tournaments, pure: the settings a new one is checked against, round robin schedules,
arena pairing and standings. No I/O; :mod:`gamut_server.tournaments_live` runs them."""

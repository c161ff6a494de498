"""Gamut's server: rooms, clocks, storage, the hosted AI and the ladder, over aiohttp."""

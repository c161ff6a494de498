"""Gamut's clients: the command line, the terminal client, the bot SDK and engine bridges."""

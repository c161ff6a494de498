"""A program speaking Gamut's line protocol, for Gamut's tests: it plays the first legal move.

It knows nothing of Gamut but the line protocol: it remembers the ``legal`` line and
answers each ``go`` with its first move, and notes the game and the result as comments.
"""

from __future__ import annotations

import sys

legal: list[str] = []
for raw in sys.stdin:
    word, _, rest = raw.strip().partition(" ")
    if word == "game":
        print(f"# playing {rest}", flush=True)
    elif word == "legal":
        legal = rest.split()
    elif word == "go":
        print(legal[0], flush=True)
    elif word == "result":
        print(f"# {rest}", flush=True)
    elif word == "quit":
        break

"""People's accounts: names with one owner, passwords, sign-in sessions, throttling,
rating categories and ratings, and the pages and endpoints that show a player.

- :mod:`.names`: folding names so that ``Ada_L`` and ``ada_l`` are one, and the names
  the server keeps for itself.
- :mod:`.categories`: the rating category of a game (game, variant and speed).
- :mod:`.passwords`: argon2id hashing off the event loop, a bounded number at once.
- :mod:`.sessions`: sign-in sessions, as a cookie for the browser or a token for others.
- :mod:`.throttle`: how often an address, or an account, may try a password.
"""

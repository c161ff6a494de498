"""The ladder on a running server: accounts signing in, pools pairing continuously, rated
games, and the HTTP endpoints for accounts and standings.

:class:`~gamut_server.ladder_live.service.LadderService` drives the pure parts of
:mod:`gamut_server.ladder` from the event loop; the hub calls it on ``hello``,
``join_ladder``, ``leave_ladder`` and a closed connection, and the driver when a game
ends.
"""

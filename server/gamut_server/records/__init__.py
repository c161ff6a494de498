"""What Gamut records of its games and its ladder: plain frozen dataclasses.

The storage layer keeps and hands back these values, and the pure rooms and ladder
make and read them; nothing here imports SQLAlchemy, asyncio or the wire protocol, so
a room can be loaded (and tested) without a database library. :mod:`.games` holds a
game, its players, clock, moves, chat and accounts; :mod:`.ladder` the ratings, their
history and the pools' queues; :mod:`.people` people's ratings per category and their
history. :mod:`gamut_server.storage` re-exports them all.
"""

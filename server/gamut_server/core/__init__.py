"""The core: routing each client's request to the lobby or its room, and performing
what they answer.

``hub`` welcomes connections and routes their messages, ``ops`` is what it asks of the
lobby and a room as data, ``driver`` calls the pure rooms and lobby
(:mod:`gamut_server.rooms`) under each room's lock and performs their effects (storage
first, then messages): ``delivery`` queues a message on its recipients and
``ai_turns`` asks the AI pool for a move. ``identity`` says who may use which name,
``recovery`` brings unfinished games back after a restart, and ``cluster_side`` is the
port through which a cluster's node (:mod:`gamut_server.cluster`) reaches the server.
"""

"""Several Gamut nodes as one service: rooms, lobby and names shared through Redis.

See :mod:`gamut_server.cluster.node` for how the nodes divide the work, and
docs/deploy.md for running them.
"""

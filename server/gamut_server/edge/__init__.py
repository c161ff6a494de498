"""The edge: everything that speaks to clients.

``session`` is the ``/ws`` endpoint (one task reading each socket), ``connection`` a
client's outgoing queue and writer task, ``addresses`` the limits per address,
``versions`` what clients of older protocol versions are sent, ``lobby_feed`` the
lobby's coalesced updates to one subscriber; ``http_api``, ``replay`` and ``static``
answer HTTP: the JSON endpoints, a stored game replayed for viewers, the browser page.
Nothing here decides anything about a game: frames go to :mod:`gamut_server.core`.
"""

"""Moderation: moderators, bans of names and networks, mutes, players' reports and
blocks, and the audit log of every action (see ``docs/moderation.md``).

``rules`` is pure (durations, what is in force); ``actions`` is the one set of rules the
command line, the HTTP API and the ``/mod`` page share; ``watch`` applies the sanctions
in force to a running server within a second of any action, wherever it was taken.
"""

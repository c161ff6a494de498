"""Faults made for real: a storage write refused, a database restarted, Redis restarted,
a node paused past its lease; each time no accepted move is lost and no game dies."""

"""The hosted AI: worker processes that search, never on the event loop.

``pool`` owns the process pool the server asks for moves, ``worker`` is what runs in
each worker process (it imports only the engine), and ``worker_collection`` schedules
the worker's garbage collection between answers.
"""

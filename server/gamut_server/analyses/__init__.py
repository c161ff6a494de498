"""The AI's analyses of finished games: asked for over HTTP, run in worker processes below
live games, kept in storage and served to everyone (see ``docs/server.md``)."""

"""One module per game, each implementing :class:`gamut_engine.core.Game`."""

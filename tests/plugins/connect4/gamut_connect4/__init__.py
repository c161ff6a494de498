"""Connect Four, a game for Gamut, registered in the ``gamut.games`` entry-point group."""

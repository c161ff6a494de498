"""Hex on a rhombus board, registered in the ``gamut.games`` entry-point group.

A package of its own (``pyproject.toml`` beside it): ``pip install tests/plugins/hex`` adds
the game to an installed Gamut. Gamut's tests find it without an install, the way they
would find any installed game, through the metadata in ``gamut_hex-0.1.dist-info``.
"""

"""Hex on a rhombus board, registered in the ``gamut.games`` entry-point group.

It lives only under ``tests/``: Gamut finds it the way it finds any game from another
package, through the metadata in ``gamut_hex-0.1.dist-info`` beside it.
"""

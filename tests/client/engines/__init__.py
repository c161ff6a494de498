"""External programs the bridge tests run: they know nothing of Gamut but their protocol."""

"""``python -m gamut_client.tui``: the same as ``gamut play``."""

import sys

from gamut_client.commands.play import main

sys.exit(main())

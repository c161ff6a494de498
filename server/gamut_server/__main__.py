"""``python -m gamut_server``: run the server (the same as ``gamut serve``)."""

import sys

from gamut_server.cli import main

sys.exit(main())

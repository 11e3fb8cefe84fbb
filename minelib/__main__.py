"""``python -m minelib``: see minelib.cli."""

import sys

from minelib.cli import main

sys.exit(main())

"""``esper-motion`` (or ``python -m esper_motion.demos``): run a demo scene in a window, or headless to PNG frames and a
GIF."""

from __future__ import annotations

import sys

from esper_motion.cli import main

sys.exit(main())

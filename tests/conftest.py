"""Helpers shared by several test folders (``lab_server.py``): make them importable.

Property tests draw the same examples on every run (a fixed function of each test), so a
CI run replays exactly; ``HYPOTHESIS_PROFILE=explore`` searches afresh each time.
"""

import os
import sys
from pathlib import Path

from hypothesis import settings

sys.path.insert(0, str(Path(__file__).parent))

settings.register_profile("replay", derandomize=True)
settings.register_profile("explore", derandomize=False)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "replay"))

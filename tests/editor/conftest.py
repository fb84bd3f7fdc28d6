"""The editor tests share ``editor_helpers.py``: make it importable."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

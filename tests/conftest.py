"""Helpers shared by several test folders (``lab_server.py``): make them importable."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

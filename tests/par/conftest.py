"""The solo solver's tests share ``par_boards.py``: make it importable."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

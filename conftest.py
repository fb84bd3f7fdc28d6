"""Settings shared by the whole test run (tests and notebooks under nbmake)."""

import os

# Notebooks read FDLAB_QUICK to shrink their long studies (1,000 championships,
# playtests of hundreds of races) to a size that checks they run, not what they find.
os.environ.setdefault("FDLAB_QUICK", "1")

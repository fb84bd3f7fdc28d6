"""Settings shared by the whole test run (tests and notebooks under nbmake)."""

import atexit
import os
import shutil
import tempfile

# Notebooks read FDLAB_QUICK to shrink their long studies (1,000 championships,
# playtests of hundreds of races) to a size that checks they run, not what they find.
os.environ.setdefault("FDLAB_QUICK", "1")

# Solved par tables go to a throw-away cache folder, never the user's (fdlab.par.store).
os.environ["FDLAB_CACHE_DIR"] = tempfile.mkdtemp(prefix="fdlab-test-cache-")
atexit.register(shutil.rmtree, os.environ["FDLAB_CACHE_DIR"], ignore_errors=True)

"""Settings shared by the whole test run (tests and notebooks under nbmake)."""

import atexit
import os
import shutil
import tempfile

import pytest

# Notebooks read FDLAB_QUICK to shrink their long studies (1,000 championships,
# playtests of hundreds of races) to a size that checks they run, not what they find.
os.environ.setdefault("FDLAB_QUICK", "1")

# Solved par tables go to a throw-away cache folder, never the user's (fdlab.par.store).
os.environ["FDLAB_CACHE_DIR"] = tempfile.mkdtemp(prefix="fdlab-test-cache-")
atexit.register(shutil.rmtree, os.environ["FDLAB_CACHE_DIR"], ignore_errors=True)


@pytest.fixture(autouse=True)
def _doctest_names(doctest_namespace: dict[str, object]) -> None:
    """Names every docstring example may use without importing them (as networkx's ``nx``).

    ``from_ascii`` draws a board as text, ``compile_board`` makes it playable
    and ``BASIC`` is the basic rules preset: most examples start from them,
    so they start at their idea instead of three imports. ``ring`` is a small
    two-lane ring with a 1-stop and a 2-stop corner, ``sprint`` a one-lane race
    with no corner, ``corner_strip`` a lane with one corner (both functions of
    :mod:`fdlab.track.examples`), and ``fd`` the front door.
    """
    import fdlab
    from fdlab.rules.board import compile_board
    from fdlab.rules.presets import BASIC
    from fdlab.track import from_ascii
    from fdlab.track.examples import corner_strip, sprint, two_corner_ring

    doctest_namespace.update(
        from_ascii=from_ascii,
        compile_board=compile_board,
        BASIC=BASIC,
        ring=two_corner_ring(),
        sprint=sprint,
        corner_strip=corner_strip,
        fd=fdlab,
    )

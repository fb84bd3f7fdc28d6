"""``python -m fdlab``: the ``fdlab`` command (see :mod:`fdlab.cli`)."""

import sys

from fdlab.cli import main

if __name__ == "__main__":
    sys.exit(main())

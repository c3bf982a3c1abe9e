"""``python -m gametrees``: the command line (see :mod:`gametrees.cli`).

Imports: :mod:`gametrees.cli` only.
"""

import sys

from .cli import main

if __name__ == "__main__":
    sys.exit(main())

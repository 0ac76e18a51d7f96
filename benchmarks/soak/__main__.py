"""``python -m benchmarks.soak``: run the soak; the exit status is ``main``'s."""

import sys

from . import main

if __name__ == "__main__":
    sys.exit(main())

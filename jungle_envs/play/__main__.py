"""``python -m jungle_envs.play --help`` for the flags."""

import sys

from jungle_envs.play.cli import main, script

__all__ = ["main", "script"]

if __name__ == "__main__":
    sys.exit(main())

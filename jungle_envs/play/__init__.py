"""Play any jungle_envs game in the terminal: ``python -m jungle_envs.play`` (or the
``jungle-play`` script), against the heuristic, random or trained opponents, or other
people at the same keyboard. Needs rich (``pip install 'jungle-envs[play]'``).

``session`` holds the game, seats, dice and logs (no terminal); ``terminal`` draws it with
rich and reads the answers; ``cli`` is the command line.
"""

from jungle_envs.play.cli import main
from jungle_envs.play.session import Session
from jungle_envs.play.terminal import TerminalGame

__all__ = ["Session", "TerminalGame", "main"]

"""Files written whole or not at all, and text files read within a size limit.

A save, a run's config or a model that a full disk, a size limit or a kill cuts short must
leave the previous file as it was: ``atomic_write_text`` writes a temporary file next to
the target and renames it over the target only once it is complete. A load reads only a
regular file of at most ``MAX_READ_BYTES`` (``/dev/zero`` or a FIFO never ends; a huge
file would fill the memory before the JSON parser says no).
"""

from __future__ import annotations

import os
import stat
from collections.abc import Callable
from pathlib import Path

MAX_READ_BYTES = 16 * 2**20  # a save file is a few kB; a run's config or manifest less


def atomic_write(path: str | Path, write: Callable[[Path], object]) -> None:
    """Call ``write(tmp)`` to write a temporary file next to ``path``, then rename it to
    ``path``; if ``write`` fails, remove the temporary file, keep ``path`` and re-raise."""
    path = Path(path)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp{path.suffix}")
    try:
        write(tmp)
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


def atomic_write_text(path: str | Path, text: str) -> None:
    """Write ``text`` to ``path`` whole or not at all (the old file stays on failure)."""
    atomic_write(path, lambda tmp: tmp.write_text(text))


def read_text_limited(path: str | Path, limit: int = MAX_READ_BYTES) -> str:
    """The text of the regular file ``path``; ``OSError`` if it cannot be read, ``ValueError``
    if it is not a regular file, is over ``limit`` bytes or is not UTF-8 text."""
    path = Path(path)
    # non-blocking: opening a FIFO with no writer would wait forever
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    with os.fdopen(fd, "rb") as file:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise ValueError(f"{str(path)!r} is not a regular file")
        data = file.read(limit + 1)
    if len(data) > limit:
        raise ValueError(f"{str(path)!r} is larger than {limit:,} bytes")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise ValueError(f"{str(path)!r} is not a text file") from None

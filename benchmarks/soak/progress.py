"""The soak's progress display."""

from __future__ import annotations

import sys
import time
from typing import Any


class Progress:
    """A progress bar over games (rich, else tqdm, else a line now and then)."""

    def __init__(self, total: int, enabled: bool) -> None:
        self.total, self.done, self.errors = total, 0, 0
        self._bar: Any = None
        self._last_line = 0.0
        self.enabled = enabled
        self._kind = "plain"
        if not enabled or not sys.stdout.isatty():  # a log gets a line now and then
            return
        try:
            from rich.progress import (
                BarColumn,
                MofNCompleteColumn,
                TextColumn,
                TimeElapsedColumn,
                TimeRemainingColumn,
            )
            from rich.progress import Progress as RichProgress

            self._bar = RichProgress(
                TextColumn("soak {task.description}"),
                BarColumn(),
                MofNCompleteColumn(),
                TimeElapsedColumn(),
                TimeRemainingColumn(),
            )
            self._bar.start()
            self._id = self._bar.add_task("0 errors", total=total)
            self._kind = "rich"
        except ImportError:
            try:
                from tqdm import tqdm

                self._bar = tqdm(total=total, unit="game", desc="soak")
                self._kind = "tqdm"
            except ImportError:
                pass

    def advance(self, games: int, errors: int) -> None:
        self.done += games
        self.errors += errors
        if not self.enabled:
            return
        if self._kind == "rich":
            self._bar.update(self._id, advance=games, description=f"{self.errors} errors")
        elif self._kind == "tqdm":
            self._bar.update(games)
            self._bar.set_postfix(errors=self.errors)
        elif time.time() - self._last_line > 30:
            self._last_line = time.time()
            print(f"soak: {self.done:,}/{self.total:,} games, {self.errors} errors", flush=True)

    def close(self) -> None:
        if self._bar is not None:
            self._bar.stop() if self._kind == "rich" else self._bar.close()

"""The progress bar a study shows while it runs: runs done, runs per second and the time left.

>>> import io
>>> out = io.StringIO()
>>> bar = ProgressBar(200, out, clock=iter([0.0, 2.0, 4.0]).__next__)
>>> bar(50)
>>> print(out.getvalue().strip())
[#####...............]    50/200 runs    25 runs/s  6 s left
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TextIO


class ProgressBar:
    """Redraws one line of ``stream`` each time it is told how many of ``total`` runs have finished."""

    WIDTH = 20

    def __init__(self, total: int, stream: TextIO, clock: Callable[[], float] = time.monotonic) -> None:
        self.total = total
        self.stream = stream
        self.clock = clock
        self.started = clock()

    def __call__(self, done: int) -> None:
        """Show ``done`` of the total runs, their rate so far and the time left at that rate."""
        elapsed = max(self.clock() - self.started, 1e-9)
        rate = done / elapsed
        left = f"{(self.total - done) / rate:.0f} s left" if rate > 0 else "time left unknown"
        filled = self.WIDTH * done // self.total
        bar = "#" * filled + "." * (self.WIDTH - filled)
        self.stream.write(f"\r[{bar}] {done:>5}/{self.total} runs {rate:>5.0f} runs/s  {left}  ")
        self.stream.flush()

    def close(self) -> None:
        """End the bar's line."""
        self.stream.write("\n")
        self.stream.flush()

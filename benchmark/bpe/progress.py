"""Timing a training run: the seconds at which each checkpoint was reached, and a progress bar.

What this module adds: `Clock`, which both trainers (train.py, parity.py) tick after every merge,
so that one run to the largest size says when each smaller size was reached. What it leaves out:
anything that decides a merge (the trainers' results never depend on it).
"""

from __future__ import annotations

import time
from collections.abc import Sequence


class Clock:
    """Seconds since training began at each checkpoint, and the progress bar if asked for."""

    def __init__(self, n_merges: int, checkpoints: Sequence[int], progress: bool, started: float) -> None:
        self._start = started
        self._checkpoints = tuple(checkpoints)
        self._wanted = {n for n in checkpoints if 0 < n <= n_merges}
        self._seconds_at: dict[int, float] = {n: 0.0 for n in checkpoints if n <= 0}
        self._bar = _progress_bar(n_merges) if progress else None

    def done(self, n_done: int) -> None:
        if n_done in self._wanted:
            self._seconds_at[n_done] = time.perf_counter() - self._start
        if self._bar is not None:
            self._bar[0].update(self._bar[1], completed=n_done)

    def stop(self) -> None:
        if self._bar is not None:
            self._bar[0].stop()

    def seconds_at(self, n_done: int) -> dict[int, float]:
        """`seconds_at` of `train_merges` once `n_done` merges were made."""
        end_seconds = time.perf_counter() - self._start
        seconds_at = dict(self._seconds_at)
        seconds_at[n_done] = seconds_at.get(n_done, end_seconds)
        for n in self._checkpoints:
            # Training stopped before this checkpoint: its model is the final one.
            seconds_at.setdefault(n, end_seconds)
        return seconds_at


def _progress_bar(n_merges: int):
    """A rich progress bar over merges (imported here: rich is only needed when asked for)."""
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeElapsedColumn

    progress = Progress(
        "[progress.description]{task.description}",
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        transient=True,
    )
    task = progress.add_task("BPE merges", total=n_merges)
    progress.start()
    return progress, task

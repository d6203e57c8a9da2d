"""Progress display: rich bars on a terminal, nothing in CI or when stderr is piped.

The run talks to a `Progress` (task, update, advance, finish); `progress_display(enabled)` gives
the quiet one or the rich one, so measuring code never asks whether anyone is watching.
"""

from __future__ import annotations

import os
import sys
from contextlib import contextmanager
from typing import Iterator

from benchmark.plumbing.escaping import terminal_text


def progress_enabled() -> bool:
    """Bars on a terminal; quiet in CI (CI=true) or when stderr is piped."""
    if os.environ.get("CI", "").lower() in ("1", "true", "yes"):
        return False
    return sys.stderr.isatty()


class Progress:
    """Says nothing: the display for CI, pipes and tests."""

    def task(self, description: str, total: int | None) -> int:
        return 0

    def update(self, task: int, description: str) -> None:
        pass

    def advance(self, task: int) -> None:
        pass

    def finish(self, task: int) -> None:
        pass


class _RichProgress(Progress):
    def __init__(self, progress) -> None:
        self.progress = progress

    def task(self, description: str, total: int | None) -> int:
        return self.progress.add_task(terminal_text(description), total=total)

    def update(self, task: int, description: str) -> None:
        self.progress.update(task, description=terminal_text(description), refresh=True)

    def advance(self, task: int) -> None:
        self.progress.advance(task)
        self.progress.refresh()

    def finish(self, task: int) -> None:
        total = self.progress.tasks[task].total
        self.progress.update(task, completed=total if total is not None else 1, total=total or 1, refresh=True)


@contextmanager
def progress_display(enabled: bool) -> Iterator[Progress]:
    if not enabled:
        yield Progress()
        return
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, TextColumn, TimeElapsedColumn
    from rich.progress import Progress as RichBars

    # No refresh thread (redrawn on each update): a process with a second thread is not forked
    # for counting workers (executors.py), as a lock it holds would be inherited held.
    # A description holds ids and names from outside: shown as text, never read as rich markup.
    with RichBars(TextColumn("{task.description}", markup=False), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                  console=Console(stderr=True), transient=False, auto_refresh=False) as bars:
        yield _RichProgress(bars)


@contextmanager
def status(message: str, enabled: bool) -> Iterator[None]:
    """`message` on stderr while a step of seconds runs (writing the reports). A line, not a
    spinner: a spinner's refresh thread would keep the plots from being drawn in forked workers."""
    if not enabled:
        yield
        return
    from rich.console import Console

    Console(stderr=True).print(f"{terminal_text(message)} ...", markup=False, highlight=False)
    yield

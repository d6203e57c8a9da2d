"""Processes a run forks: when forking is safe, and that they die with the run.

A worker left behind by a killed run would hold the run's pipes (a caller waiting for its output
waits for ever) and its output folder's lock (every later run on that folder is refused).
"""

from __future__ import annotations

import os
import signal
import sys
from typing import Any, Callable


def usable_cores() -> int:
    """The cores this process may run on (its CPU affinity, which a container or taskset narrows),
    where the system says; else every core: how many workers fill the machine."""
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return os.cpu_count() or 1


def die_with_parent(parent_pid: int, signal_number: int = signal.SIGKILL) -> None:
    """In a forked child: ask Linux to send `signal_number` when the parent dies, and leave now if it
    already has (it may die between the fork and this call). Elsewhere nothing happens."""
    if not sys.platform.startswith("linux"):
        return
    import ctypes

    try:
        ctypes.CDLL(None).prctl(1, int(signal_number))  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        return
    if os.getppid() != parent_pid:
        os._exit(1)


def fork_is_safe() -> bool:
    """Whether this process can be forked without a lock held by another thread: Linux, and no
    thread besides this one (rich's refresh thread, a library's pool) counted by the kernel."""
    import threading

    if not sys.platform.startswith("linux") or threading.active_count() > 1:
        return False
    try:
        return len(os.listdir("/proc/self/task")) == 1
    except OSError:
        return False


class Pending:
    """Work under way in other processes: `results()` waits for it and gives its result (tasks'
    results in task order, calling `on_done` after each where it takes one); `cancel()` drops what
    has not started (a run that fails meanwhile)."""

    def __init__(self, finish: Callable[..., Any], cancel: Callable[[], None] = lambda: None) -> None:
        self._finish, self._cancel = finish, cancel

    def results(self, on_done: Callable[[], None] | None = None) -> Any:
        return self._finish(on_done) if on_done is not None else self._finish()

    def cancel(self) -> None:
        self._cancel()

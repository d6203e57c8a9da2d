"""Processes a run forks die with it.

A worker left behind by a killed run would hold the run's pipes (a caller waiting for its output
waits for ever) and its output folder's lock (every later run on that folder is refused).
"""

from __future__ import annotations

import os
import signal
import sys


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

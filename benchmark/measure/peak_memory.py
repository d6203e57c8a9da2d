"""Peak resident memory of this process (resettable, on Linux) and of the worker processes it
started, in MB (10^6 bytes), for the run record's `phase_peak_mb`."""

from __future__ import annotations

import resource
import sys

_RSS_UNIT = 1 if sys.platform == "darwin" else 1024  # ru_maxrss: bytes on macOS, KiB on Linux


def own_mb() -> float:
    """This process's peak since the last `reset_own` (Linux: VmHWM), else since it started."""
    try:
        with open("/proc/self/status", encoding="ascii") as status:
            for line in status:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) * 1024 / 1e6
    except (OSError, ValueError):
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * _RSS_UNIT / 1e6


def reset_own() -> None:
    """Start a new peak at the present size (Linux; elsewhere the peak is the process's own)."""
    try:
        with open("/proc/self/clear_refs", "w", encoding="ascii") as clear:
            clear.write("5")
    except OSError:
        pass


def children_mb() -> float:
    """The largest peak of any finished child process (workers, the timing child)."""
    return resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss * _RSS_UNIT / 1e6

"""Run a function in a forked child process and take back its result: the child's memory goes
with it.

The timing phase times HF's byte-level BPE with its word cache emptied before every repeat. In
tokenizers 0.23.3, every refill of that cache after `_clear_cache` keeps about 4 MB that neither
clearing nor dropping the tokenizer gives back (docs/measurements/2026-12-01-time-to-first-answer.md):
3.6 MB per timed cell, 1.3 GB over 204 languages. Timed in a child, the memory is returned when it
exits; the parent waits, so the timing still runs alone. Where there is no fork, it runs here.
"""

from __future__ import annotations

import os
import pickle
from typing import Any, Callable

from benchmark.plumbing.children import die_with_parent
from benchmark.plumbing.errors import one_line


def in_child(function: Callable[..., Any], *args: Any) -> Any:
    """`function(*args)`, computed in a forked child and pickled back through a pipe; an exception
    there is a RuntimeError here with its one-line message."""
    if not hasattr(os, "fork"):
        return function(*args)
    read_end, write_end = os.pipe()
    parent_pid = os.getpid()
    pid = os.fork()
    if pid == 0:  # the child: compute, write, leave without running the parent's exit handlers
        status = 0
        try:
            die_with_parent(parent_pid)
            os.close(read_end)
            try:
                payload = pickle.dumps((True, function(*args)), protocol=pickle.HIGHEST_PROTOCOL)
            except BaseException as exc:  # noqa: BLE001 - reported to the parent, whatever it was
                payload = pickle.dumps((False, one_line(exc)))
            with os.fdopen(write_end, "wb") as out:
                out.write(payload)
        except BaseException:  # noqa: BLE001 - nothing may escape a forked child
            status = 1
        finally:
            os._exit(status)
    os.close(write_end)
    try:
        with os.fdopen(read_end, "rb") as source:
            payload = source.read()
    finally:
        os.waitpid(pid, 0)
    if not payload:
        raise RuntimeError("the timing process ended without a result")
    ok, value = pickle.loads(payload)
    if not ok:
        raise RuntimeError(value)
    return value

"""A process the run forks dies with the run: a killed run's workers must not hold its pipes (whoever
waits for its output would wait for ever) or its output folder's lock."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap

import pytest

# The workers sleep far longer than the test waits: only dying with their parent ends them in time.
WORKERS = textwrap.dedent("""
    import multiprocessing, os, sys, time
    from concurrent.futures import ProcessPoolExecutor
    from benchmark.plumbing.children import die_with_parent

    def wait(_):
        print("worker", flush=True)
        time.sleep(120)

    if __name__ == "__main__":
        with ProcessPoolExecutor(2, mp_context=multiprocessing.get_context("fork"),
                                 {initializer}) as pool:
            list(pool.map(wait, range(2)))
""")


def run_and_kill(initializer: str) -> subprocess.Popen:
    """The pool's parent, killed once a worker runs. It leads a session of its own, so its workers
    share its process group: `kill_started` ends them and nothing else."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    process = subprocess.Popen([sys.executable, "-c", WORKERS.format(initializer=initializer)], env=env,
                               stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, start_new_session=True)
    assert process.stdout.read(6) == b"worker"  # a worker runs (both may print at once)
    process.send_signal(signal.SIGKILL)
    return process


def kill_started(process: subprocess.Popen) -> None:
    """Kill what this test started: the killed parent's process group (its id is the parent's pid,
    and no other process is in it), whose workers may outlive it; then close the pipe."""
    try:
        os.killpg(process.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass  # every one of them is gone already
    process.wait(timeout=30)
    process.stdout.close()


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="PR_SET_PDEATHSIG is Linux's")
def test_forked_workers_die_with_a_killed_parent_and_let_go_of_its_pipes():
    process = run_and_kill("initializer=die_with_parent, initargs=(os.getpid(),)")
    try:
        process.communicate(timeout=30)  # returns only once no worker holds stdout
    finally:
        kill_started(process)


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="PR_SET_PDEATHSIG is Linux's")
def test_without_it_a_killed_parents_workers_would_hold_its_pipes():
    # The control: the same pool without die_with_parent keeps the pipe open past the wait above.
    process = run_and_kill("initializer=None")
    try:
        with pytest.raises(subprocess.TimeoutExpired):
            process.communicate(timeout=3)
    finally:
        kill_started(process)

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
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    process = subprocess.Popen([sys.executable, "-c", WORKERS.format(initializer=initializer)], env=env,
                               stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    assert process.stdout.read(6) == b"worker"  # a worker runs (both may print at once)
    process.send_signal(signal.SIGKILL)
    return process


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="PR_SET_PDEATHSIG is Linux's")
def test_forked_workers_die_with_a_killed_parent_and_let_go_of_its_pipes():
    process = run_and_kill("initializer=die_with_parent, initargs=(os.getpid(),)")
    process.communicate(timeout=30)  # returns only once no worker holds stdout


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="PR_SET_PDEATHSIG is Linux's")
def test_without_it_a_killed_parents_workers_would_hold_its_pipes():
    # The control: the same pool without die_with_parent keeps the pipe open past the wait above.
    process = run_and_kill("initializer=None")
    with pytest.raises(subprocess.TimeoutExpired):
        process.communicate(timeout=3)
    subprocess.run(["pkill", "-KILL", "-f", "print\\(\"worker\""], check=False)
    process.stdout.close()

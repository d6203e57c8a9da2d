"""A run killed at any moment leaves one complete report: the old one or the new one.

A real `python -m benchmark run` subprocess on a tiny corpus is interrupted (SIGINT, as Ctrl-C,
or SIGKILL) after a random delay, and the output folder must still hold a whole report whose
files agree with each other.
"""

from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from benchmark.results.rows import load_results
from tests.support.paths import DATA, REPO


def run_command(output: Path) -> list[str]:
    return [sys.executable, "-m", "benchmark", "run", "--corpus", str(DATA / "tiny_corpus"),
            "--tokenizers", "tiktoken/cl100k_base", "--repeats", "1", "--output", str(output)]


def assert_complete_report(folder: Path) -> str:
    """The folder holds one report whose files belong together; returns its run's date."""
    results = load_results(folder / "results.json")
    date = results.record.date
    csv_lines = (folder / "results.csv").read_text(encoding="utf-8").splitlines()
    assert len(csv_lines) == len(results.rows) + 1
    readme = (folder / "README.md").read_text(encoding="utf-8")
    assert f"Run of {date}" in readme
    assert f"Run of {date}" in (folder / "index.html").read_text(encoding="utf-8")
    plots = re.findall(r"\(plots/([\w]+\.png)\)", readme)
    assert plots, "the report has plots"
    for name in plots:
        assert (folder / "plots" / name).read_bytes().startswith(b"\x89PNG"), name
    return date


@pytest.fixture(scope="module")
def first_report(tmp_path_factory) -> tuple[Path, str, float]:
    """A complete report, and how long a run took to write it."""
    folder = tmp_path_factory.mktemp("interrupted") / "reports"
    started = time.perf_counter()
    done = subprocess.run(run_command(folder), cwd=REPO, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    return folder, assert_complete_report(folder), time.perf_counter() - started


@settings(max_examples=5, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(share=st.floats(min_value=0.0, max_value=1.1), kill=st.booleans())
def test_a_run_interrupted_at_any_moment_leaves_one_complete_report(first_report, tmp_path_factory, share, kill):
    template, first_date, seconds = first_report
    folder = tmp_path_factory.mktemp("again") / "reports"
    shutil.copytree(template, folder)
    process = subprocess.Popen(run_command(folder), cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               text=True, env={**os.environ, "CI": "true"})
    time.sleep(share * seconds)
    process.send_signal(signal.SIGKILL if kill else signal.SIGINT)
    _, err = process.communicate(timeout=300)
    date = assert_complete_report(folder)
    same_as_before = (folder / "results.json").read_bytes() == (template / "results.json").read_bytes()
    assert date == first_date or not same_as_before
    if process.returncode == 0:
        assert not same_as_before  # it finished before the signal: the new report
    elif kill:
        assert process.returncode == -signal.SIGKILL
    else:
        # Ctrl-C: exit 130 (or killed by the signal before Python handles it), and where the run
        # had begun, a last line saying which report the folder holds.
        assert process.returncode in (130, -signal.SIGINT), err
        if "holds" in err:
            assert ("still holds the previous report" in err) == same_as_before, err
            assert ("holds the new report" in err) == (not same_as_before), err

"""`speed --update-baseline --baseline PATH` writes only where nothing stands or a speed baseline
this program wrote does (issue 38 item 4): whatever else is at PATH (a results.json, a user's
file, a link to one, a FIFO) is refused in one line before the timing, and stays as it was."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from benchmark.speed.baseline import load_baseline
from tests.support.paths import DATA, REPO

RESULTS = DATA / "results_fixture.json"
STATES = ["absent", "baseline", "results.json", "user text", "user bytes", "link to a user file", "fifo"]


def update(baseline: Path, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "benchmark", "speed", "--update-baseline", "--baseline", str(baseline),
                           "--languages", "eng_Latn", "--max-sentences", "5", "--repeats", "1"], cwd=cwd,
                          env={**os.environ, "PYTHONPATH": str(REPO), "CI": "true"}, capture_output=True, text=True,
                          timeout=300)


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(state=st.sampled_from(STATES), content=st.binary(max_size=64))
def test_an_update_replaces_only_a_baseline_it_wrote(tmp_path_factory, state, content):
    folder = tmp_path_factory.mktemp("baseline")
    target = folder / "results.json"
    mine = folder / "mine.bin"
    mine.write_bytes(content)
    if state == "baseline":
        assert update(target, folder).returncode == 0
    elif state == "results.json":
        shutil.copyfile(RESULTS, target)
    elif state == "user text":
        target.write_text("my notes\n", encoding="utf-8")
    elif state == "user bytes":
        target.write_bytes(content)
    elif state == "link to a user file":
        target.symlink_to(mine)
    elif state == "fifo":
        os.mkfifo(target)
    before = None if state in ("absent", "fifo") else (target.is_symlink(), target.read_bytes())
    done = update(target, folder)
    assert mine.read_bytes() == content
    if state in ("absent", "baseline"):
        assert done.returncode == 0, done.stderr
        assert load_baseline(target).ratios  # a whole baseline, read back
        return
    assert done.returncode == 2, done.stderr
    assert done.stderr.count("\n") == 1 and "--update-baseline replaces only a speed baseline" in done.stderr
    assert done.stdout == ""  # refused before the timing
    if state == "fifo":
        assert target.is_fifo()
    else:
        assert (target.is_symlink(), target.read_bytes()) == before

"""Whatever runs at once on an output folder, and whatever is killed, no foreign file is lost and
the folder holds one whole report, the old one, or nothing written (issue #26).

Hypothesis draws the folder's state (absent, empty, a report, a report or folder with a user's
files in it and beside it, a copied results.json beside a user's files: no manifest, so no report)
and a few real `python -m benchmark` processes (run or report) started at random moments, some
killed at random moments. Each run is real and tiny: one tokenizer, five
sentences of a corpus of its own, no plots.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from benchmark.plumbing.manifest import foreign_files
from benchmark.results.rows import load_results
from tests.support.paths import REPO

FOREIGN_INSIDE = ["notes.txt", "README.md", "plots/thesis/figure1.png", "plots/raw.csv", "data/a.csv", "results.csv",
                  "summaries.csv"]
FOREIGN_BESIDE = ["O.txt", ".O.new-mine", ".O.lock.bak", "O-unrendered.json"]


@pytest.fixture(scope="module")
def workspace(tmp_path_factory) -> dict[str, Path]:
    root = tmp_path_factory.mktemp("property")
    corpus = root / "corpus"
    corpus.mkdir()
    for code, line in (("eng", "The cat sat on the mat, number {}."), ("spa", "El gato se sentó, número {}."),
                       ("kor", "고양이가 매트에 앉았다 {}.")):
        (corpus / f"{code}.txt").write_text("".join(line.format(n) + "\n" for n in range(8)), encoding="utf-8")
    template = root / "template"
    done = subprocess.run(run_command(corpus, template), cwd=root, env=environment(), capture_output=True,
                          text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    return {"root": root, "corpus": corpus, "template": template}


def environment() -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": str(REPO), "CI": "true"}


def run_command(corpus: Path, output: Path) -> list[str]:
    return [sys.executable, "-m", "benchmark", "run", "--corpus", str(corpus), "--tokenizers",
            "tiktoken/cl100k_base", "--max-sentences", "5", "--repeats", "1", "--no-plots", "--output", str(output)]


def report_command(results: Path, output: Path) -> list[str]:
    return [sys.executable, "-m", "benchmark", "report", "--results", str(results), "--output", str(output),
            "--no-plots"]


def snapshot(folder: Path) -> dict[str, bytes]:
    if not folder.is_dir():
        return {}
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


STATES = st.sampled_from(["absent", "empty", "report", "report+foreign", "foreign", "results+foreign"])
PROCESSES = st.lists(st.tuples(st.sampled_from(["run", "report"]), st.floats(0, 3), st.one_of(
    st.none(), st.tuples(st.floats(0, 6), st.sampled_from([signal.SIGKILL, signal.SIGINT])))), min_size=1, max_size=3)


@settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@example(state="results+foreign", foreign=["results.csv"], beside=[], processes=[("report", 0.0, None)],
         content=b"my,own\n")  # issue 38 item 1, every time
@given(state=STATES, foreign=st.lists(st.sampled_from(FOREIGN_INSIDE), min_size=1, max_size=3, unique=True),
       beside=st.lists(st.sampled_from(FOREIGN_BESIDE), max_size=2, unique=True), processes=PROCESSES,
       content=st.binary(min_size=0, max_size=40))
def test_concurrent_and_killed_runs_keep_every_foreign_file_and_leave_one_report(
        workspace, tmp_path_factory, state, foreign, beside, processes, content):
    parent = tmp_path_factory.mktemp("case")
    output = parent / "O"
    if state != "absent":
        if state.startswith("report"):
            shutil.copytree(workspace["template"], output)
        else:
            output.mkdir()
        if state.startswith("results"):  # issue 38 item 1: this folder was taken for a report
            shutil.copyfile(workspace["template"] / "results.json", output / "results.json")
    inside = foreign if "foreign" in state else []
    for name in inside:
        (output / name).parent.mkdir(parents=True, exist_ok=True)
        (output / name).write_bytes(content)
    for name in beside:
        target = parent / name
        if name.startswith(".O.new"):
            target.mkdir()
            (target / "kept.txt").write_bytes(content)
        else:
            target.write_bytes(content)
    before = snapshot(output)
    beside_before = {name: snapshot(parent / name) if (parent / name).is_dir() else (parent / name).read_bytes()
                     for name in beside}

    started = time.monotonic()
    running = []
    for verb, delay, kill in sorted(processes, key=lambda p: p[1]):
        time.sleep(max(0.0, started + delay - time.monotonic()))
        argv = (run_command(workspace["corpus"], output) if verb == "run"
                else report_command(workspace["template"] / "results.json", output))
        running.append((subprocess.Popen(argv, cwd=parent, env=environment(), stdout=subprocess.PIPE,
                                         stderr=subprocess.PIPE, text=True), time.monotonic(), kill))
    for process, began, kill in running:
        if kill is not None:
            time.sleep(max(0.0, began + kill[0] - time.monotonic()))
            if process.poll() is None:
                process.send_signal(kill[1])
    outcomes = []
    for process, _, kill in running:
        out, err = process.communicate(timeout=300)
        outcomes.append((process.returncode, out, err))

    # Every foreign file, inside and beside, is as it was.
    after = snapshot(output)
    for name in inside:
        assert after.get(name) == content, name
    for name, was in beside_before.items():
        now = snapshot(parent / name) if (parent / name).is_dir() else (parent / name).read_bytes()
        assert now == was, name
    for code, out, err in outcomes:
        assert code in (0, 2, 130, -signal.SIGKILL, -signal.SIGINT), (code, err)
        if code == 2:
            assert ("another run (pid" in err or "holds files that are not part of a report" in err), err
            assert "rows measured" not in out  # refused before measuring
        if inside:
            assert code != 0
    if inside:
        assert after == before  # refused: nothing of the folder changed
        return
    # One whole report, the old one, or (never written) none.
    if not output.exists():
        assert state == "absent" and not any(code == 0 for code, _, _ in outcomes)
        return
    if state == "empty" and after == {}:
        assert not any(code == 0 for code, _, _ in outcomes)
        return
    assert foreign_files(output) == []
    results = load_results(output / "results.json")
    assert f"Run of {results.record.date}" in (output / "README.md").read_text(encoding="utf-8")
    if any(code == 0 for code, _, _ in outcomes) or after != before:
        assert "manifest.json" in after

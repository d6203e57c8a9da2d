"""What the output folder's publishing refuses (issue 38 items 1 and 8, and the hard-linked lock):
a report replaces only what a manifest says this program wrote, unchanged (a folder without one
is not taken for a report); the lock beside the folder is a regular file of our own, opened
without waiting. Real `python -m benchmark report` processes on real folders."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from benchmark.plumbing.manifest import MANIFEST
from tests.support.paths import DATA, REPO

RESULTS = DATA / "results_fixture.json"


def report(results: Path, output: Path, *extra: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "benchmark", "report", "--results", str(results), "--output",
                           str(output), "--no-plots", *extra], cwd=output.parent,
                          env={**os.environ, "PYTHONPATH": str(REPO), "CI": "true"}, capture_output=True, text=True,
                          timeout=120)  # a lock that waits fails the test instead of hanging it


def snapshot(folder: Path) -> dict[str, bytes]:
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def test_report_keeps_a_users_results_csv_beside_a_copied_results_json(tmp_path):
    # The reproduction: the folder has no manifest, so nothing in it is known to be ours.
    mine = tmp_path / "mine"
    mine.mkdir()
    shutil.copyfile(RESULTS, mine / "results.json")
    (mine / "results.csv").write_text("my,own\n", encoding="utf-8")
    before = snapshot(mine)
    done = report(mine / "results.json", mine)
    assert done.returncode == 2, done.stderr
    assert done.stderr.count("\n") == 1 and "holds files that are not part of a report (results.csv)" in done.stderr
    assert snapshot(mine) == before and sorted(p.name for p in tmp_path.iterdir()) == ["mine"]


def test_report_renders_in_a_folder_that_holds_only_the_results_it_renders(tmp_path):
    mine = tmp_path / "mine"
    mine.mkdir()
    shutil.copyfile(RESULTS, mine / "results.json")
    done = report(mine / "results.json", mine)
    assert done.returncode == 0, done.stderr
    assert (mine / "results.json").read_bytes() == RESULTS.read_bytes() and (mine / MANIFEST).is_file()
    other = tmp_path / "other"
    other.mkdir()
    (other / "results.json").write_bytes(RESULTS.read_bytes().replace(b"\n", b"\r\n"))  # other bytes, same data
    done = report(RESULTS, other)
    assert done.returncode == 2 and "(results.json)" in done.stderr


def test_a_folder_of_the_version_before_manifests_is_replaced_only_when_asked(tmp_path):
    legacy = tmp_path / "reports"
    done = report(RESULTS, legacy)
    assert done.returncode == 0, done.stderr
    (legacy / MANIFEST).unlink()
    before = snapshot(legacy)
    done = report(RESULTS, legacy)
    assert done.returncode == 2 and "holds files that are not part of a report (README.md" in done.stderr
    assert "no manifest.json" in done.stderr and snapshot(legacy) == before
    done = report(RESULTS, legacy, "--replace-foreign")
    assert done.returncode == 0, done.stderr
    assert (legacy / MANIFEST).is_file()


def test_a_fifo_where_the_lock_goes_is_refused_at_once(tmp_path):
    output = tmp_path / "out"
    os.mkfifo(tmp_path / ".out.lock")
    done = report(RESULTS, output)
    assert done.returncode == 2, done.stderr
    assert done.stderr == (f"error: {tmp_path / '.out.lock'}: is a FIFO (named pipe), not a lock file, and stands "
                           f"where the lock of {output} goes; move it, or choose another --output\n")
    assert not output.exists() and (tmp_path / ".out.lock").is_fifo()


@pytest.mark.parametrize("content", [b"", b"12345\n"])
def test_a_lock_that_is_a_hard_link_to_a_users_file_is_refused_and_the_file_kept(tmp_path, content):
    output = tmp_path / "out"
    mine = tmp_path / "counter.txt"
    mine.write_bytes(content)
    os.link(mine, tmp_path / ".out.lock")
    done = report(RESULTS, output)
    assert done.returncode == 2, done.stderr
    assert "has other names (a hard link)" in done.stderr and done.stderr.count("\n") == 1
    assert mine.read_bytes() == content and (tmp_path / ".out.lock").exists() and not output.exists()

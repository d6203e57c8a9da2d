"""A report folder inside another (reports/all-languages/ in reports/): each run replaces its own
folder, and the outer one's run keeps the inner report whole (benchmark/plumbing/manifest.py,
publish.py)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from benchmark.plumbing.errors import BenchmarkError
from benchmark.plumbing.manifest import MANIFEST, foreign_files, nested_reports
from benchmark.plumbing.publish import publish


def _writer(text: str):
    def write(staging: Path) -> list[Path]:
        (staging / "plots").mkdir()
        paths = [staging / "README.md", staging / "plots" / "a.png"]
        paths[0].write_text(text, encoding="utf-8")
        paths[1].write_bytes(text.encode())
        return paths
    return write


@pytest.fixture()
def reports(tmp_path) -> Path:
    outer = tmp_path / "reports"
    publish(outer, _writer("outer 1"))
    publish(outer / "all-languages", _writer("inner 1"))
    return outer


def test_the_outer_run_keeps_the_inner_report(reports):
    assert nested_reports(reports) == ["all-languages"] and foreign_files(reports) == []
    publish(reports, _writer("outer 2"))
    assert (reports / "README.md").read_text() == "outer 2"
    inner = reports / "all-languages"
    assert (inner / "README.md").read_text() == "inner 1" and (inner / "plots" / "a.png").read_bytes() == b"inner 1"
    assert foreign_files(inner) == [] and foreign_files(reports) == []
    listed = json.loads((reports / MANIFEST).read_text())["files"]
    assert sorted(listed) == ["README.md", "plots/a.png"]  # the inner report is its own manifest's


def test_the_inner_run_replaces_only_its_own_folder(reports):
    publish(reports / "all-languages", _writer("inner 2"))
    assert (reports / "all-languages" / "README.md").read_text() == "inner 2"
    assert (reports / "README.md").read_text() == "outer 1" and foreign_files(reports) == []
    assert not [p.name for p in reports.iterdir() if p.name.startswith(".")]  # no lock or staging left


def test_an_inner_folder_with_a_changed_file_is_foreign(reports):
    (reports / "all-languages" / "README.md").write_text("edited by hand", encoding="utf-8")
    assert nested_reports(reports) == []
    assert foreign_files(reports) == ["all-languages/"]
    with pytest.raises(BenchmarkError, match="all-languages/"):
        publish(reports, _writer("outer 2"))
    assert (reports / "all-languages" / "README.md").read_text() == "edited by hand"

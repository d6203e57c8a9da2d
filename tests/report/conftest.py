"""Fixtures the modules of tests/report/ share, made once a session (pytest keeps one session
fixture only when it is defined here: imported into each module, it is made again per module).

- `rendered`: the reports of tests/data/results_fixture.json (tests/support/report_fixture.py)
  with PNG and SVG plots, as (folder, paths written). Read it; a test that changes the folder
  works on a copy (test_plot_reuse.py's `copied`). Under pytest-xdist the workers share one
  rendering: the first to need it writes it into the run's common temporary folder, the others
  wait for it and read it (tests/support/shared_once.py).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from benchmark.report import publish_report as write_reports
from benchmark.report.view import ReportView
from benchmark.results.rows import load_results
from tests.support.report_fixture import FIXTURE
from tests.support.shared_once import made_once


@pytest.fixture(scope="session")
def rendered(tmp_path_factory) -> tuple[Path, list[Path]]:
    def render(out: Path) -> list[Path]:
        return write_reports(ReportView.of(load_results(FIXTURE)), out, plots=("png", "svg"))

    return made_once(tmp_path_factory, "rendered-reports", render)

"""Fixtures the modules of tests/report/ share, made once a session (pytest keeps one session
fixture only when it is defined here: imported into each module, it is made again per module).

- `rendered`: the reports of tests/data/results_fixture.json (tests/support/report_fixture.py)
  with PNG and SVG plots, as (folder, paths written). Read it; a test that changes the folder
  works on a copy (test_plot_reuse.py's `copied`).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from benchmark.report import publish_report as write_reports
from benchmark.report.view import ReportView
from benchmark.results.rows import load_results
from tests.support.report_fixture import FIXTURE


@pytest.fixture(scope="session")
def rendered(tmp_path_factory) -> tuple[Path, list[Path]]:
    out = tmp_path_factory.mktemp("reports")
    return out, write_reports(ReportView.of(load_results(FIXTURE)), out, plots=("png", "svg"))

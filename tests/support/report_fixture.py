"""The fixture the report tests share (tests/report/): a small real results file,
tests/data/results_fixture.json, as a ReportView once per test module (`results`); the reports
rendered from it, once a session, are tests/report/conftest.py's `rendered`.

The fixture holds 40 FLORES-200 sentences per language under tiktoken, bpe_openai and four trained
families at 1024/4096/16384, with skipped tokenizers; tests/data/make_results_fixture.py built it.
"""

from __future__ import annotations

import pytest

from benchmark.report.view import ReportView
from benchmark.results.rows import load_results
from tests.support.paths import DATA

FIXTURE = DATA / "results_fixture.json"
PLOT_NAMES = (
    "production_cost", "tokens_per_sentence", "premium", "bytes_per_token", "throughput", "train_seconds", "roundtrip",
    "token_boundaries",
)


@pytest.fixture(scope="module")
def results() -> ReportView:
    return ReportView.of(load_results(FIXTURE))

"""The committed 204-language page stays within its size budget: no larger than it was before it
became interactive (issue 52: 11,223,280 bytes, reports/all-languages/index.html at b23a30b). Its
load time is measured, not tested: docs/measurements/2026-12-08-page.md."""

from __future__ import annotations

from tests.support.paths import REPO

BUDGET_BYTES = 11_223_280


def test_the_204_language_page_is_no_larger_than_before_it_was_interactive():
    page = REPO / "reports" / "all-languages" / "index.html"
    assert page.stat().st_size <= BUDGET_BYTES, f"{page}: {page.stat().st_size:,} bytes, over {BUDGET_BYTES:,}"

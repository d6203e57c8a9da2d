"""The base switch's parts that need no browser (benchmark/report/pages/base_switch.py): its block's
numbers show, as the page's script writes them, the figures Python's formatting gives; every cell
a table marks as a premium holds that tokenizer's premium on that language; the block's names
cannot close its element. The switch itself, in Chromium: tests/browser/test_base_switch.py."""

from __future__ import annotations

import dataclasses
import json
import re
from decimal import Decimal

import pytest
from hypothesis import given
from hypothesis import strategies as st

from benchmark.report.naming import fmt_ratio
from benchmark.report.pages.base_switch import BLOCK_ID, BaseSwitch, _as_shown, compact, offset
from benchmark.report.pages.decision_section import leading_decision
from benchmark.report.pages.sections import report_sections
from benchmark.report.tables.measurements import all_rows_table
from benchmark.report.view import ReportView
from benchmark.results.rows import load_results
from tests.support.paths import DATA

FIGURES = st.floats(min_value=0, max_value=99.99, allow_nan=False)


@given(FIGURES)
def test_a_premium_in_the_block_has_4_significant_digits_and_shows_as_python_writes_it(value):
    kept = compact(value)
    assert _as_shown(kept) == f"{value:.2f}"
    assert len(Decimal(repr(float(kept))).normalize().as_tuple().digits) <= 4
    assert abs(kept - value) <= 2.5 * 10 ** (len(str(int(value))) - 4 if value >= 1 else -4)


@given(FIGURES, st.floats(min_value=-5, max_value=5, allow_nan=False))
def test_an_intervals_end_as_thousandths_from_the_premium_shows_as_python_writes_it(value, distance):
    premium, end = compact(value), max(0.0, value + distance)
    # The script's own arithmetic: premium + offset / 1000, the same doubles in both languages.
    assert _as_shown(premium + offset(end, premium) / 1000) == f"{end:.2f}"


def _tables(results: ReportView):
    leading = leading_decision(results)
    yield from leading.tables if leading is not None else ()
    for section in report_sections(results):
        yield from section.tables
    yield all_rows_table(results)


@pytest.mark.parametrize("name", ["results_bases.json", "results_mixes.json", "results_many.json"])
def test_every_marked_cell_holds_its_tokenizers_premium_on_its_language(name):
    results = ReportView.of(load_results(DATA / name))
    marked = {}
    for table in _tables(results):
        for r, c, tokenizer, language in table.premium_cells:
            assert table.rows[r][c].startswith(fmt_ratio(results.index[tokenizer, language].premium)), (table.key, r, c)
        marked[table.key] = len(table.premium_cells)
    assert marked["all_rows"] == sum(1 for row in results.rows if row.ok and row.premium is not None)
    assert marked.get("premium", 0) + marked.get("production_premium", 0) > 0
    if name == "results_mixes.json":
        assert marked["mixes"] > 0


def test_the_block_escapes_every_name_and_holds_each_bases_premiums():
    results = ReportView.of(load_results(DATA / "results_bases.json"))
    hostile = "</script><b>&amp;"
    names = {**results.record.language_names, "hin_Deva": hostile}
    results = ReportView.of(dataclasses.replace(results, record=dataclasses.replace(results.record,
                                                                                    language_names=names)))
    block = BaseSwitch(results).block()
    text = re.fullmatch(f'<script type="application/json" id="{BLOCK_ID}">(.*)</script>', block).group(1)
    assert not set(text) & set("<>&")
    data = json.loads(text)
    assert ["hin_Deva", hostile] in data["bases"]
    assert set(data["premiums"]) == set(results.by_base) - {results.reference}
    over = results.by_base["hin_Deva"]
    for t, tokenizer in enumerate(data["tokenizers"]):
        for l, language in enumerate(data["languages"]):
            premium, low, high = data["premiums"]["hin_Deva"][t][3 * l: 3 * l + 3]
            wanted = over[tokenizer][language]
            assert (_as_shown(premium), _as_shown(premium + low / 1000), _as_shown(premium + high / 1000)) == \
                tuple(f"{v:.2f}" for v in wanted)


def test_a_run_of_one_base_has_no_block():
    results = ReportView.of(load_results(DATA / "results_fixture.json"))
    assert BaseSwitch(results).block() == ""

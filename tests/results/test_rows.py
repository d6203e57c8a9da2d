"""`Results.to_frame()`, the long-form frame the report's tables are pivoted from, checked against
the rows of the fixture (tests/data/results_fixture.json)."""

from __future__ import annotations

import dataclasses

import pandas as pd
import pytest

from benchmark.results.rows import ROW_FIELDS, ResultRow, Results, load_results
from tests.support.paths import DATA

FIXTURE = DATA / "results_fixture.json"
FLOAT_FIELDS = [f.name for f in dataclasses.fields(ResultRow) if f.type == "float | None"]


@pytest.fixture(scope="module")
def results() -> Results:
    return load_results(FIXTURE)


def test_the_frame_has_one_line_per_row_and_every_field(results):
    frame = results.to_frame()
    columns = list(ROW_FIELDS)
    columns.insert(columns.index("language") + 1, "language_name")
    assert list(frame.columns) == columns
    assert len(frame) == len(results.rows)
    names = results.record.language_names
    for row, line in zip(results.rows, frame.to_dict("records")):
        assert line["language_name"] == names.get(row.language, row.language)
        for name, value in row.to_dict().items():
            if value is None:
                assert pd.isna(line[name]), (row.tokenizer, row.language, name)
            else:
                assert line[name] == value, (row.tokenizer, row.language, name)


def test_a_field_none_on_every_row_is_still_a_float_column(results):
    # As in a results.json from before the ratio to tiktoken was measured.
    rows = tuple(dataclasses.replace(row, throughput_x_tiktoken=None) for row in results.rows)
    frame = Results(rows=rows, record=results.record).to_frame()
    assert {str(frame[name].dtype) for name in FLOAT_FIELDS} == {"float64"}
    assert frame["throughput_x_tiktoken"].isna().all()
    assert (frame["premium"] > 0).sum() == sum(row.premium is not None and row.premium > 0 for row in rows)

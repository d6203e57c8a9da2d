"""Speed in the report: multiples of tiktoken where the run timed against it, MB/s for older results files.

On tests/data/results_fixture.json (tests/support/report_fixture.py); expected values are computed here from the
fixture's rows, never copied from a report.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from tests.support.report_fixture import FIXTURE, results  # noqa: F401 (fixtures)

from benchmark.report.plots import catalogue
from benchmark.report.plots import measurements as plots_module
from benchmark.report.plots import style as style_module
from benchmark.report.facts.findings import compute_findings
from benchmark.report.tables.measurements import throughput_table
from benchmark.report.view import ReportView
from benchmark.results.rows import Results, load_results


def with_ratios(results: Results, ratio_of) -> Results:
    """The fixture with every measured row's ratio to tiktoken set by `ratio_of(row)`."""
    import dataclasses

    rows = tuple(dataclasses.replace(r, throughput_x_tiktoken=ratio_of(r)) if r.ok else r for r in results.rows)
    return ReportView(rows=rows, record=results.record)


def format_1(results: Results, tmp_path: Path) -> Results:
    """The fixture as a results.json written before the yardstick: format 1, no ratio, wall clock."""
    import json

    raw = json.loads(FIXTURE.read_text(encoding="utf-8"))
    del raw["format"], raw["version"]
    raw["format_version"] = 1
    for row in raw["rows"]:
        del row["throughput_x_tiktoken"]
    del raw["record"]["settings"]["timing"]
    path = tmp_path / "results.json"
    path.write_text(json.dumps(raw), encoding="utf-8")
    return ReportView.of(load_results(path))


def test_the_fixture_was_timed_against_tiktoken(results):
    measured = [row for row in results.rows if row.ok]
    assert all(row.throughput_x_tiktoken > 0 for row in measured)
    assert results.record.settings.timing.yardstick == "tiktoken/cl100k_base"


def test_format_1_results_load_without_the_ratio_and_report_mb_s_by_the_wall_clock(results, tmp_path):
    from benchmark.report.pages.markdown import render_markdown
    from benchmark.report.facts.methods import methods_paragraph
    from benchmark.report.tables.measurements import all_rows_table

    old = format_1(results, tmp_path)
    assert all(row.throughput_x_tiktoken is None for row in old.rows)
    throughput = throughput_table(old)
    assert "MB/s" in throughput.title and "x" not in "".join(throughput.rows[0][1:])
    findings = " ".join(compute_findings(old))
    assert "The fastest encoder is" in findings and "MB/s (median over languages" in findings
    text = methods_paragraph(old)
    assert "per wall-clock second" in text and "tiktoken's cl100k_base encodes the same sentences" not in text
    assert "x tiktoken" not in text
    all_rows = all_rows_table(old)
    assert "x tiktoken" not in all_rows.headers and "per wall-clock second" in all_rows.note
    page = render_markdown(old, catalogue.PLOTS)
    assert catalogue.THROUGHPUT_MB_S_CAPTION in page and "multiples of tiktoken" not in page


def test_throughput_is_reported_in_multiples_of_tiktoken(results):
    from benchmark.report.pages.markdown import render_markdown
    from benchmark.report.facts.methods import methods_paragraph
    from benchmark.report.naming import fmt_times
    from benchmark.report.tables.measurements import all_rows_table

    throughput = throughput_table(results)
    assert "multiples of tiktoken cl100k_base's" in throughput.title
    index = {(r.tokenizer, r.language): r for r in results.rows}
    languages = [code for code in results.record.language_names]
    for row in throughput.rows:
        for code, cell in zip(languages, row[1:]):
            measured = index[row[0], code]
            assert cell == (fmt_times(measured.throughput_x_tiktoken) if measured.ok else "skipped")
    all_rows = all_rows_table(results)
    assert "x tiktoken" in all_rows.headers and "per CPU second" in all_rows.note
    text = methods_paragraph(results)
    assert "per CPU second" in text and "tiktoken's cl100k_base encodes the same sentences" in text
    assert "multiples of tiktoken" in render_markdown(results, catalogue.PLOTS)

    # The plot shows the ratios themselves (not MB/s under a ratio's label), with parity marked.
    with style_module.plot_style():
        fig = plots_module.plot_throughput(results)
    ax = fig.axes[0]
    assert "multiples of tiktoken" in ax.get_xlabel()
    plotted = sorted(round(float(x), 9) for c in ax.collections for x, _ in c.get_offsets())
    assert plotted == sorted(round(r.throughput_x_tiktoken, 9) for r in results.rows if r.ok)
    assert any(list(line.get_xdata()) == [1.0, 1.0] for line in ax.get_lines())


def test_a_run_with_a_row_without_the_ratio_reports_mb_s(results):
    from benchmark.report.facts.analysis import has_yardstick_ratios

    first = next(r for r in results.rows if r.ok)
    mixed = with_ratios(results, lambda r: None if r is first else r.throughput_x_tiktoken)
    assert not has_yardstick_ratios(mixed)
    assert "MB/s" in throughput_table(mixed).title


def test_the_speed_finding_ranks_by_the_ratio_and_names_close_encoders_together(results):
    import statistics

    # Ratios deliberately unlike MB/s (its inverse), so a ranking by MB/s would name others; tiktoken
    # against itself 1.0 (no noise beyond the tie share).
    inverse = with_ratios(results, lambda r: 1.0 if r.tokenizer == "tiktoken/cl100k_base" else 1 / r.throughput_mb_s)
    medians: dict[str, list[float]] = {}
    for row in inverse.rows:
        if row.ok:
            medians.setdefault(row.tokenizer, []).append(row.throughput_x_tiktoken)
    ranked = sorted(medians, key=lambda t: (-statistics.median(medians[t]), t))
    sentence = next(s for s in compute_findings(inverse) if "fastest encoder" in s)
    assert sentence.startswith(f"The fastest encoder{'s are' if ' are ' in sentence.split(';')[0] else ' is'} "
                               f"{ranked[0]} (")
    assert f"the slowest {'are' if ' are ' in sentence.split(';')[1] else 'is'} {ranked[-1]} (" in sentence

    # Hand-made medians: 2.0, 1.9 and 1.0 -> the first two are within 10% and named together.
    speeds = {"tiktoken/cl100k_base": 1.0, "tiktoken/o200k_base": 1.9, "bpe_openai/cl100k_base": 2.0}
    rows = tuple(r for r in results.rows if r.tokenizer in speeds)
    close = with_ratios(ReportView(rows=rows, record=results.record), lambda r: speeds[r.tokenizer])
    sentence = next(s for s in compute_findings(close) if "fastest encoder" in s)
    # A tie group shows three figures (two could print further apart than the tie share); no MB/s,
    # which each row timed at its own moment.
    assert sentence.startswith("The fastest encoders are bpe_openai/cl100k_base (2.00x tiktoken cl100k_base's "
                               "throughput) and tiktoken/o200k_base (1.90x), within 10% of each other")
    assert "the slowest is tiktoken/cl100k_base (1.0x)." in sentence and "MB/s" not in sentence
    # All within 10% of each other: no fastest to name.
    level = with_ratios(ReportView(rows=rows, record=results.record), lambda r: 1.0)
    assert not any("fastest encoder" in s for s in compute_findings(level))


def test_a_yardstick_ratio_must_be_positive(tmp_path):
    import json

    from benchmark.plumbing.errors import BenchmarkError

    raw = json.loads(FIXTURE.read_text(encoding="utf-8"))
    raw["rows"][0]["throughput_x_tiktoken"] = 0.0
    path = tmp_path / "results.json"
    path.write_text(json.dumps(raw), encoding="utf-8")
    with pytest.raises(BenchmarkError, match="row 1: throughput_x_tiktoken must be > 0"):
        load_results(path)
    # A format 3 row without the column is malformed, not silently None.
    del raw["rows"][0]["throughput_x_tiktoken"]
    path.write_text(json.dumps(raw), encoding="utf-8")
    with pytest.raises(BenchmarkError, match="row 1"):
        load_results(path)


def test_no_fastest_is_named_inside_the_noise_the_run_measured_of_tiktoken_against_itself(results):
    # The case: an encoder 1.26x tiktoken while tiktoken against itself read up to 1.4x.
    languages = results.languages
    noise = {code: (1.4 if k == 0 else 0.9) for k, code in enumerate(languages)}
    speeds = {"tiktoken/o200k_base": 1.26, "bpe_openai/cl100k_base": 1.0}
    rows = tuple(r for r in results.rows if r.tokenizer in {*speeds, "tiktoken/cl100k_base"})
    view = with_ratios(ReportView(rows=rows, record=results.record),
                       lambda r: noise[r.language] if r.tokenizer == "tiktoken/cl100k_base" else speeds[r.tokenizer])
    # Every encoder within 40% of every other: no fastest, no slowest named.
    assert not any("fastest" in s for s in compute_findings(view))
    # Outside that noise the fastest is named alone.
    speeds["tiktoken/o200k_base"] = 1.5
    sentence = next(s for s in compute_findings(with_ratios(view, lambda r: noise[r.language] if r.tokenizer ==
                                                            "tiktoken/cl100k_base" else speeds[r.tokenizer]))
                    if "fastest" in s)
    assert sentence.startswith("The fastest encoder is tiktoken/o200k_base")

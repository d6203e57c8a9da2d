"""The Korean question in the report (benchmark/report/hangul_first.py), on a real small run."""

from __future__ import annotations

import pytest

from benchmark.measure.plan import RunConfig, plan_run
from benchmark.measure.run import run_benchmark
from benchmark.report.findings import compute_findings
from benchmark.report.hangul_first import hangul_first_sentence, korean_points, plot_korean_by_size
from benchmark.report.view import ReportView


@pytest.fixture(scope="module")
def results(tmp_path_factory):
    config = RunConfig(languages=("eng_Latn", "kor_Hang", "jpn_Jpan"), vocab_sizes=(600, 1200), max_sentences=150,
                       tokenizers=("bpe/balanced-*", "bpe/hangul-first-*"), repeats=1,
                       cache_dir=tmp_path_factory.mktemp("cache"))
    return ReportView.of(run_benchmark(plan_run(config)))


def test_points_are_the_korean_rows_and_what_the_others_pay(results):
    points = korean_points(results)
    assert list(points) == ["bpe-balanced", "bpe-hangul-first"]
    rows = {(r.tokenizer, r.language): r for r in results.rows}
    for point in points["bpe-hangul-first"]:
        row = rows[point.tokenizer, "kor_Hang"]
        assert (point.premium, point.partial_char_rate, point.bytes_per_token) == (
            row.premium, row.partial_char_rate, row.bytes_per_token)
        base = f"bpe/balanced-{point.vocab_size}"
        others = [code for code in ("eng_Latn", "jpn_Jpan")]
        expected = (sum(rows[point.tokenizer, c].n_tokens for c in others) / sum(rows[base, c].n_tokens for c in others)
                    - 1)
        assert point.others_vs_balanced == pytest.approx(expected)
        # Every merge of a 600-token model goes to syllables: Korean's partial-character share is small.
        assert point.partial_char_rate < rows[base, "kor_Hang"].partial_char_rate


def test_the_finding_states_the_numbers_and_the_plot_draws(results):
    sentence = hangul_first_sentence(results)
    points = korean_points(results)
    for mine, base in zip(points["bpe-hangul-first"], points["bpe-balanced"]):
        assert f"{mine.vocab_size:,}: {mine.premium:.2f}x against {base.premium:.2f}x" in sentence
    assert sentence in compute_findings(results)
    figure = plot_korean_by_size(results)
    assert len(figure.axes) == 2 and len(figure.axes[0].lines) == 3  # two families and parity's dashed line


def test_nothing_without_korean_or_the_family(results):
    from dataclasses import replace

    without = ReportView.of(replace(results, rows=tuple(r for r in results.rows if r.family != "bpe-hangul-first")))
    assert korean_points(without) == {} and hangul_first_sentence(without) == ""
    assert plot_korean_by_size(without) is None

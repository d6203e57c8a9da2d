"""The Korean question in the report (benchmark/report/facts/hangul_first.py, its plot and table), on a real small run."""

from __future__ import annotations

import pytest

from benchmark.measure.plan import RunConfig, plan_run
from benchmark.measure.run import run_benchmark
from benchmark.report.facts.findings import compute_findings
from benchmark.report.facts.hangul_first import hangul_first_sentence, korean_points
from benchmark.report.plots.hangul_first import plot_korean_by_size
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


def test_rare_entries_per_trained_tokenizer_beside_the_embedding(results, tmp_path):
    from benchmark.adapters.cache import TrainingCache
    from benchmark.adapters.registry import build_tokenizers
    from benchmark.measure.plan import RunConfig, plan_run
    from benchmark.measure.rare_entries import RARE_BELOW, rare_entry_share
    from benchmark.report.tables.measurements import tokenizer_table

    shares = {s.tokenizer: s.rare_entry_share for s in results.summaries}
    assert set(shares) == {"bpe/balanced-600", "bpe/balanced-1200", "bpe/hangul-first-600", "bpe/hangul-first-1200"}
    plan = plan_run(RunConfig(languages=("eng_Latn", "kor_Hang", "jpn_Jpan"), max_sentences=150, vocab_sizes=(600,),
                              tokenizers=("bpe/hangul-first-600",), cache_dir=tmp_path))
    (adapter,) = build_tokenizers(["bpe/hangul-first-600"], plan.training, TrainingCache(tmp_path))
    assert shares["bpe/hangul-first-600"] == rare_entry_share(adapter, plan.training.lines, {})
    # Counted by hand: an entry is rare when its training text holds it fewer than RARE_BELOW times.
    seen = {}
    for line in plan.training.texts:
        for token_id in adapter.encode(line):
            seen[token_id] = seen.get(token_id, 0) + 1
    rare = sum(1 for i in range(adapter.vocab_size) if seen.get(i, 0) < RARE_BELOW)
    assert shares["bpe/hangul-first-600"] == rare / adapter.vocab_size
    table = tokenizer_table(results)
    column = table.headers.index("rare entries (< 10 in its training text)")
    line = next(row for row in table.rows if row[0] == "bpe/hangul-first-600")
    assert line[column] == f"{100 * rare / adapter.vocab_size:.1f}%"


def test_the_record_says_how_much_of_the_vocabulary_the_syllables_take(results):
    from benchmark.bpe import ByteLevelBPE

    for point in korean_points(results)["bpe-hangul-first"]:
        entry = results.record.tokenizers[point.tokenizer]
        assert point.n_syllable_entries == entry.settings["whole_character_entries"] > 0
        assert f"syllables {point.n_syllable_entries / point.vocab_size:.0%} of the vocabulary" in (
            hangul_first_sentence(results))
    assert all(p.n_syllable_entries is None for p in korean_points(results)["bpe-balanced"])


def test_the_mixes_section_has_the_korean_table(results):
    from benchmark.report.pages.sections import report_sections

    (mixes,) = [s for s in report_sections(results) if s.key == "mixes"]
    (table,) = [t for t in mixes.tables if t.key == "korean"]
    points = korean_points(results)
    assert len(table.rows) == sum(map(len, points.values())) == 4
    first = points["bpe-hangul-first"][0]
    line = next(row for row in table.rows if row[0] == "our BPE (Hangul first)" and row[1] == "600")
    assert line[2] == f"{first.tokens_per_sentence:.1f}" and line[3].startswith(f"{first.premium:.3f} (")

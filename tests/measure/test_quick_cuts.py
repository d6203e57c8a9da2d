"""--quick leaves out the vocabulary check (unless cached) and rare entries, says so, and counts
what it measures exactly as a run without it on the same lines and sizes."""

from __future__ import annotations

from pathlib import Path

from benchmark.measure.plan import RunConfig, plan_run
from benchmark.measure.run import run_benchmark
from benchmark.report.facts.methods import methods_paragraph
from benchmark.report.view import ReportView
from tests.support.paths import DATA
from tests.support.rows import rows_without_timing

TOKENIZERS = ("bpe/balanced-*", "hf/wordpiece-*", "tiktoken/cl100k_base")


def _run(cache_dir: Path, **options):
    config = RunConfig(corpus_dir=DATA / "tiny_corpus", train_corpus_dir=DATA / "tiny_split", vocab_sizes=(260, 280),
                       tokenizers=TOKENIZERS, repeats=1, cache_dir=cache_dir, **options)
    return run_benchmark(plan_run(config))


def test_quick_leaves_out_the_vocabulary_check_and_rare_entries_and_says_so(tmp_path):
    quick = _run(tmp_path / "a", quick=True)
    full = _run(tmp_path / "b")
    assert rows_without_timing(quick.rows) == rows_without_timing(full.rows)
    assert any(s.n_unreachable is not None for s in full.summaries)
    assert any(s.rare_entry_share is not None for s in full.summaries)
    assert all(s.n_unreachable is None and s.rare_entry_share is None for s in quick.summaries)
    assert len(quick.record.settings.quick_left_out) == 3 and not full.record.settings.quick_left_out
    text = methods_paragraph(ReportView.of(quick))
    assert "--quick look; it left out" in text and "rare entries" in text
    assert "--quick look" not in methods_paragraph(ReportView.of(full))
    # a vocabulary check the cache holds is given, --quick or not
    again = _run(tmp_path / "b", quick=True)
    assert [s.n_unreachable for s in again.summaries] == [s.n_unreachable for s in full.summaries]


def test_a_rerun_takes_rare_entries_from_the_results_cache(tmp_path, monkeypatch):
    from benchmark.measure import rare_entries

    calls = []
    real = rare_entries.rare_entry_share

    def spy(adapter, *args):
        calls.append(adapter.id)
        return real(adapter, *args)

    monkeypatch.setattr(rare_entries, "rare_entry_share", spy)
    first = _run(tmp_path)
    n_calls = len(calls)
    assert n_calls >= 2
    second = _run(tmp_path)
    assert len(calls) == n_calls  # none computed again
    assert [s.rare_entry_share for s in first.summaries] == [s.rare_entry_share for s in second.summaries]
    _run(tmp_path, retrain=True)
    assert len(calls) == 2 * n_calls

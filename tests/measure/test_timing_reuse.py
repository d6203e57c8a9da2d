"""run --reuse-timing: the timing columns from the results cache, keyed by the tokenizer, its
text, the timing settings and the machine; a changed part or a damaged entry is timed again."""

from __future__ import annotations

from pathlib import Path

import pytest

from benchmark.measure import run as run_module
from benchmark.measure import timing_reuse
from benchmark.measure.plan import RunConfig, plan_run
from benchmark.measure.run import run_benchmark
from benchmark.report.facts.methods import methods_paragraph
from benchmark.report.view import ReportView
from benchmark.results.rows import TIMING_FIELDS
from tests.support.paths import DATA

TOKENIZERS = ("bpe/balanced-*", "tiktoken/cl100k_base")


@pytest.fixture
def timed(monkeypatch):
    """The tokenizer ids of every timing pass made in this process."""
    calls = []
    real = run_module._time_all

    def spy(tokenizers, *args):
        calls.extend(t.id for t in tokenizers)
        return real(tokenizers, *args)

    monkeypatch.setattr(run_module, "_time_all", spy)
    return calls


def _run(cache_dir: Path, repeats: int = 1, **options):
    config = RunConfig(corpus_dir=DATA / "tiny_corpus", train_corpus_dir=DATA / "tiny_split", vocab_sizes=(280,),
                       tokenizers=TOKENIZERS, repeats=repeats, cache_dir=cache_dir, **options)
    return run_benchmark(plan_run(config))


def methods_text(results) -> str:
    return methods_paragraph(ReportView.of(results))


def _timing(results):
    return [(r.tokenizer, r.language, *(getattr(r, k) for k in TIMING_FIELDS if k != "train_seconds"))
            for r in results.rows]


def test_reuse_gives_the_same_timing_columns_and_says_so(tmp_path, timed):
    first = _run(tmp_path)
    n_passes = len(timed)
    assert n_passes == 2 and first.record.settings.timing.reused_measured_on is None
    again = _run(tmp_path)  # without the flag: timed again
    assert len(timed) == 2 * n_passes and _timing(again) != _timing(first)
    reused = _run(tmp_path, reuse_timing=True)
    assert len(timed) == 2 * n_passes  # nothing timed
    assert _timing(reused) == _timing(again)  # the latest entry
    assert any(row.throughput_mb_s is not None for row in reused.rows)
    dates = reused.record.settings.timing.reused_measured_on
    assert set(dates) == {"bpe/balanced-280", "tiktoken/cl100k_base"}
    assert all(when[:10] == again.record.date[:10] for when in dates.values())
    assert "reused (run --reuse-timing)" in methods_text(reused)
    assert f"measured {again.record.date[:10]}" in methods_text(reused)
    assert "reuse-timing" not in methods_text(again)


def test_other_repeats_or_another_machine_time_again(tmp_path, timed, monkeypatch):
    _run(tmp_path)
    _run(tmp_path, repeats=2, reuse_timing=True)
    assert len(timed) == 4  # the repeats are part of the key
    _run(tmp_path, repeats=2, reuse_timing=True)
    assert len(timed) == 4
    real = timing_reuse.machine_info
    monkeypatch.setattr(timing_reuse, "machine_info", lambda: {**real(), "processor": "another"})
    results = _run(tmp_path, repeats=2, reuse_timing=True)
    assert len(timed) == 6 and results.record.settings.timing.reused_measured_on is None


def test_a_damaged_entry_is_timed_again(tmp_path, timed):
    _run(tmp_path)
    entries = list((tmp_path / "results").glob("??/*.entry"))
    damaged = 0
    for path in entries:
        blob = path.read_bytes()
        if b"TimedEntry" in __import__("zlib").decompress(blob.partition(b"\n")[2]):
            path.write_bytes(blob[:-5] + b"xxxxx")
            damaged += 1
    assert damaged == 2
    results = _run(tmp_path, reuse_timing=True)
    assert len(timed) == 4 and results.record.settings.timing.reused_measured_on is None
    assert all(row.throughput_mb_s is not None for row in results.rows if row.ok)


def test_the_flag_with_no_cache_is_one_line(tmp_path, capsys):
    from benchmark.cli.parser import main

    code = main(["run", "--quick", "--no-cache", "--reuse-timing", "--output", str(tmp_path / "out")])
    assert code == 2 and "--reuse-timing reads the results cache" in capsys.readouterr().err

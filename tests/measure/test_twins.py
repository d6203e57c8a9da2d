"""Our BPE counted on tiktoken's engine: the same counts as our encoder's, checked on the text
itself, a line where the engines differ fails its row, and the record and methods say so."""

from __future__ import annotations

import pytest

from benchmark.adapters.inhouse import InhouseBPE
from benchmark.adapters.openai_tiktoken import EncodingAdapter
from benchmark.bpe import ByteLevelBPE
from benchmark.measure import twins
from benchmark.measure.counting import count_texts
from benchmark.measure.executors import count_slices
from benchmark.measure.plan import RunConfig, plan_run
from benchmark.measure.rare_entries import rare_entry_share, run_rare_task, RareTask
from benchmark.measure.run import run_benchmark
from benchmark.report.facts.methods import methods_paragraph
from benchmark.report.view import ReportView
from benchmark.results.rows import ROW_FIELDS, TIMING_FIELDS
from benchmark.words.segmenters import segment_language
from tests.support.paths import FLORES

LANGUAGES = ("eng_Latn", "rus_Cyrl", "jpn_Jpan", "kor_Hang")


def lines(split: str, language: str, n: int) -> list[str]:
    return (FLORES / split / f"{language}.{split}").read_text(encoding="utf-8").splitlines()[:n]


@pytest.fixture(scope="module")
def adapter() -> InhouseBPE:
    model = ByteLevelBPE.train([line for code in LANGUAGES for line in lines("dev", code, 250)], 2000)
    return InhouseBPE(model, id="bpe/test-2000", family="bpe-test")


def test_the_twin_counts_what_our_encoder_counts_on_every_language(adapter):
    twin = twins.counting_twin(adapter)
    assert isinstance(twin, EncodingAdapter) and twin.vocab_size == adapter.vocab_size
    slices = []
    for code in LANGUAGES:
        texts = lines("devtest", code, 300)
        slices.append((code, texts, segment_language(code, texts).spans))
    result = count_slices(adapter, slices)
    assert not result.failures
    for (code, texts, words), (counted_code, counts) in zip(slices, result.counts):
        assert counted_code == code
        assert counts == count_texts(adapter, texts, words)  # our encoder, every line


def test_the_check_spreads_its_lines_over_the_text():
    assert twins.checked_lines(1012)[:3] == [0, 15, 31] and len(twins.checked_lines(1012)) == twins.CHECK_LINES
    assert twins.checked_lines(5) == [0, 1, 2, 3, 4]


def _byte_rule_differs() -> InhouseBPE:
    """Merges (b, c), (a, b), (ab, c): our pair rule encodes "abc" as a + bc; tiktoken's byte rule
    returns a pre-token that is itself a token as that token."""
    a, b, c = b"abc"
    model = ByteLevelBPE(merges=[(b, c), (a, b), (257, c)], pattern="cl100k")
    assert model.encode("abc") == [a, 256] and model.to_tiktoken().encode_ordinary("abc") == [258]
    return InhouseBPE(model, id="bpe/hand-made-259", family="bpe-test")


def test_a_line_the_engines_encode_differently_fails_that_row_only():
    adapter = _byte_rule_differs()
    result = count_slices(adapter, [("eng", ("hello", "x abc y", "more"), None), ("spa", ("hola", "ab c"), None)])
    assert [code for code, _ in result.counts] == ["spa"]
    (code, reason), = result.failures
    assert code == "eng" and "line 2" in reason and "other ids than our encoder" in reason
    # The rare-entry count checks the training lines the same way: no share, the reason instead.
    task = RareTask(adapter.id, None, (("eng", ("abc", "cab")),), (("eng", 1),))
    assert "other ids than our encoder" in run_rare_task(task, adapter)
    assert rare_entry_share(adapter, {"eng": ("ab", "ca")}, {"eng": 1}) is not None


def test_a_custom_pattern_is_counted_by_our_encoder():
    model = ByteLevelBPE.train(["low lower lowest"] * 20, 270, pattern=r"\w+| ")
    assert twins.counting_twin(InhouseBPE(model, id="bpe/custom-270", family="bpe-test")) is None


def _rows(results):
    return [{k: getattr(r, k) for k in ROW_FIELDS if k not in TIMING_FIELDS} for r in results.rows]


def test_a_run_counts_the_same_rows_on_either_engine_and_says_which(tmp_path, monkeypatch):
    config = RunConfig(languages=("eng_Latn", "jpn_Jpan", "kor_Hang"), vocab_sizes=(512, 1024), max_sentences=80,
                       tokenizers=("bpe/balanced-*",), repeats=1, cache_dir=tmp_path / "cache")
    twinned = run_benchmark(plan_run(config))
    engine = twinned.record.settings.counting.engine
    assert engine.startswith("2 of our BPE models (bpe/*) counted by tiktoken") and "64 of them" in engine
    assert f"Counting: {engine}." in methods_paragraph(ReportView.of(twinned))
    monkeypatch.setattr(twins, "counting_twin", lambda adapter: None)
    ours = run_benchmark(plan_run(RunConfig(**{**config.__dict__, "cache_dir": tmp_path / "other"})))
    assert _rows(ours) == _rows(twinned) and any(row.ok for row in ours.rows)
    assert [s.rare_entry_share for s in ours.summaries] == [s.rare_entry_share for s in twinned.summaries]
    assert ours.record.settings.counting.engine is None

"""The results cache: a rerun counts only what changed, with the figures of a run without it."""

from __future__ import annotations

import shutil
from array import array
from pathlib import Path

import pytest

from benchmark.measure import executors, results_cache
from benchmark.measure.plan import RunConfig, plan_run
from benchmark.measure.results_cache import ResultsCache, tokenizer_identity
from benchmark.measure.run import run_benchmark
from tests.support.paths import DATA
from tests.support.rows import rows_without_timing

TOKENIZERS = ("bpe/balanced-*", "hf/wordpiece-*", "tiktoken/cl100k_base")


@pytest.fixture
def counted(monkeypatch):
    """(tokenizer id, number of sentences) of every count made in this process."""
    calls = []
    real = executors.count_texts

    def spy(adapter, texts, *args, **kwargs):
        calls.append((adapter.id, len(texts)))
        return real(adapter, texts, *args, **kwargs)

    monkeypatch.setattr(executors, "count_texts", spy)
    return calls


def _run(cache_dir: Path, corpus: Path = DATA / "tiny_corpus", **options):
    config = RunConfig(corpus_dir=corpus, train_corpus_dir=DATA / "tiny_split", vocab_sizes=(300,),
                       tokenizers=TOKENIZERS, repeats=1, cache_dir=cache_dir, **options)
    return run_benchmark(plan_run(config))


def _figures(results):
    """Everything but the timing columns and the record's date and phase times."""
    rows = rows_without_timing(results.rows)
    return rows, results.summaries, results.record.tokenizers, results.record.examples


def test_a_rerun_counts_nothing_and_gives_the_figures_of_a_run_without_the_cache(tmp_path, counted):
    without = _run(tmp_path / "a", results_cache=False)
    assert not (tmp_path / "a" / "results").exists()  # --no-cache keeps nothing
    n_counts = len(counted)
    first = _run(tmp_path / "b")
    assert len(counted) == 2 * n_counts
    second = _run(tmp_path / "b")
    assert len(counted) == 2 * n_counts  # nothing counted again, vocabulary checks included
    assert _figures(without) == _figures(first) == _figures(second)
    assert all(row.ok for row in second.rows if row.tokenizer == "tiktoken/cl100k_base")
    assert all(row.throughput_mb_s is not None for row in second.rows if row.ok)  # timing measured anew
    # --retrain reads nothing, counts again, stores again
    _run(tmp_path / "b", retrain=True)
    assert len(counted) == 3 * n_counts


def test_a_changed_sentence_recounts_that_language_alone(tmp_path, counted):
    corpus = tmp_path / "corpus"
    shutil.copytree(DATA / "tiny_corpus", corpus)
    first = _run(tmp_path / "cache", corpus)
    counted.clear()
    spa = corpus / "spa.txt"
    spa.write_text(spa.read_text(encoding="utf-8").replace("gato", "perro", 1), encoding="utf-8")
    second = _run(tmp_path / "cache", corpus)
    ok_tokenizers = {row.tokenizer for row in first.rows if row.ok}
    assert sorted(counted) == sorted((tokenizer, 3) for tokenizer in ok_tokenizers)  # spa only, 3 lines
    changed = {(r.tokenizer, r.language) for r, s in zip(first.rows, second.rows) if r.n_bytes != s.n_bytes}
    assert {language for _, language in changed} == {"spa"}


def test_new_library_versions_or_code_recount_everything(tmp_path, counted, monkeypatch):
    _run(tmp_path)
    n_counts = len(counted)
    versions = dict(results_cache.library_versions())
    monkeypatch.setattr(results_cache, "library_versions", lambda: {**versions, "tiktoken": "0.0.0"})
    _run(tmp_path)
    assert len(counted) == 2 * n_counts
    monkeypatch.setattr(results_cache, "code_digest", lambda: "another version of the counting code")
    _run(tmp_path)
    assert len(counted) == 3 * n_counts


def test_a_damaged_entry_is_a_miss_never_a_wrong_figure(tmp_path, counted):
    first = _run(tmp_path)
    n_counts = len(counted)
    entries = ResultsCache(tmp_path / "results").entries()
    assert entries
    for k, path in enumerate(entries):
        data = bytearray(path.read_bytes())
        if k % 3 == 0:
            data = data[: len(data) // 2]  # truncated
        elif k % 3 == 1:
            data[-1] ^= 0xFF  # one bit flipped in the body
        else:
            data = b"not an entry at all"
        path.write_bytes(bytes(data))
    second = _run(tmp_path)
    assert len(counted) == 2 * n_counts
    assert _figures(first) == _figures(second)
    third = _run(tmp_path)  # the damaged entries were written again
    assert len(counted) == 2 * n_counts and _figures(third) == _figures(first)


class _StandIn:
    fingerprint = "ab" * 32
    vocab_size = 1000
    settings = {"model": {"type": "BPE"}}
    unk_id = None


def test_each_part_of_a_tokenizers_identity_changes_its_keys():
    base = tokenizer_identity(_StandIn())
    assert base == tokenizer_identity(_StandIn())
    for name, value in (("fingerprint", "cd" * 32), ("vocab_size", 1001), ("settings", {"model": {"type": "WP"}}),
                        ("unk_id", 0)):
        other = _StandIn()
        setattr(other, name, value)
        assert tokenizer_identity(other) != base, name
    without = _StandIn()
    without.fingerprint = None
    assert tokenizer_identity(without) is None  # never cached
    spans = (array("i", [0, 3]),)
    key = ResultsCache.counts_key(base, ["abc"], spans)
    assert key != ResultsCache.counts_key(base, ["abd"], spans)
    assert key != ResultsCache.counts_key(base, ["abc"], (array("i", [0, 2]),))
    assert key != ResultsCache.counts_key(base, ["abc"], None)
    assert ResultsCache.words_key("eng", ["abc"]) != ResultsCache.words_key("spa", ["abc"])


def test_the_folder_is_bounded_least_recently_used_first(tmp_path):
    import os

    from benchmark.measure.vocabulary import VocabularyHealth

    cache = ResultsCache(tmp_path, max_bytes=10_000)
    keys = [f"{k:064x}" for k in range(30)]
    for k, key in enumerate(keys):
        cache.put(key, VocabularyHealth(0, 0, 0, (os.urandom(1000).hex(),), "every entry"))
        os.utime(cache._path(key), (1_000_000 + k, 1_000_000 + k))
    cache.get(keys[0], VocabularyHealth)  # used just now: kept
    total = sum(p.stat().st_size for p in cache.entries())
    cache.max_bytes = total // 2
    removed = cache.prune()
    assert removed > 0
    assert sum(p.stat().st_size for p in cache.entries()) <= total // 2
    assert cache.get(keys[0], VocabularyHealth) is not None and cache.get(keys[1], VocabularyHealth) is None
    assert cache.get(keys[-1], VocabularyHealth) is not None
    (tmp_path / "ab").mkdir(exist_ok=True)
    (tmp_path / "ab" / "notes.txt").write_text("not ours")
    cache.max_bytes = 0
    cache.prune()
    assert (tmp_path / "ab" / "notes.txt").exists()  # only its own entries are removed

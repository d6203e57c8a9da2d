"""The results cache holds data a reader can trust (issue 38 item 5): a planted pickle never runs,
and an entry edited or moved by someone without the cache's key is a miss, never a wrong figure.
Each case is a real run on a small corpus, its cache then tampered with as a user sharing it could."""

from __future__ import annotations

import dataclasses
import hashlib
import os
import pickle
import shutil
import signal
import zlib
from pathlib import Path

import pytest

from benchmark.measure import executors, results_cache
from benchmark.measure.counting import Counts
from benchmark.measure.plan import RunConfig, plan_run
from benchmark.measure.results_cache import ResultsCache, counting_packages
from benchmark.measure.run import run_benchmark
from tests.support.paths import DATA
from tests.support.rows import rows_without_timing


def _run(cache_dir: Path):
    config = RunConfig(corpus_dir=DATA / "tiny_corpus", tokenizers=("tiktoken/cl100k_base",), repeats=1,
                       cache_dir=cache_dir)
    return run_benchmark(plan_run(config))


def _figures(results):
    return rows_without_timing(results.rows)


@pytest.fixture(scope="module")
def clean(tmp_path_factory):
    """The figures of a run whose cache nobody touched."""
    return _figures(_run(tmp_path_factory.mktemp("clean")))


@pytest.fixture
def spied(monkeypatch):
    """(counted: (tokenizer id, n sentences) per count made, stored: key -> value per entry kept)."""
    counted, stored = [], {}
    real_count, real_put = executors.count_texts, ResultsCache.put

    def count(adapter, texts, *args, **kwargs):
        counted.append((adapter.id, len(texts)))
        return real_count(adapter, texts, *args, **kwargs)

    def put(self, key, value):
        stored[key] = value
        return real_put(self, key, value)

    monkeypatch.setattr(executors, "count_texts", count)
    monkeypatch.setattr(ResultsCache, "put", put)
    return counted, stored


def _entry_path(cache_dir: Path, key: str) -> Path:
    return ResultsCache(cache_dir / "results")._path(key)


class _RunsCode:
    def __init__(self, marker: Path) -> None:
        self.marker = marker

    def __reduce__(self):
        return os.system, (f"touch {self.marker}",)


def test_a_planted_pickle_never_runs(tmp_path, clean, spied):
    counted, stored = spied
    _run(tmp_path)
    marker = tmp_path / "the-pickle-ran"
    body = zlib.compress(pickle.dumps(_RunsCode(marker)))
    digest = hashlib.sha256(body).hexdigest().encode()
    for n, key in enumerate(stored):  # the entry format of b98865f, and the current one's header
        magic = b"tokencost-results 1 " if n % 2 == 0 else b"tokencost-results 2 "
        _entry_path(tmp_path, key).write_bytes(magic + digest + b"\n" + body)
    n_counts = len(counted)
    assert _figures(_run(tmp_path)) == clean
    assert not marker.exists()
    assert len(counted) == 2 * n_counts  # every planted entry was a miss, counted again


def test_an_entry_written_by_another_cache_with_edited_counts_is_a_miss(tmp_path, clean, spied):
    # The attacker uses this program's own writer, so the entry's digest is right for its bytes;
    # they lack only this cache's key.
    counted, stored = spied
    _run(tmp_path)
    n_counts = len(counted)
    attacker = ResultsCache(tmp_path / "attacker")
    edited = 0
    for key, value in list(stored.items()):
        if isinstance(value, Counts):
            wrong = dataclasses.replace(value, tokens_per_line=[n + 7 for n in value.tokens_per_line])
            attacker.put(key, wrong)
            shutil.copyfile(attacker._path(key), _entry_path(tmp_path, key))
            edited += 1
    assert edited == 3  # one per language
    assert _figures(_run(tmp_path)) == clean
    assert len(counted) == n_counts + edited


def test_an_entry_moved_under_another_key_is_a_miss(tmp_path, clean, spied):
    counted, stored = spied
    _run(tmp_path)
    n_counts = len(counted)
    keys = [key for key, value in stored.items() if isinstance(value, Counts)]
    paths = [_entry_path(tmp_path, key) for key in keys]
    blobs = [path.read_bytes() for path in paths]
    for path, blob in zip(paths, blobs[1:] + blobs[:1]):  # each language's counts under the next one's key
        path.write_bytes(blob)
    assert _figures(_run(tmp_path)) == clean
    assert len(counted) == n_counts + len(keys)


def test_an_edited_entry_with_its_plain_digest_recomputed_is_a_miss(tmp_path, clean, spied):
    import json

    counted, stored = spied
    _run(tmp_path)
    n_counts = len(counted)
    for key, value in stored.items():
        if not isinstance(value, Counts):
            continue
        path = _entry_path(tmp_path, key)
        header, _, body = path.read_bytes().partition(b"\n")
        document = json.loads(zlib.decompress(body))
        document["value"]["tokens_per_line"] = [n + 7 for n in document["value"]["tokens_per_line"]]
        body = zlib.compress(json.dumps(document).encode())
        for tag in (hashlib.sha256(body).hexdigest(), hashlib.sha256(key.encode() + b"\0" + body).hexdigest()):
            path.write_bytes(b"tokencost-results 2 " + tag.encode() + b"\n" + body)
            assert ResultsCache(tmp_path / "results").get(key, Counts) is None
    assert _figures(_run(tmp_path)) == clean
    assert len(counted) == n_counts + 3


def test_a_cache_copied_with_its_key_is_used_and_without_it_is_counted_again(tmp_path, clean, spied):
    counted, _ = spied
    _run(tmp_path / "here")
    n_counts = len(counted)
    shutil.copytree(tmp_path / "here", tmp_path / "there")
    assert _figures(_run(tmp_path / "there")) == clean
    assert len(counted) == n_counts  # the copy's entries are trusted: its key came with it
    (tmp_path / "here" / "results" / ".seal-key").unlink()
    assert _figures(_run(tmp_path / "here")) == clean
    assert len(counted) == 2 * n_counts


@pytest.mark.parametrize("kind", ["fifo", "link", "garbage"])
def test_a_key_that_is_not_a_key_file_is_replaced_without_waiting_or_following(tmp_path, clean, spied, kind):
    counted, _ = spied
    _run(tmp_path)
    n_counts = len(counted)
    key = tmp_path / "results" / ".seal-key"
    key.unlink()
    target = tmp_path / "mine.txt"
    target.write_text("my own file\n")
    if kind == "fifo":
        os.mkfifo(key)
    elif kind == "link":
        key.symlink_to(target)
    else:
        key.write_text("not sixty-four hex digits\n")

    def hung(*_):
        raise TimeoutError("waited on the cache's key")

    previous = signal.signal(signal.SIGALRM, hung)
    signal.alarm(60)
    try:
        assert _figures(_run(tmp_path)) == clean
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)
    assert len(counted) == 2 * n_counts  # entries sealed by the lost key are counted again
    assert target.read_text() == "my own file\n"
    assert key.is_file() and not key.is_symlink() and len(key.read_text().strip()) == 64
    assert key.stat().st_mode & 0o077 == 0  # readable by its owner only


def test_every_vendor_package_of_the_tokenizer_table_is_in_the_key(monkeypatch):
    from benchmark.adapters import families
    from benchmark.adapters.table import Pretrained
    from benchmark.plumbing.pinned import PinnedFile

    assert set(families.vendor_packages()) <= set(counting_packages())
    before = ResultsCache.vocabulary_key("some tokenizer")
    vendor = next(iter(families.PRETRAINED_TOKENIZERS.values()))
    made_up = Pretrained("newco/v1", vendor.family, "v1", PinnedFile(package="newco-tokenizer", module="newco",
                                                                     path="v1.json", sha256="0" * 64, provenance="made up"))
    monkeypatch.setitem(families.PRETRAINED_TOKENIZERS, made_up.id, made_up)
    results_cache.library_versions.cache_clear()
    try:
        assert "newco-tokenizer" in counting_packages()
        assert results_cache.library_versions()["newco-tokenizer"] == "not installed"
        assert ResultsCache.vocabulary_key("some tokenizer") != before
    finally:
        monkeypatch.undo()
        results_cache.library_versions.cache_clear()

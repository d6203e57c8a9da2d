"""HF's parity-aware trainer as the `hf/parity-{size}` family (benchmark/adapters/hf_parity.py)."""

from __future__ import annotations

import json

import pytest

from benchmark.adapters.base import TrainingText
from benchmark.adapters.cache import TrainingCache
from benchmark.adapters.hf_parity import cut, train_sizes
from benchmark.corpora import load_flores

LANGUAGES = ("kor_Hang", "eng_Latn", "rus_Cyrl")


@pytest.fixture(scope="module")
def training() -> TrainingText:
    corpus = load_flores(languages=LANGUAGES)
    return TrainingText.of({code: corpus.lines("dev", code)[:120] for code in LANGUAGES})


def test_sizes_are_cut_from_one_run_and_equal_a_run_to_that_size(training, tmp_path):
    swept = train_sizes(training, [400, 700], TrainingCache(tmp_path / "a"))
    alone = train_sizes(training, [400], TrainingCache(tmp_path / "b"))[400]
    assert alone.fingerprint == swept[400].fingerprint  # HF's merges are a prefix
    for size, adapter in swept.items():
        assert adapter.vocab_size == size  # 256 bytes, seen or not, and the merges
        config = json.loads(adapter.tokenizer.to_str())
        assert len(config["model"]["merges"]) == size - 256
    # Every byte is in the vocabulary, so text with bytes never seen in training round-trips.
    text = "다람쥐 🙂 ทดสอบ \x00\x7f ﬁ"
    assert swept[400].decode(swept[400].encode(text)) == text
    # Read back from the cache: the same models.
    again = train_sizes(training, [400, 700], TrainingCache(tmp_path / "a"))
    assert {s: a.fingerprint for s, a in again.items()} == {s: a.fingerprint for s, a in swept.items()}


def test_cut_refuses_a_tokenizer_whose_ids_are_not_alphabet_then_merges():
    config = {"model": {"vocab": {"a": 1, "b": 0, "ab": 5}, "merges": [["a", "b"]]}}
    with pytest.raises(AssertionError, match="alphabet then merges"):
        cut(config, 1)

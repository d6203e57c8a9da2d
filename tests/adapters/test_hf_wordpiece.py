"""Our WordPiece trainer (benchmark/adapters/hf_wordpiece.py) against HF's WordPieceTrainer: told
the order an HF training numbered its `##` forms in, it writes that training's file byte for byte;
in its own order, the same file from every process."""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys

import pytest
from tests.support.paths import REPO

from benchmark.adapters import hf_tokenizers, hf_wordpiece
from benchmark.adapters.base import Skipped
from benchmark.adapters.cache import TrainingCache
from benchmark.corpora import load_flores

LANGUAGES = ("eng_Latn", "kor_Hang", "jpn_Jpan", "ces_Latn")


@pytest.fixture(scope="module")
def flores_lines() -> list[str]:
    corpus = load_flores(languages=LANGUAGES)
    return [line for code in LANGUAGES for line in corpus.lines("dev", code)[:150]]


def hf_training(texts: list[str], vocab_size: int) -> tuple[str, list[str]]:
    """HF's own training: its tokenizer.json, and the order its `##` block came out in."""
    from tokenizers import trainers

    tok = hf_tokenizers._new_wordpiece()
    tok.train_from_iterator(texts, trainer=trainers.WordPieceTrainer(
        vocab_size=vocab_size, min_frequency=hf_tokenizers.MIN_FREQUENCY, special_tokens=[hf_tokenizers.UNK],
        show_progress=False))
    config = tok.to_str()
    vocab = json.loads(config)["model"]["vocab"]
    words = hf_wordpiece.count_words(tok, texts)
    n_before = 1 + len({ch for word in words for ch in word})  # [UNK], then the characters
    n_continuations = len({ch for word in words for ch in word[1:]})
    return config, sorted(vocab, key=vocab.get)[n_before:n_before + n_continuations]


def ours(texts: list[str], vocab_size: int, continuation_order=None) -> str:
    words = hf_wordpiece.count_words(hf_tokenizers._new_wordpiece(), texts)
    vocab = hf_wordpiece.train_vocab(words, vocab_size=vocab_size, min_frequency=hf_tokenizers.MIN_FREQUENCY,
                                     continuation_order=continuation_order).vocab
    return hf_tokenizers.wordpiece_from_vocab(vocab).to_str()


@pytest.mark.parametrize("vocab_size", [2500, 4000])  # above the alphabet's 2,304 entries
def test_told_an_hf_trainings_order_it_writes_that_trainings_file(flores_lines, vocab_size):
    files = set()
    for _ in range(3):
        hf_file, order = hf_training(flores_lines, vocab_size)
        assert ours(flores_lines, vocab_size, order) == hf_file
        files.add(hf_file)
    # The reason this module exists: if HF's files agree, its trainer may have been fixed (#1794).
    assert len(files) > 1, "HF's WordPieceTrainer gave the same file 3 times: is it deterministic now?"


# Awkward words, each line a word and its count: overlapping pairs (`a a a a`), a merge that makes
# a string another merge made (`ab ##c`, `a ##bc`), a tie, one-letter words, a word too rare to merge.
@pytest.mark.parametrize("table", [
    {"aaaa": 7, "aaa": 3, "ba": 2},
    {"abab": 5, "ababab": 2, "bab": 3},
    {"abc": 4, "ab": 3, "bc": 9, "xbc": 2, "abx": 2},
    {"hug": 10, "pug": 5, "hugs": 5, "pun": 1, "a": 4, "b": 4},
])
def test_awkward_words_train_as_in_hf(table):
    texts = [" ".join(word for word, count in table.items() for _ in range(count))]
    for _ in range(3):
        hf_file, order = hf_training(texts, 40)
        assert ours(texts, 40, order) == hf_file


def test_ties_go_to_the_smaller_ids_with_the_continuations_in_code_point_order():
    vocab = hf_wordpiece.train_vocab({"hug": 10, "pug": 5, "hugs": 5}, vocab_size=12, min_frequency=2).vocab
    assert vocab == ["[UNK]", "g", "h", "p", "s", "u", "##g", "##s", "##u", "##ug", "hug", "pug"]
    # `p ##ug` (3, 9) beat `##ug ##s` (9, 7) at 5 each; making `hug` had turned the latter into
    # `hug ##s`, which comes next
    assert hf_wordpiece.train_vocab({"hug": 10, "pug": 5, "hugs": 5}, vocab_size=13, min_frequency=2).vocab[-1] == "hugs"


def test_sizes_are_cut_from_one_run_and_equal_a_run_to_that_size(flores_lines, tmp_path):
    swept = hf_tokenizers.train_sizes(hf_tokenizers.WORDPIECE, flores_lines, "flores", [2000, 2500, 4000],
                                      TrainingCache(tmp_path / "a"))
    for size in (2500, 4000):
        alone = hf_tokenizers.train_sizes(hf_tokenizers.WORDPIECE, flores_lines, "flores", [size],
                                          TrainingCache(tmp_path / f"b{size}"))[size]
        assert alone.fingerprint == swept[size].fingerprint and swept[size].vocab_size == size
    # Below the alphabet (its characters, their ## forms, [UNK]): skipped, as HF's would be.
    assert isinstance(swept[2000], Skipped) and "(2304 entries: its characters" in swept[2000].reason
    assert 0 < swept[2500].train_seconds <= swept[4000].train_seconds  # the one run's time to each size


def test_the_same_corpus_gives_the_same_file_in_fresh_processes(tmp_path):
    # The check: two fresh `train` runs (other hash seeds, empty caches) write one file.
    digests = []
    for seed in ("1", "2"):
        out = tmp_path / seed
        done = subprocess.run(
            [sys.executable, "-m", "benchmark", "train", "--tokenizers", "hf/wordpiece-2048",
             "--languages", "eng,kor", "--max-sentences", "150", "--cache-dir", str(out / "cache"),
             "--save-dir", str(out / "save")],
            capture_output=True, text=True, timeout=120, cwd=tmp_path,
            env={**os.environ, "PYTHONPATH": str(REPO), "PYTHONHASHSEED": seed})
        assert done.returncode == 0, done.stderr
        assert "hf/wordpiece-2048" in done.stdout and " ok" in done.stdout
        digests.append(hashlib.sha256((out / "save" / "hf_wordpiece-2048.tokenizer.json").read_bytes()).hexdigest())
    assert digests[0] == digests[1]

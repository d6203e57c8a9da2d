"""The fast trainer against the naive reference (benchmark/bpe/reference.py), plus its stopping rules.

Every comparison runs both trainers on the same frequency table and asks for the identical merge
list and the identical final segmentation of every pre-token.
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from collections import Counter

import pytest
import regex
from hypothesis import given, settings
from hypothesis import strategies as st

from benchmark.bpe.patterns import PATTERNS
from benchmark.bpe.reference import merge, reference_encode, reference_train
from benchmark.bpe.train import _train, count_pretokens, train_merges
from tests.support.paths import FLORES, REPO

FLORES_DEV = FLORES / "dev"
CL100K = regex.compile(PATTERNS["cl100k"])
SIMPLE = regex.compile(PATTERNS["simple"])

# Corpora built to have ties (several pairs with the same count at some step) and runs of one
# byte, where counting every adjacent position and merging non-overlapping differ.
TIE_CORPORA = [
    ["ab ab cd cd"],
    ["aaaa aaa"],
    ["aaaaaaaaa aaaaa aaaaaaa", "aa"],
    ["abab abab ababab", "baba"],
    ["ba ab ba ab", "abc cba bca"],
    ["x\r\n\r\n  y  \n\tz", "1234567 89 0"],
]


def flores_lines(language: str, n_lines: int) -> list[str]:
    path = FLORES_DEV / f"{language}.dev"
    return path.read_text(encoding="utf-8").splitlines()[:n_lines]


def assert_same_as_reference(counts: dict[bytes, int], n_merges: int, min_frequency: int) -> list:
    expected_merges, expected_words = reference_train(counts, n_merges, min_frequency=min_frequency)
    merges, seconds_at, words = _train(
        counts, n_merges, min_frequency=min_frequency, progress=False, checkpoints=()
    )
    assert merges == expected_merges
    # The fast trainer drops one-byte pre-tokens (they hold no pair); all others must agree.
    assert words == {data: ids for data, ids in expected_words.items() if len(data) >= 2}
    assert train_merges(counts, n_merges, min_frequency=min_frequency)[0] == merges
    return merges


@pytest.mark.parametrize("texts", TIE_CORPORA)
@pytest.mark.parametrize("pattern", [CL100K, SIMPLE, None], ids=["cl100k", "simple", "none"])
@pytest.mark.parametrize("min_frequency", [1, 2])
def test_tie_corpora_match_reference(texts, pattern, min_frequency):
    counts = count_pretokens(texts, pattern)
    assert_same_as_reference(counts, 60, min_frequency)


def test_tie_rule_picks_smallest_pair():
    # Pre-tokens "ab", " ab", " cd", " cd": (a,b), (space,c) and (c,d) all count 2, (space,a) 1.
    # The smallest tuple of the tied pairs is (space, c) = (32, 99).
    counts = count_pretokens(["ab ab cd cd"], CL100K)
    merges, _ = train_merges(counts, 1)
    assert merges == [(ord(" "), ord("c"))]


def test_run_of_one_byte_counts_every_position_but_merges_non_overlapping():
    # "aaa" holds (a,a) twice, so with count 1 it reaches min_frequency=2; merging leaves "aa a".
    counts = {b"aaa": 1}
    merges, seconds_at, words = _train(
        counts, 5, min_frequency=2, progress=False, checkpoints=()
    )
    assert merges == [(97, 97)]
    assert words[b"aaa"] == [256, 97]


def test_mixed_scripts_flores_match_reference():
    texts = (
        flores_lines("eng_Latn", 25) + flores_lines("jpn_Jpan", 25) + flores_lines("rus_Cyrl", 25)
    )
    counts = count_pretokens(texts, CL100K)
    merges = assert_same_as_reference(counts, 300, 2)
    assert len(merges) == 300  # enough text that the run is not cut short by min_frequency


def test_long_pretokens_with_many_occurrences_match_reference():
    # A pair found more than four times in one pre-token takes the path that rewrites the word once
    # (in place, each occurrence would shift the rest of the word: quadratic on "a" * 1_000_000).
    counts = {
        ("ab" * 300 + "a" * 301 + "b").encode(): 1,
        ("ba" * 50 + "é" * 21 + "abab").encode(): 3,
        ("aab" * 40).encode(): 2,
    }
    merges = assert_same_as_reference(counts, 40, 2)
    assert merges[0] == (ord("a"), ord("b"))  # 300 times in the first pre-token alone


@settings(max_examples=150, deadline=None, database=None)
@given(
    texts=st.lists(st.text(alphabet="aab c\né", max_size=30), min_size=1, max_size=5),
    pattern=st.sampled_from([CL100K, SIMPLE, None]),
    n_merges=st.integers(min_value=0, max_value=40),
    min_frequency=st.integers(min_value=0, max_value=3),
)
def test_hypothesis_small_texts_match_reference(texts, pattern, n_merges, min_frequency):
    counts = count_pretokens(texts, pattern)
    assert_same_as_reference(counts, n_merges, min_frequency)


def test_reference_encoder_reproduces_training_segmentation():
    texts = flores_lines("spa_Latn", 20) + flores_lines("kor_Hang", 20)
    counts = count_pretokens(texts, CL100K)
    merges, _, words = _train(counts, 250, min_frequency=2, progress=False, checkpoints=())
    n_tokens_trained = 0
    n_tokens_encoded = 0
    for text in texts:
        ids = reference_encode(text, merges, CL100K)
        expected = []
        for piece in CL100K.findall(text):
            data = piece.encode("utf-8")
            expected.extend(words.get(data, list(data)))
        assert ids == expected
        n_tokens_trained += len(expected)
        n_tokens_encoded += len(ids)
        # Lossless: the ids spell the text's bytes back.
        token_bytes = [bytes([i]) for i in range(256)]
        for left, right in merges:
            token_bytes.append(token_bytes[left] + token_bytes[right])
        assert b"".join(token_bytes[i] for i in ids) == text.encode("utf-8")
    assert n_tokens_encoded == n_tokens_trained < sum(len(t.encode("utf-8")) for t in texts)


def test_reference_encode_without_pattern_is_one_pretoken():
    merges = [(97, 98), (256, 256)]
    assert reference_encode("abab ab", merges, None) == [257, 32, 256]
    assert merge([97, 97, 97], (97, 97), 256) == [256, 97]


def test_stops_at_n_merges_and_is_a_prefix():
    counts = count_pretokens(flores_lines("ces_Latn", 40), CL100K)
    long_merges, _ = train_merges(counts, 200)
    short_merges, seconds_at = train_merges(counts, 50)
    assert len(long_merges) == 200
    assert short_merges == long_merges[:50]
    assert set(seconds_at) == {50}
    no_merges, seconds_at = train_merges(counts, 0)
    assert no_merges == []
    assert set(seconds_at) == {0}


@pytest.mark.parametrize("min_frequency", [2, 5])
def test_stops_when_best_count_below_min_frequency(min_frequency):
    counts = count_pretokens(flores_lines("eng_Latn", 15), CL100K)
    merges, _, words = _train(
        counts, 100_000, min_frequency=min_frequency, progress=False, checkpoints=()
    )
    assert 0 < len(merges) < 100_000
    # After the last merge, no pair left is frequent enough (recounted from scratch).
    pair_counts: Counter[tuple[int, int]] = Counter()
    for data, ids in words.items():
        for pair in zip(ids, ids[1:]):
            pair_counts[pair] += counts[data]
    assert max(pair_counts.values(), default=0) < min_frequency
    # With a lower threshold the same run goes on: the stop was the threshold, not the corpus.
    assert len(train_merges(counts, 100_000, min_frequency=min_frequency - 1)[0]) > len(merges)


def test_order_of_the_frequency_table_does_not_matter():
    counts = count_pretokens(flores_lines("jpn_Jpan", 20) + flores_lines("eng_Latn", 20), CL100K)
    merges, _ = train_merges(counts, 150)
    items = list(counts.items())
    for seed in range(3):
        random.Random(seed).shuffle(items)
        assert train_merges(dict(items), 150)[0] == merges


def test_same_merges_under_different_hash_seeds():
    script = (
        "import json, regex, sys\n"
        "from benchmark.bpe.patterns import PATTERNS\n"
        "from benchmark.bpe.train import count_pretokens, train_merges\n"
        "texts = open(sys.argv[1], encoding='utf-8').read().splitlines()[:30]\n"
        "counts = count_pretokens(texts, regex.compile(PATTERNS['cl100k']))\n"
        "print(json.dumps(train_merges(counts, 200)[0]))\n"
    )
    outputs = []
    for seed in ("1", "2"):
        env = dict(os.environ, PYTHONHASHSEED=seed)
        env["PYTHONPATH"] = os.pathsep.join(
            [str(REPO), env.get("PYTHONPATH", "")]
        )
        result = subprocess.run(
            [sys.executable, "-c", script, str(FLORES_DEV / "rus_Cyrl.dev")],
            capture_output=True,
            text=True,
            env=env,
            check=True,
        )
        outputs.append(json.loads(result.stdout))
    assert outputs[0] == outputs[1]
    assert len(outputs[0]) == 200


@pytest.mark.parametrize("pattern", [CL100K, None], ids=["cl100k", "none"])
def test_lone_surrogate_names_text_and_position(pattern):
    texts = iter(["fine", "ab\ud800c"])
    with pytest.raises(ValueError, match=r"text 1 .*lone surrogate '\\ud800' at position 2"):
        count_pretokens(texts, pattern)


def test_count_pretokens_streams_and_counts_bytes():
    texts = ["the cat", "the  dog\n", "猫と犬"]
    counts = count_pretokens((text for text in texts), CL100K)  # a one-shot generator
    expected = Counter(
        piece.encode("utf-8") for text in texts for piece in CL100K.findall(text)
    )
    assert counts == dict(expected)
    assert count_pretokens(texts + ["the cat"], None) == {
        b"the cat": 2,
        b"the  dog\n": 1,
        "猫と犬".encode("utf-8"): 1,
    }
    assert count_pretokens(["", ""], CL100K) == {}


def test_checkpoints_and_progress():
    counts = count_pretokens(flores_lines("kor_Hang", 30), CL100K)
    merges, seconds_at = train_merges(counts, 120, checkpoints=[10, 60], progress=True)
    assert merges == train_merges(counts, 120)[0]
    assert set(seconds_at) == {10, 60, 120}
    assert 0 <= seconds_at[10] <= seconds_at[60] <= seconds_at[120]
    # A checkpoint past an early stop maps to the time training stopped.
    merges, seconds_at = train_merges(counts, 10_000_000, min_frequency=50, checkpoints=[9_999])
    assert len(merges) < 9_999
    assert seconds_at[9_999] == seconds_at[len(merges)]


# ------------------------------------------------------------------------- training from counts


def add_counts(shards: list[dict[bytes, int]]) -> dict[bytes, int]:
    total: dict[bytes, int] = {}
    for shard in shards:
        for data, n in shard.items():
            total[data] = total.get(data, 0) + n
    return total


def test_counts_added_from_shards_in_any_order_train_like_the_serial_count():
    texts = flores_lines("rus_Cyrl", 60) + flores_lines("kor_Hang", 60) + flores_lines("eng_Latn", 60)
    serial = count_pretokens(texts, CL100K)
    shards = [count_pretokens(texts[i::4], CL100K) for i in range(4)]  # as worker processes would
    forward, backward = add_counts(shards), add_counts(shards[::-1])
    assert forward == backward == serial
    assert list(forward) != list(backward)  # the same table, built in another order
    merges = train_merges(serial, 400)[0]
    assert len(merges) == 400
    assert train_merges(forward, 400)[0] == merges == train_merges(backward, 400)[0]


def test_weighted_counts_train_like_repeated_text():
    english, korean = flores_lines("eng_Latn", 30), flores_lines("kor_Hang", 30)
    weighted = add_counts([{data: 3 * n for data, n in count_pretokens(english, CL100K).items()},
                           count_pretokens(korean, CL100K)])
    repeated = count_pretokens(english * 3 + korean, CL100K)
    assert weighted == repeated
    assert train_merges(weighted, 200)[0] == train_merges(repeated, 200)[0]


def test_count_pretokens_takes_a_pattern_name_or_regex_text():
    texts = flores_lines("spa_Latn", 10)
    assert count_pretokens(texts, "cl100k") == count_pretokens(texts, CL100K)
    assert count_pretokens(texts, PATTERNS["simple"]) == count_pretokens(texts, SIMPLE)
    assert count_pretokens(["a b"], "none") == count_pretokens(["a b"], None) == {b"a b": 1}


@pytest.mark.parametrize(
    ("counts", "message"),
    [
        ({b"ab": 2.0}, r"the count of b'ab' is float 2\.0; counts are ints"),
        ({b"ab": 2.5}, r"float 2\.5; counts are ints .*scale the weights to integers"),
        ({b"ab": True}, r"the count of b'ab' is bool True"),
        ({b"ab": "2"}, r"the count of b'ab' is str '2'"),
        ({b"ab": 0}, r"the count of b'ab' is 0; counts are positive"),
        ({b"ab": -3}, r"the count of b'ab' is -3; counts are positive"),
        ({"ab": 2}, r"the pre-token 'ab' is a str, not bytes; encode it"),
        ([(b"ab", 2)], r"must map pre-token bytes to a count, got a list"),
    ],
)
def test_counts_that_are_not_positive_ints_are_refused_by_name(counts, message):
    with pytest.raises((TypeError, ValueError), match=message):
        train_merges(counts, 10)


def test_numpy_integer_counts_are_counts():
    numpy = pytest.importorskip("numpy")
    counts = count_pretokens(flores_lines("ces_Latn", 20), CL100K)
    as_numpy = {data: numpy.int64(n) for data, n in counts.items()}
    assert train_merges(as_numpy, 100)[0] == train_merges(counts, 100)[0]


def test_a_model_trained_from_counts_is_the_model_trained_from_the_texts():
    from benchmark.bpe import ByteLevelBPE

    texts = flores_lines("jpn_Jpan", 40) + flores_lines("spa_Latn", 40)
    counts = count_pretokens(texts, "gpt2")
    from_texts = ByteLevelBPE.train(texts, 600, pattern="gpt2", special_tokens=["<s>"])
    from_counts = ByteLevelBPE.train(pretoken_counts=counts, vocab_size=600, pattern="gpt2", special_tokens=["<s>"])
    assert from_counts.fingerprint == from_texts.fingerprint
    sweep = ByteLevelBPE.train_sweep(vocab_sizes=[400, 600], pretoken_counts=counts, pattern="gpt2",
                                     special_tokens=["<s>"])
    assert sweep[600][0].fingerprint == from_texts.fingerprint
    assert sweep[400][0].merges == from_texts.merges[:143]
    with pytest.raises(TypeError, match=r"give exactly one of texts or pretoken_counts="):
        ByteLevelBPE.train(texts, 600, pretoken_counts=counts)
    with pytest.raises(TypeError, match=r"give exactly one of texts or pretoken_counts="):
        ByteLevelBPE.train_sweep(vocab_sizes=[600])
    with pytest.raises(TypeError, match=r"the count of b'ab' is float 2\.0"):
        ByteLevelBPE.train(pretoken_counts={b"ab": 2.0}, vocab_size=300)


@settings(max_examples=200, deadline=None, database=None)
@given(st.lists(st.text(alphabet="aab", min_size=2, max_size=14), min_size=1, max_size=6),
       st.lists(st.integers(min_value=1, max_value=4), min_size=6, max_size=6))
def test_the_duplicate_bytes_guard_never_fires_on_runs_and_repeats(words, counts):
    # Runs of one letter and of two are where merges overlap and segmentations could differ.
    from benchmark.bpe.train import Tokens

    refused = []
    admits = Tokens.admits

    def counting(self, key):
        allowed = admits(self, key)
        if not allowed:
            refused.append(key)
        return allowed

    table = {word.encode(): n for word, n in zip(words, counts)}
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(Tokens, "admits", counting)
        train_merges(table, 60, min_frequency=1)
    assert refused == []

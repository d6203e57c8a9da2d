"""The trainer's state (benchmark/bpe/pairs.py) against a recount after every merge.

tests/test_bpe_train.py compares the merges with the naive reference; these tests look inside:
after every merge the words are what replaying the merges gives, the kept pair counts are a
recount of those words (every pair counted `keep` times or more, and no other), the index lists
every word holding a kept pair, and the queue has an entry for every pair that could win. Then the
limits of the str representation: ids in the surrogate range and past the last code point, counts
past int64, and the garbage collector left as it was found.
"""

from __future__ import annotations

import gc
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from benchmark.bpe import pairs
from benchmark.bpe.pairs import MAX_MERGES, Corpus, Tokens
from benchmark.bpe.parity import train_parity_merges
from benchmark.bpe.reference import merge, reference_train
from benchmark.bpe.train import count_pretokens, train_merges
from tests.support.paths import FLORES

FLORES_DEV = FLORES / "dev"


def flores_lines(language: str, n_lines: int) -> list[str]:
    return (FLORES_DEV / f"{language}.dev").read_text(encoding="utf-8").splitlines()[:n_lines]


@pytest.fixture(scope="module")
def mixed_counts() -> dict[bytes, int]:
    texts = flores_lines("eng_Latn", 10) + flores_lines("kor_Hang", 10) + flores_lines("jpn_Jpan", 10)
    return count_pretokens(texts + ["aaaa aaaaaaa abab ababab", "  \n\n\t  x"], "cl100k")


@pytest.fixture(params=["numpy", "words"])
def phase(request, monkeypatch) -> str:
    """Every merge in the numpy phase (flat.py), or every merge on the str words."""
    if request.param == "numpy":
        monkeypatch.setattr(pairs, "MIN_POSITIONS", 0)
    else:
        monkeypatch.setattr(pairs, "MIN_POSITIONS", 10**9)
        monkeypatch.setattr(pairs, "SMALL_IN_A_ROW", 1)
    return request.param


class AdmitAll:
    """Tokens' duplicate-bytes guard, for merges into ids of our choosing (it never fires: the
    tests of train.py check it)."""

    def admits(self, key: int) -> bool:
        return True


def assert_state(corpus: Corpus, expected_ids: dict[bytes, list[int]], counts: dict[bytes, int]) -> None:
    """The corpus's words, pair counts, index and queue, against the words replayed by reference.merge."""
    shift = corpus.shift
    assert corpus.final_ids() == {data: ids for data, ids in expected_ids.items() if len(data) >= 2}
    found: Counter[int] = Counter()
    holders: dict[int, set[bytes]] = {}
    for data, ids in expected_ids.items():
        for a, b in zip(ids, ids[1:]):
            found[a << shift | b] += counts[data]
            holders.setdefault(a << shift | b, set()).add(data)
    kept = {key: n for key, n in found.items() if n >= corpus.keep}
    assert corpus.pairs.pair_counts == kept  # every pair counted `keep` times or more, and no other
    for key in kept:
        indices = corpus.where[key]  # words, or positions (those of the first counts, or of the numpy phase)
        listed = indices if isinstance(indices, list) else corpus.owner[indices].tolist()
        assert holders[key] <= {corpus.word_bytes[i] for i in listed}
    queue = corpus.pairs
    filed: dict[int, int] = {}
    for count, keys in [*queue.buckets.items(), (queue.top, queue.top_keys)]:
        for key in keys:
            filed[key] = max(filed.get(key, 0), count)
    # every pair that could win is filed at its count or above, and none above the count served
    assert all(filed.get(key, 0) >= n for key, n in kept.items() if n >= queue.min_frequency)
    assert queue.top == 0 or max(filed.values(), default=0) <= queue.top
    assert sorted(-level for level in queue.levels) == sorted(queue.buckets)


def replay(corpus: Corpus, counts: dict[bytes, int], n_merges: int, new_ids=None, token_counts=None
           ) -> list[tuple[int, int]]:
    """Up to n_merges merges, the new ids from `new_ids` (default 256, 257, ...), checking the state
    and the tokens saved (weighed by `token_counts`, as the corpus was made, or by `counts`) after each."""
    new_ids = new_ids or range(256, 256 + n_merges)
    weights = counts if token_counts is None else token_counts
    expected = {data: list(data) for data in counts}
    merges = []
    for new_id in new_ids[:n_merges]:
        key = corpus.pairs.best(AdmitAll())
        if key < 0:
            break
        pair = (key >> corpus.shift, key & ((1 << corpus.shift) - 1))
        n_saved = corpus.merge(key, new_id)
        merges.append(pair)
        merged = {data: merge(ids, pair, new_id) for data, ids in expected.items()}
        assert n_saved == sum(weights.get(data, 0) * (len(ids) - len(merged[data])) for data, ids in expected.items())
        expected = merged
        assert_state(corpus, expected, counts)
    return merges


@pytest.mark.parametrize(("min_frequency", "keep_rare"), [(2, False), (3, True)], ids=["train", "parity"])
def test_the_state_is_a_recount_after_every_merge(mixed_counts, min_frequency, keep_rare, phase):
    # parity.py's corpora weigh the tokens saved by a parity text's counts (0 for a pre-token it lacks)
    token_counts = {data: len(data) % 3 for data in mixed_counts} if keep_rare else None
    corpus = Corpus(mixed_counts, Tokens(70).shift, min_frequency, token_counts, keep_rare=keep_rare)
    merges = replay(corpus, mixed_counts, 70, token_counts=token_counts)
    assert len(merges) == 70 and (corpus.flat is not None) == (phase == "numpy")
    assert merges == reference_train(mixed_counts, 70, min_frequency=min_frequency)[0]


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(texts=st.lists(st.text(alphabet="aab c\né", max_size=30), min_size=1, max_size=5),
       weights=st.lists(st.integers(min_value=1, max_value=3), min_size=5, max_size=5),
       min_frequency=st.integers(min_value=1, max_value=3), keep_rare=st.booleans())
def test_the_state_is_a_recount_on_random_tables(texts, weights, min_frequency, keep_rare, phase):
    counts = {data: n * weights[i % 5] for i, (data, n) in enumerate(count_pretokens(texts, "simple").items())}
    replay(Corpus(counts, Tokens(30).shift, min_frequency, keep_rare=keep_rare), counts, 30)


def test_ids_past_latin1_in_the_surrogates_and_past_the_bmp(mixed_counts, phase):
    # Ids are code points: 0xD800-0xDFFF are lone surrogates in a str, 0x10000 and up need 4 bytes.
    new_ids = [0x100, 0x1FF, 0xD7FF, 0xD800, 0xDBFF, 0xDC00, 0xDFFF, 0xE000, 0xFFFF, 0x10000, 0x10FFFE, 0x10FFFF]
    new_ids += list(range(0xD900, 0xD900 + 28))  # later merges join surrogates to each other
    corpus = Corpus(mixed_counts, 21, 2)
    merges = replay(corpus, mixed_counts, len(new_ids), new_ids)
    assert len(merges) == len(new_ids)
    assert max(max(ids) for ids in corpus.final_ids().values()) > 0xFFFF


def test_more_merges_than_ids_are_refused_before_any_merge():
    table = {b"ab" * 600_000: 1}  # 1,199,999 pair positions: enough for more merges than ids
    with pytest.raises(ValueError, match=r"at most 1,113,856 merges .*2,000,000 were asked for: ask for fewer"):
        train_merges(table, 2_000_000)
    with pytest.raises(ValueError, match=r"at most 1,113,856 merges"):
        train_parity_merges({"xx": table}, MAX_MERGES + 1)
    # As many as there are ids is fine, and so is any number the table cannot reach.
    assert MAX_MERGES == 1_113_856
    assert train_merges({b"abcd": 3}, 10**9)[0] == [(97, 98), (99, 100), (256, 257)]


def test_counts_past_int64_train_like_small_ones(mixed_counts):
    huge = {data: n << 70 for data, n in mixed_counts.items()}
    assert Corpus(huge, 14, 1).flat is None  # past int64, the merges run in Python from the start
    merges = train_merges(huge, 150, min_frequency=1)[0]
    assert merges == train_merges(mixed_counts, 150, min_frequency=1)[0]
    small = {data: n << 70 for data, n in count_pretokens(flores_lines("ces_Latn", 15), "cl100k").items()}
    assert train_merges(small, 60, min_frequency=2)[0] == reference_train(small, 60, min_frequency=2)[0]


@pytest.mark.parametrize("enabled", [True, False])
def test_the_collector_is_left_as_it_was_found(mixed_counts, enabled):
    (gc.enable if enabled else gc.disable)()
    try:
        train_merges(mixed_counts, 50)
        assert gc.isenabled() is enabled
        with pytest.raises(ValueError, match="at most"):
            train_merges({b"ab" * 600_000: 1}, 2_000_000)
        assert gc.isenabled() is enabled
    finally:
        gc.enable()

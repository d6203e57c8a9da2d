"""Parity-aware BPE: the fast trainer against the naive reference (benchmark/bpe/reference.py),
its tie rules on corpora made to force each one, its options, and what it does on FLORES-200.

Every comparison asks for the identical merge list and the identical language chosen for each
merge; the fast trainer's running token counts are checked against the encoder's.
"""

from __future__ import annotations


import pytest
import regex
from hypothesis import given, settings
from hypothesis import strategies as st

from benchmark.bpe import ByteLevelBPE
from benchmark.bpe.parity import _train_parity, train_parity_merges
from benchmark.bpe.patterns import PATTERNS
from benchmark.bpe.reference import reference_train_parity
from benchmark.bpe.train import Tokens, count_pretokens, train_merges
from tests.support.paths import FLORES

LANGUAGES = ["eng_Latn", "spa_Latn", "rus_Cyrl", "jpn_Jpan", "kor_Hang", "ces_Latn"]
CL100K = regex.compile(PATTERNS["cl100k"])
SIMPLE = regex.compile(PATTERNS["simple"])


def lines(language: str, split: str = "dev", n_lines: int | None = None) -> list[str]:
    path = FLORES / split / f"{language}.{split}"
    return path.read_text(encoding="utf-8").splitlines()[:n_lines]


def fast(counts, n_merges, *, parity=None, global_merges=0, min_frequency=2):
    merges, _, chosen, n_tokens = _train_parity(
        counts, n_merges, parity_counts_by_language=parity, global_merges=global_merges,
        min_frequency=min_frequency, progress=False, checkpoints=(),
    )
    return merges, chosen, n_tokens


def assert_same_as_reference(counts, n_merges, *, parity=None, global_merges=0, min_frequency=2):
    merges, chosen, _ = fast(counts, n_merges, parity=parity, global_merges=global_merges,
                             min_frequency=min_frequency)
    expected = reference_train_parity(counts, n_merges, parity_counts_by_language=parity,
                                      global_merges=global_merges, min_frequency=min_frequency)
    assert (merges, chosen) == expected
    return merges, chosen


# ------------------------------------------------------------------------- each tie rule, forced


def test_languages_with_as_many_tokens_go_in_name_order():
    # Both parity texts are 4 tokens: "a" sorts first, whatever the mapping's order.
    for counts in ({"b": {b"xy": 2}, "a": {b"pq": 2}}, {"a": {b"pq": 2}, "b": {b"xy": 2}}):
        merges, chosen = assert_same_as_reference(counts, 5, min_frequency=1)
        assert merges == [(ord("p"), ord("q")), (ord("x"), ord("y"))]
        assert chosen == ["a", "b"]


def test_pairs_with_the_same_count_in_the_worst_language_go_to_the_smallest_pair():
    # In "w" (8 tokens, the worst), (x, y) and (p, q) both count 2 and (q, x) 1; "v" has 2 tokens.
    counts = {"w": {b"xy": 2, b"pq": 2}, "v": {b"ab": 1}}
    merges, chosen = assert_same_as_reference(counts, 1, min_frequency=1)
    assert merges == [(ord("p"), ord("q"))] and chosen == ["w"]


def test_a_worst_language_with_no_frequent_pair_gives_way_to_the_next_worst():
    # "a" is the worst (8 tokens), but each of its pairs occurs once; "b" (4 tokens) has (x, y) twice.
    counts = {"a": {b"abcdefgh": 1}, "b": {b"xy": 2}}
    merges, chosen = assert_same_as_reference(counts, 10, min_frequency=2)
    assert merges == [(ord("x"), ord("y"))] and chosen == ["b"]  # then nobody has a pair: stop
    # Of three, the next-worst is taken by the same order: tokens, then name.
    counts = {"a": {b"abcdefgh": 1}, "c": {b"xyxy": 1}, "b": {b"pqpq": 1}}
    merges, chosen = assert_same_as_reference(counts, 10, min_frequency=2)
    assert chosen[0] == "b" and merges[0] == (ord("p"), ord("q"))


def test_the_worst_language_changes_as_its_text_is_merged():
    # "en" starts worst (25 tokens); after two merges it has 11 and "xx" (12) is the worst.
    counts = {"en": {b"low": 5, b"lower": 2}, "xx": {b"zzz": 3, b"zyz": 1}}
    merges, chosen, n_tokens = fast(counts, 3, min_frequency=1)
    assert chosen == ["en", "en", "xx"]
    assert merges[2] == (ord("z"), ord("z"))
    assert assert_same_as_reference(counts, 3, min_frequency=1) == (merges, chosen)


def test_no_merge_is_ever_refused_for_duplicate_bytes(monkeypatch):
    """The duplicate-bytes rule is a guard that never fires: a merge is applied to every word, so
    a span of text always splits the same way, and bytes can be made only once (docs/bpe.md)."""
    refused = []
    admits = Tokens.admits

    def counting(self, key):
        allowed = admits(self, key)
        if not allowed:
            refused.append(key)
        return allowed

    monkeypatch.setattr(Tokens, "admits", counting)
    counts = {language: count_pretokens(lines(language, n_lines=100), CL100K) for language in LANGUAGES}
    assert len(train_parity_merges(counts, 1500)[0]) == 1500
    everything = count_pretokens([text for language in LANGUAGES for text in lines(language, n_lines=100)], CL100K)
    assert len(train_merges(everything, 1500)[0]) == 1500
    assert refused == []


# ------------------------------------------------------------------------- options


def test_with_one_language_it_is_standard_bpe():
    counts = count_pretokens(lines("ces_Latn", n_lines=60), CL100K)
    assert train_parity_merges({"ces": counts}, 300)[0] == train_merges(counts, 300)[0]


def test_global_merges_are_standard_bpe_on_the_added_counts():
    counts = {language: count_pretokens(lines(language, n_lines=40), CL100K) for language in LANGUAGES[:3]}
    added: dict[bytes, int] = {}
    for table in counts.values():
        for data, n in table.items():
            added[data] = added.get(data, 0) + n
    standard = train_merges(added, 200)[0]
    merges, chosen, _ = fast(counts, 200, global_merges=200)
    assert merges == standard and chosen == [None] * 200
    # The hybrid: 50 global merges, then parity-aware ones.
    merges, chosen = assert_same_as_reference(counts, 80, global_merges=50)
    assert merges[:50] == standard[:50] and chosen[:50] == [None] * 50
    assert None not in chosen[50:] and merges[50:] != standard[50:80]


def test_a_separate_parity_text_decides_which_language_is_worst():
    # Trained on English ten times over, English is "worst" by its training text; by a parity
    # text of one copy each, xx is.
    counts = {"en": {b"ab": 10}, "xx": {b"cdcd": 2}}
    parity = {"en": {b"ab": 1}, "xx": {b"cdcd": 1}}
    assert fast(counts, 1, min_frequency=1)[1] == ["en"]
    merges, chosen = assert_same_as_reference(counts, 1, parity=parity, min_frequency=1)
    assert chosen == ["xx"] and merges == [(ord("c"), ord("d"))]


def test_the_running_token_counts_are_what_the_encoder_gives():
    train = {language: lines(language, n_lines=80) for language in LANGUAGES}
    parity = {language: lines(language, "devtest", n_lines=80) for language in LANGUAGES}
    counts = {language: count_pretokens(texts, CL100K) for language, texts in train.items()}
    for parity_texts in (train, parity):
        parity_counts = {language: count_pretokens(texts, CL100K) for language, texts in parity_texts.items()}
        merges, _, n_tokens = fast(counts, 700, parity=None if parity_texts is train else parity_counts)
        model = ByteLevelBPE(merges=merges)
        encoded = {language: sum(len(model.encode(text)) for text in texts) for language, texts in parity_texts.items()}
        assert n_tokens == encoded


@settings(max_examples=150, deadline=None, database=None)
@given(
    texts=st.dictionaries(st.sampled_from("abc"), st.lists(st.text(alphabet="aab c\né", max_size=25), max_size=4),
                          min_size=1, max_size=3),
    separate_parity=st.booleans(),
    pattern=st.sampled_from([CL100K, SIMPLE, None]),
    n_merges=st.integers(min_value=0, max_value=30),
    global_merges=st.integers(min_value=0, max_value=6),
    min_frequency=st.integers(min_value=0, max_value=3),
)
def test_random_corpora_match_the_reference(texts, separate_parity, pattern, n_merges, global_merges, min_frequency):
    counts = {language: count_pretokens(language_texts, pattern) for language, language_texts in texts.items()}
    # The parity text: the same lines in reverse order of languages (parallel in shape, other content).
    parity = None
    if separate_parity:
        names = sorted(texts)
        parity = {language: counts[other] for language, other in zip(names, reversed(names))}
    assert_same_as_reference(counts, n_merges, parity=parity, global_merges=global_merges,
                             min_frequency=min_frequency)


def test_flores_match_the_reference_with_and_without_a_parity_text():
    train = {language: count_pretokens(lines(language, n_lines=15), CL100K) for language in LANGUAGES[2:5]}
    parity = {language: count_pretokens(lines(language, "devtest", n_lines=10), CL100K) for language in train}
    merges, chosen = assert_same_as_reference(train, 150)
    assert len(merges) == 150 and len(set(chosen)) == 3
    assert assert_same_as_reference(train, 150, parity=parity, global_merges=20)[0] != merges


# ------------------------------------------------------------------------- what callers get wrong


@pytest.mark.parametrize(
    ("counts", "parity", "global_merges", "message"),
    [
        ({}, None, 0, r"pretoken_counts_by_language must map each language's name to its pre-token counts"),
        ({1: {b"ab": 1}}, None, 0, r"language names are str, got int 1"),
        ({"en": {b"ab": 1.5}}, None, 0, r"pretoken_counts_by_language\['en'\]: the count of b'ab' is float 1\.5"),
        ({"en": {b"ab": 1}}, {"fr": {b"ab": 1}}, 0, r"the parity text's languages \['fr'\] are not the training languages \['en'\]"),
        ({"en": {b"ab": 1}}, {"en": {b"ab": 0}}, 0, r"parity_counts_by_language\['en'\]: the count of b'ab' is 0"),
        ({"en": {b"ab": 1}}, None, -1, r"global_merges is a number of merges \(0 or more\), got -1"),
        ({"en": {b"ab": 1}}, None, True, r"global_merges is a number of merges \(0 or more\), got True"),
    ],
)
def test_bad_input_is_refused_by_name(counts, parity, global_merges, message):
    with pytest.raises((TypeError, ValueError), match=message):
        train_parity_merges(counts, 10, parity_counts_by_language=parity, global_merges=global_merges)


# ------------------------------------------------------------------------- the model


@pytest.fixture(scope="module")
def dev_by_language() -> dict[str, list[str]]:
    return {language: lines(language) for language in LANGUAGES}


def test_train_parity_from_texts_or_counts_and_its_sweep_is_a_prefix(dev_by_language, tmp_path):
    texts = {language: lines_[:60] for language, lines_ in dev_by_language.items()}
    counts = {language: count_pretokens(lines_, "cl100k") for language, lines_ in texts.items()}
    model = ByteLevelBPE.train_parity(texts, 700, global_merges=30, special_tokens=["<|endoftext|>"])
    assert model.vocab_size == 700 and model.special_tokens == {"<|endoftext|>": 699}
    from_counts = ByteLevelBPE.train_parity(pretoken_counts_by_language=counts, vocab_size=700, global_merges=30,
                                            special_tokens=["<|endoftext|>"])
    assert from_counts.fingerprint == model.fingerprint
    assert model.merges == train_parity_merges(counts, 443, global_merges=30)[0]
    sweep = ByteLevelBPE.train_parity_sweep(texts, [400, 700], global_merges=30, special_tokens=["<|endoftext|>"])
    assert sweep[700][0].fingerprint == model.fingerprint
    assert sweep[400][0].merges == ByteLevelBPE.train_parity(texts, 400, global_merges=30,
                                                             special_tokens=["<|endoftext|>"]).merges
    assert sweep[400][0].merges == model.merges[:143]
    assert 0 < sweep[400][1] <= sweep[700][1]
    # Everything else is today's model: round trips, files, tiktoken.
    text = lines("kor_Hang", "devtest", 1)[0] + " " + lines("rus_Cyrl", "devtest", 1)[0]
    assert model.decode(model.encode(text)) == text
    model.save(tmp_path / "parity.json")
    assert ByteLevelBPE.load(tmp_path / "parity.json").fingerprint == model.fingerprint
    assert model.to_tiktoken().encode_ordinary(text) == model.encode(text)


def test_a_separate_parity_text_is_given_as_texts_or_counts(dev_by_language):
    train = {language: lines_[:40] for language, lines_ in dev_by_language.items()}
    parity = {language: lines(language, "devtest", 40) for language in LANGUAGES}
    by_texts = ByteLevelBPE.train_parity(train, 500, parity_texts_by_language=parity)
    by_counts = ByteLevelBPE.train_parity(
        train, 500, parity_counts_by_language={language: count_pretokens(texts, "cl100k") for language, texts in parity.items()})
    assert by_texts.fingerprint == by_counts.fingerprint != ByteLevelBPE.train_parity(train, 500).fingerprint
    with pytest.raises(TypeError, match="give at most one of parity_texts_by_language= or parity_counts_by_language="):
        ByteLevelBPE.train_parity(train, 500, parity_texts_by_language=parity, parity_counts_by_language={})
    with pytest.raises(TypeError, match=r"texts_by_language\['eng_Latn'\] must be an iterable of str .* got a str"):
        ByteLevelBPE.train_parity({"eng_Latn": "one text"}, 500)
    with pytest.raises(TypeError, match="give exactly one of texts_by_language or pretoken_counts_by_language="):
        ByteLevelBPE.train_parity(vocab_size=500)


def test_parity_aware_training_evens_out_the_languages_token_counts(dev_by_language):
    """On the six dev files, the devtest token counts of the most and least costly languages are
    closer with parity-aware merges than with standard ones, and the worst language costs less."""
    standard = ByteLevelBPE.train([text for texts in dev_by_language.values() for text in texts], 1000)
    parity = ByteLevelBPE.train_parity(dev_by_language, 1000)
    devtest = {language: lines(language, "devtest") for language in LANGUAGES}
    spreads = []
    for model in (standard, parity):
        n_tokens = [sum(map(len, model.encode_batch(texts))) for texts in devtest.values()]
        spreads.append((max(n_tokens) / min(n_tokens), max(n_tokens)))
    (standard_spread, standard_worst), (parity_spread, parity_worst) = spreads
    assert parity_spread < standard_spread
    assert parity_worst < standard_worst


def test_weights_change_no_parity_aware_merge_when_the_parity_text_is_unweighted():
    """A weight multiplies every pair count of its language alike, so its best pair stays the
    same; the language chosen depends on the parity text alone. (Only the global phase and
    min_frequency see weights.)"""
    counts = {language: count_pretokens(lines(language, n_lines=50), CL100K) for language in LANGUAGES[:4]}
    weights = dict(zip(counts, (9, 1, 3, 7)))
    weighted = {language: {data: weights[language] * n for data, n in table.items()} for language, table in counts.items()}
    unweighted = train_parity_merges(counts, 300, min_frequency=1)[0]
    assert train_parity_merges(weighted, 300, parity_counts_by_language=counts, min_frequency=1)[0] == unweighted
    assert train_parity_merges(weighted, 300, min_frequency=1)[0] != unweighted  # weighted parity text: not parity

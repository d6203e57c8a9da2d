"""Whole characters first (benchmark/bpe/whole_chars.py): against the naive reference merge for
merge, its tie and budget rules, lossless encoding, and the model's files and exports."""

from __future__ import annotations


import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from benchmark.bpe import ByteLevelBPE, count_pretokens
from benchmark.bpe.reference import reference_train, reference_whole_character_merges
from benchmark.bpe.train import train_merges
from benchmark.bpe.whole_chars import character_counts, train_whole_character_merges, whole_character_merges
from tests.support.paths import FLORES


def lines(split: str, language: str, n: int) -> list[str]:
    return (FLORES / split / f"{language}.{split}").read_text(encoding="utf-8").splitlines()[:n]


@pytest.fixture(scope="module")
def small_counts() -> dict[bytes, int]:
    texts = lines("dev", "kor_Hang", 40) + lines("dev", "eng_Latn", 40) + lines("dev", "jpn_Jpan", 20)
    return count_pretokens(texts, "cl100k")


@pytest.mark.parametrize("scripts", [("Hangul",), ("Han", "Hiragana", "Katakana")])
@pytest.mark.parametrize("min_frequency", [1, 2])
def test_matches_the_reference_merge_for_merge(small_counts, scripts, min_frequency):
    first = reference_whole_character_merges(small_counts, scripts, min_frequency=min_frequency)
    assert first == whole_character_merges(small_counts, scripts, min_frequency=min_frequency)
    # A budget past the whole-character merges, so frequency merges follow them.
    n_merges = len(first) + 150
    expected, _ = reference_train(small_counts, n_merges, min_frequency=min_frequency, first_merges=first)
    merges, _ = train_whole_character_merges(small_counts, n_merges, scripts=scripts, min_frequency=min_frequency)
    assert merges == expected
    assert merges[:len(first)] == first and len(merges) == n_merges
    # The frequency merges differ from ordinary BPE's: the text they see is not the same.
    assert merges != train_merges(small_counts, n_merges, min_frequency=min_frequency)[0]


def test_every_frequent_syllable_is_one_token(small_counts):
    model = ByteLevelBPE.train(pretoken_counts=small_counts, vocab_size=256 + 2000, whole_characters=("Hangul",))
    syllables = character_counts(small_counts, ["Hangul"])
    for syllable, n in syllables.items():
        ids = model.encode(syllable)
        assert (len(ids) == 1) == (n >= 2), (syllable, n, ids)


def test_most_frequent_first_ties_to_the_smaller_code_point_and_prefixes_are_shared():
    # 가 (EA B0 80) and 각 (EA B0 81) share their first two bytes; 나 (EB 82 98) has its own.
    # Counts: 나 3, 가 2, 각 2 (a tie: 가 < 각), 다 1 (below min_frequency 2).
    counts = {"나나나".encode(): 1, "가각".encode(): 2, "다".encode(): 1, b"ab": 5}
    merges = whole_character_merges(counts, ["Hangul"])
    eb82, eab0 = 256, 258
    assert merges == [(0xEB, 0x82), (eb82, 0x98), (0xEA, 0xB0), (eab0, 0x80), (eab0, 0x81)]
    assert merges == reference_whole_character_merges(counts, ["Hangul"])
    # The budget cuts the list like any merge list, here between 나's two merges.
    assert train_whole_character_merges(counts, 1, scripts=["Hangul"])[0] == merges[:1]
    # Then frequency merges: (a, b) counts 5.
    assert train_whole_character_merges(counts, 6, scripts=["Hangul"])[0] == merges + [(97, 98)]


def test_a_sweep_cuts_one_run_at_every_size(small_counts):
    sweep = ByteLevelBPE.train_sweep(pretoken_counts=small_counts, vocab_sizes=[300, 1001, 1500],
                                     whole_characters=("Hangul",))
    for size, (model, _) in sweep.items():
        alone = ByteLevelBPE.train(pretoken_counts=small_counts, vocab_size=size, whole_characters=("Hangul",))
        assert alone.merges == model.merges and alone.fingerprint == model.fingerprint


def test_the_same_table_in_another_order_gives_the_same_merges(small_counts):
    reordered = dict(reversed(list(small_counts.items())))
    assert (train_whole_character_merges(reordered, 900, scripts=["Hangul"])[0]
            == train_whole_character_merges(small_counts, 900, scripts=["Hangul"])[0])


def test_unknown_scripts_and_a_bare_string_are_refused(small_counts):
    with pytest.raises(ValueError, match="unknown Unicode script 'Klingon'"):
        ByteLevelBPE.train(pretoken_counts=small_counts, vocab_size=300, whole_characters=("Klingon",))
    with pytest.raises(ValueError, match="not a Unicode script name"):
        ByteLevelBPE.train(pretoken_counts=small_counts, vocab_size=300, whole_characters=("Han}|.",))
    with pytest.raises(TypeError, match=r"wrap it in a tuple: \('Hangul',\)"):
        ByteLevelBPE.train(pretoken_counts=small_counts, vocab_size=300, whole_characters="Hangul")


@pytest.fixture(scope="module")
def hangul_first(small_counts) -> ByteLevelBPE:
    return ByteLevelBPE.train(pretoken_counts=small_counts, vocab_size=1200, whole_characters=("Hangul",),
                              special_tokens=["<|endoftext|>"])


@settings(max_examples=200, deadline=None, database=None)
@given(st.text(alphabet=st.sampled_from("가각나다한국어 abc\n。日本語é") | st.characters(), max_size=60))
def test_lossless_on_any_text(hangul_first, text):
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return  # a lone surrogate is not text (refused by the encoder, tested elsewhere)
    assert hangul_first.decode(hangul_first.encode(text)) == text


def test_model_file_and_exports_give_the_same_ids(hangul_first, tmp_path):
    from tokenizers import Tokenizer

    texts = lines("devtest", "kor_Hang", 30) + lines("devtest", "eng_Latn", 10)
    hangul_first.save(tmp_path / "model.json")
    loaded = ByteLevelBPE.load(tmp_path / "model.json")
    assert loaded.fingerprint == hangul_first.fingerprint
    encoding = hangul_first.to_tiktoken()
    hangul_first.save_hf(tmp_path / "tokenizer.json")
    hf = Tokenizer.from_file(str(tmp_path / "tokenizer.json"))
    for text in texts:
        ids = hangul_first.encode(text)
        assert loaded.encode(text) == ids
        assert encoding.encode_ordinary(text) == ids
        assert hf.encode(text, add_special_tokens=False).ids == ids

"""measure.py and timing.py: rows checked by hand, counting, the timing protocol, failures."""

from __future__ import annotations

from typing import Sequence

import pytest

from benchmark.adapters import Adapter, Skipped
from benchmark.measure.counting import Counts, build_row, choose_example_line, count_texts, skipped_row, time_language
from benchmark.measure.timing import measure_throughput


class WordAdapter(Adapter):
    """A tokenizer a person can run in their head: one token per space-separated word; words
    outside its small vocabulary are the unknown token 0."""

    def __init__(self, words: Sequence[str]) -> None:
        self.id = "test/words"
        self.family = "test"
        self.vocab = {"<unk>": 0, **{w: i + 1 for i, w in enumerate(words)}}
        self.inverse = {i: w for w, i in self.vocab.items()}
        self.vocab_size = len(self.vocab)
        self.fingerprint = "0" * 64
        self.settings = {}
        self.unk_id = 0
        self.train_seconds = 1.25

    def encode(self, text: str) -> list[int]:
        return [self.vocab.get(word, 0) for word in text.split(" ")]

    def decode(self, ids) -> str:
        return " ".join(self.inverse[i] for i in ids)

    def token_text(self, token_id: int) -> str:
        return self.inverse[token_id]

    def token_bytes(self, token_id: int) -> bytes | None:
        return None if token_id == 0 else self.inverse[token_id].encode("utf-8")

    def encode_with_spans(self, text: str):
        ids, starts, ends, position = self.encode(text), [], [], 0
        for word in text.split(" "):  # each token is its word: the spaces belong to none
            starts.append(position)
            ends.append(position + len(word.encode("utf-8")))
            position = ends[-1] + 1
        return ids, starts, ends


def measure_language(adapter: Adapter, texts: Sequence[str], warm_texts: Sequence[str], *, repeats: int,
                     yardstick: Adapter | None = None) -> tuple[Counts, object]:
    return count_texts(adapter, texts), time_language(adapter, texts, warm_texts, repeats=repeats, yardstick=yardstick)


def row_of(adapter: Adapter, language: str, texts: Sequence[str], measured, reference):
    (counts, timing), (reference_counts, _) = measured, reference
    return build_row(adapter, language, texts, counts, timing, reference_counts)


def test_a_row_checked_by_hand():
    adapter = WordAdapter(["the", "cat", "sat", "le", "chat", "s'est", "assis", "dog"])
    english = ["the cat", "the cat sat"]  # 2 + 3 = 5 tokens, 7 + 11 = 18 bytes
    french = ["le chat", "le chat s'est assis"]  # 2 + 4 = 6 tokens, 7 + 19 = 26 bytes
    reference = measure_language(adapter, english, english, repeats=1)
    m = measure_language(adapter, french, french, repeats=1)
    row = row_of(adapter, "fra", french, m, reference)
    assert (row.n_sentences, row.n_tokens, row.n_bytes, row.n_chars) == (2, 6, 26, 26)
    assert row.bytes_per_token == pytest.approx(26 / 6)
    assert row.tokens_per_sentence == 3.0
    assert row.premium == pytest.approx(6 / 5)
    # Per line: 2/2 and 4/3; any resample lies between those ratios.
    assert 1.0 <= row.premium_ci_low <= row.premium <= row.premium_ci_high <= 4 / 3
    assert row.unk_rate == 0.0 and row.byte_fallback_rate is None
    assert row.roundtrip_rate == 1.0
    # Ids used on French: le, chat, s'est, assis -> 4 of 9.
    assert row.vocab_utilisation == pytest.approx(4 / 9)
    assert row.train_seconds == 1.25 and row.embedding_params == 9 * 768
    assert row.throughput_mb_s > 0 and row.status == "ok"

    # Unknown words: "a" and "mat" are not in the vocabulary; decode gives <unk> back.
    m = measure_language(adapter, ["the cat sat on a mat"], [], repeats=1)
    row = row_of(adapter, "eng", ["the cat sat on a mat"], m, m)
    assert row.unk_rate == pytest.approx(3 / 6)  # on, a, mat
    assert row.roundtrip_rate == 0.0  # the one sentence comes back with <unk> in it
    # Measured against itself (the reference's own row): premium exactly 1, a zero-width interval.
    assert row.premium == 1.0 and row.premium_ci_low == row.premium_ci_high == 1.0

    # A model without an unknown token has no unk rate (None, like byte_fallback_rate), not 0.0.
    adapter.unk_id = None
    m = measure_language(adapter, english, english, repeats=1)
    no_unk = row_of(adapter, "eng", english, m, m)
    assert no_unk.unk_rate is None and no_unk.n_tokens == sum(len(adapter.encode(line)) for line in english)


def test_skipped_rows_keep_the_text_counts():
    row = skipped_row(Skipped("sentencepiece/unigram-1024", "sentencepiece-unigram", 1024, "too small"),
                      "jpn", ["猫", "犬だ"])
    assert row.status == "skipped: too small"
    assert (row.n_sentences, row.n_chars, row.n_bytes, row.n_tokens) == (2, 3, 9, 0)
    assert row.premium is None and row.throughput_mb_s is None


def test_an_unmeasured_row_has_no_figure_but_those_its_text_and_size_give():
    # Every column by its declaration: a formula over counts that were never made is None, even
    # one that would read the row's n_tokens of 0 as a count (tokens per sentence, fertility).
    import dataclasses

    from benchmark.results.rows import ResultRow

    row = skipped_row(Skipped("hf/bpe-1024", "hf-bpe", 1024, "too small"), "eng", ["a b", "c"], n_words=3)
    formulas = {f.name for f in dataclasses.fields(ResultRow) if "formula" in f.metadata}
    given = {name: getattr(row, name) for name in formulas if getattr(row, name) is not None}
    assert given == {"embedding_params": 1024 * 768}
    assert (row.n_words, row.n_tokens, row.tokens_per_sentence, row.fertility) == (3, 0, None, None)


def test_every_formula_reads_only_what_a_row_is_built_from():
    # A formula naming an argument build_row does not give would silently make its column None.
    import dataclasses

    from benchmark.measure.counting import _arguments
    from benchmark.results.rows import ResultRow

    adapter = WordAdapter(["the", "cat", "sat"])
    counts = count_texts(adapter, ["the cat", "sat"])
    row = build_row(adapter, "eng", ["the cat", "sat"], counts, None, counts, reference_texts=["the cat", "sat"],
                    compressed=(12, 12))
    for f in dataclasses.fields(ResultRow):
        if "formula" in f.metadata and f.name not in ("unk_rate", "byte_fallback_rate", "partial_char_rate",
                                                      "fertility", "whole_word_rate", "continued_word_rate"):
            assert getattr(row, f.name) is not None, (f.name, _arguments(f.metadata["formula"]))
    assert (row.premium, row.tokens_per_sentence, row.vocab_utilisation) == (1.0, 1.5, 0.75)  # 3 of 4 ids, <unk> unused
    assert (row.byte_premium, row.tokenizer_factor, row.information_floor, row.excess_premium) == (1.0,) * 4


def test_the_premium_decomposed_by_hand():
    # Two sentences: English "the cat" / "sat" (3 tokens, 10 bytes, 10 characters) against a
    # language whose text is twice the bytes ("le chat" / "assis", 12 bytes) and 4 tokens.
    english = ["the cat", "sat"]
    adapter = WordAdapter(["the", "cat", "sat", "le", "chat", "assis"])
    reference = count_texts(adapter, english)
    counts = count_texts(adapter, ["le chat", "assis le"])
    row = build_row(adapter, "fra", ["le chat", "assis le"], counts, None, reference, reference_texts=english,
                    compressed=(30, 20))
    assert row.premium == 4 / 3 and row.byte_premium == 15 / 10 and row.char_premium == 15 / 10
    # The reference's bytes per token over this language's: (10 / 3) / (15 / 4).
    assert row.tokenizer_factor == pytest.approx((10 / 3) / (15 / 4), rel=1e-15)
    assert row.premium == pytest.approx(row.byte_premium * row.tokenizer_factor, rel=1e-15)
    assert (row.n_compressed_bytes, row.information_floor) == (30, 1.5)
    assert row.excess_premium == pytest.approx((4 / 3) / 1.5, rel=1e-15)


def test_measure_throughput_protocol_with_a_fake_clock():
    calls: list[str] = []
    ticks = iter(range(100))

    def encode(text: str) -> list[int]:
        calls.append(text)
        return [1] * len(text)

    def reset() -> None:
        calls.append("<reset>")

    result = measure_throughput(encode, ["w"], ["ab", "c"], repeats=3, reset=reset, clock=lambda: next(ticks) ** 2)
    # Each repeat: reset, warm-up, then the timed texts.
    assert calls == ["<reset>", "w", "ab", "c"] * 3
    # Clock readings 0,1 | 4,9 | 16,25 -> repeats of 1, 5 and 9 seconds; median 5.
    assert result.repeat_seconds == (1, 5, 9) and result.median_seconds == 5
    assert (result.n_bytes, result.n_tokens) == (3, 3)
    assert result.throughput_mb_s == pytest.approx(3 / 5 / 1e6)
    assert result.tokens_per_second == pytest.approx(3 / 5)
    assert result.ids is None

    # Without a cache to reset, the warm-up happens once; keep_ids returns the last pass.
    calls.clear()
    result = measure_throughput(encode, ["w"], ["ab"], repeats=2, keep_ids=True)
    assert calls == ["w", "ab", "ab"]
    assert result.ids == ([1, 1],)
    with pytest.raises(ValueError):
        measure_throughput(encode, [], ["a"], repeats=0)
    # A clock that does not move: no throughput (None, as metrics.throughput_mb_s says), never 0 or inf.
    frozen = measure_throughput(encode, [], ["ab"], repeats=1, clock=lambda: 7.0)
    assert frozen.median_seconds == 0 and frozen.throughput_mb_s is None and frozen.tokens_per_second is None


def test_the_yardstick_is_timed_back_to_back_on_alternating_sides():
    calls: list[str] = []
    ticks = iter(range(100))

    def encode(text: str) -> list[int]:
        calls.append(f"encoder {text}")
        return [1]

    def yardstick(text: str) -> list[int]:
        calls.append(f"yardstick {text}")
        return [2]

    result = measure_throughput(encode, ["w"], ["ab"], repeats=3, reset=lambda: calls.append("<reset>"),
                                clock=lambda: next(ticks) ** 2, yardstick=yardstick)
    # After the warm-up: encoder then yardstick, yardstick then encoder, encoder then yardstick; the
    # yardstick encodes its turn's texts once untimed first (the turn before: here, the last).
    assert calls == ["<reset>", "encoder w", "encoder ab", "yardstick ab", "yardstick ab",
                     "<reset>", "encoder w", "yardstick ab", "yardstick ab", "encoder ab",
                     "<reset>", "encoder w", "encoder ab", "yardstick ab", "yardstick ab"]
    # Clock readings 0,1 | 4,9 | 16,25 | 36,49 | 64,81 | 100,121: passes of 1, 5, 9, 13, 17 and 21 s.
    assert result.repeat_seconds == (1, 13, 17) and result.yardstick_seconds == (5, 9, 21)
    # The median of each pair's ratio (5/1, 9/13, 21/17), not the ratio of the medians (9/13).
    assert result.x_yardstick == pytest.approx(21 / 17)
    assert measure_throughput(encode, [], ["ab"], repeats=1).x_yardstick is None


def test_encoder_and_yardstick_take_turns_chunk_by_chunk(monkeypatch):
    from benchmark.measure import timing

    monkeypatch.setattr(timing, "YARDSTICK_CHUNK_TEXTS", 2)
    calls: list[str] = []
    ticks = iter(range(100))
    texts = ["a", "b", "c", "d", "e"]
    result = measure_throughput(lambda t: calls.append(f"E{t}") or [1], [], texts, repeats=2,
                                clock=lambda: next(ticks) ** 2, yardstick=lambda t: calls.append(f"Y{t}") or [2],
                                keep_ids=True)
    # Turns of two texts; who starts alternates every turn, and the first turn's side every repeat.
    # Before each timed turn the yardstick encodes, untimed, the texts of the turn before (before
    # the first: the last turn's, "e"), so its short turns run on warm CPU caches.
    assert calls == ["Ea", "Eb", "Ye", "Ya", "Yb", "Ya", "Yb", "Yc", "Yd", "Ec", "Ed", "Ee", "Yc", "Yd", "Ye",
                     "Ye", "Ya", "Yb", "Ea", "Eb", "Ec", "Ed", "Ya", "Yb", "Yc", "Yd", "Yc", "Yd", "Ye", "Ee"]
    # Each side's seconds are the sum of its turns: turn k reads the clock at (2k)**2 and (2k+1)**2.
    turn = [(2 * k + 1) ** 2 - (2 * k) ** 2 for k in range(12)]
    assert result.repeat_seconds == (turn[0] + turn[3] + turn[4], turn[7] + turn[8] + turn[11])
    assert result.yardstick_seconds == (turn[1] + turn[2] + turn[5], turn[6] + turn[9] + turn[10])
    assert result.ids == ([1],) * 5  # every text of the last repeat, in order


def test_a_measured_row_carries_its_yardstick_ratio():
    adapter = WordAdapter(["the", "cat", "sat"])
    yardstick = WordAdapter(["the", "cat", "sat"])
    m = measure_language(adapter, ["the cat", "the cat sat"], [], repeats=3, yardstick=yardstick)
    row = row_of(adapter, "eng", ["the cat", "the cat sat"], m, m)
    assert row.throughput_x_tiktoken > 0
    alone = measure_language(adapter, ["the cat"], [], repeats=1)
    assert row_of(adapter, "eng", ["the cat"], alone, alone).throughput_x_tiktoken is None
    # A yardstick with a cache would be timed on text it has seen in the repeat before.
    yardstick.has_cache = True
    with pytest.raises(ValueError, match="cache"):
        measure_language(adapter, ["the cat"], [], repeats=1, yardstick=yardstick)


def test_our_bpe_repeats_see_the_timed_text_as_unseen(monkeypatch):
    """Every timed repeat must start from the warm-up cache, not from the previous repeat's."""
    from benchmark.adapters.inhouse import InhouseBPE
    from benchmark.bpe import ByteLevelBPE

    model = ByteLevelBPE.train(["low lower lowest newer wider"] * 5, vocab_size=270, pattern="gpt2")
    adapter = InhouseBPE(model, id="bpe/test")
    seen_sizes = []
    real_encode = adapter.encode

    def spying_encode(text: str) -> list[int]:
        if text == "timed words":
            seen_sizes.append("timed" in str(list(model._cache)))
        return real_encode(text)

    monkeypatch.setattr(adapter, "encode", spying_encode)
    count_texts(adapter, ["timed words"])  # counting first fills the cache with the measured text...
    time_language(adapter, ["timed words"], ["low lower"], repeats=3)
    assert seen_sizes == [False, False, False, False]  # ...which timing empties before every repeat


def test_example_line_is_the_shortest_long_enough_reference_line():
    assert choose_example_line(["short", "x" * 50, "y" * 45, "z" * 60]) == 2
    assert choose_example_line(["a", "b"]) == 0


def test_the_yardstick_is_not_charged_for_freeing_its_output():
    """Measured against itself, an encoder must come out at exactly 1x: here freeing an output costs
    100 ticks of the fake clock, which neither side may pay inside its timing."""
    now = [0]

    class Output(list):
        def __del__(self):
            now[0] += 100

    def encode(text: str) -> list[int]:
        now[0] += 1
        return Output([1])

    result = measure_throughput(encode, [], ["a"] * 300, repeats=3, clock=lambda: now[0], yardstick=encode)
    assert result.repeat_seconds == result.yardstick_seconds == (300, 300, 300)
    assert result.x_yardstick == 1.0


def test_word_figures_of_a_row_checked_by_hand():
    from benchmark.words.segmenters import segment_language

    adapter = WordAdapter(["the", "cat", "sat", "cat's", "mat"])
    texts = ["the cat sat", "the cat's mat ."]  # "." is a token (unknown) but no word
    words = segment_language("eng", texts)
    counts = count_texts(adapter, texts, words.spans)
    assert (counts.n_words, counts.n_words_whole, counts.n_words_continued) == (6, 6, 0)
    row = build_row(adapter, "eng", texts, counts, None, counts)
    assert row.n_words == 6 and row.fertility == pytest.approx(7 / 6)
    assert row.whole_word_rate == 1.0 and row.continued_word_rate == 0.0
    assert row.partial_char_rate is None  # no entry of this vocabulary is part of a character
    # Token counts per id: the distribution the Rényi efficiency is of (the: 2, cat: 1, ...).
    assert counts.token_counts.count_of(adapter.vocab["the"]) == 2 and sum(counts.token_counts.values()) == 7
    # Without word spans (a language without a segmenter) the word figures are blank.
    blank = build_row(adapter, "xyz", texts, count_texts(adapter, texts), None, None)
    assert blank.n_words is None and blank.fertility is None and blank.whole_word_rate is None
    # Per line, for the intervals: words and whole words.
    assert (counts.words_per_line, counts.whole_words_per_line) == ([3, 3], [3, 3])
    # Split into two slices and merged: the same counts.
    first, second = count_texts(adapter, texts[:1], words.spans[:1]), count_texts(adapter, texts[1:], words.spans[1:])
    assert first.merge(second) == counts


def test_a_byte_level_tokenizer_continues_words_and_counts_partial_characters():
    from benchmark.adapters import PRETRAINED
    from benchmark.words.segmenters import segment_language

    cl100k = PRETRAINED["tiktoken/cl100k_base"]()
    english = ["Once upon a time in Tokyo"]
    counts = count_texts(cl100k, english, segment_language("eng_Latn", english).spans)
    assert (counts.n_words, counts.n_words_whole, counts.n_words_continued) == (6, 6, 0)
    # 다람쥐 헌 쳇바퀴에: 다|<eb 9e>|<8c>|<ec>|<a5>|<90>|<20 ed>|<97>|<8c>|<20 ec>|<b3>|<87>|<eb b0>|<94>|
    # <ed>|<80>|<b4>|에, 18 tokens of which 16 are part of a character. 헌 is <20 ed>|<97>|<8c>: three
    # tokens, the first holding the space before it; every word is continued.
    korean = ["다람쥐 헌 쳇바퀴에"]
    counts = count_texts(cl100k, korean, segment_language("kor_Hang", korean).spans)
    assert (counts.n_words, counts.n_words_whole, counts.n_words_continued) == (3, 0, 3)
    assert (counts.tokens_per_line, counts.n_partial_char) == ([18], 16)


def test_a_failed_tokenizer_is_not_a_skipped_one():
    from benchmark.adapters import Failed, NotBuilt

    failed = Failed("hf/bpe-1024", "hf-bpe", 1024, "ValueError: boom")
    assert isinstance(failed, NotBuilt) and not isinstance(failed, Skipped)
    row = skipped_row(failed, "eng_Latn", ("a b",), n_words=2)
    assert row.failed and row.status == "failed: ValueError: boom" and row.n_words == 2


def enumerated_interval(numerators, denominators):
    """The exact 95% percentile interval of sum(numerators) / sum(denominators) when the lines are
    resampled with replacement: on two lines every one of the 4 resamples is equally likely, so
    the extremes (probability 1/4 each, above 2.5%) are its ends."""
    import itertools

    n = len(numerators)
    ratios = sorted(sum(numerators[i] for i in picks) / sum(denominators[i] for i in picks)
                    for picks in itertools.product(range(n), repeat=n))
    assert n == 2
    return ratios[0], ratios[-1]


def test_each_row_interval_is_the_exact_bootstrap_on_two_sentences():
    # 1,000 seeded resamples of two lines all fall on the 4 possible ones, each drawn far more
    # than 2.5% of the time, so the percentile interval is exactly the enumerated one's ends.
    from benchmark.measure.counting import row_intervals

    counts = Counts(tokens_per_line=[3, 8], n_words=5, n_words_whole=3, n_words_continued=2,
                    words_per_line=[2, 3], whole_words_per_line=[2, 1])
    reference = Counts(tokens_per_line=[2, 4])
    intervals = row_intervals([(counts, reference)])[0]
    assert intervals["premium"] == enumerated_interval([3, 8], [2, 4]) == (1.5, 2.0)
    assert intervals["fertility"] == enumerated_interval([3, 8], [2, 3]) == (1.5, 8 / 3)
    assert intervals["whole_word_rate"] == enumerated_interval([2, 1], [2, 3]) == (1 / 3, 1.0)
    # No words (no segmenter): no word intervals; no reference: no premium interval.
    assert row_intervals([(Counts(tokens_per_line=[3, 8]), None)]) == [{}]


def test_the_pairwise_interval_is_the_exact_bootstrap_on_two_sentences():
    from benchmark.measure.pairwise import pairwise_ratios

    class Named:
        def __init__(self, id):
            self.id = id

    counted = {"a": ({"eng": Counts(tokens_per_line=[3, 8])}, {}), "b": ({"eng": Counts(tokens_per_line=[2, 4])}, {}),
               "c": ({"eng": Counts(tokens_per_line=[1, 1])}, {"eng": "failed: boom"})}
    (entry,) = pairwise_ratios([Named("a"), Named("b"), Named("c")], ["eng"], counted)
    assert (entry.tokenizer, entry.other, entry.n_tokens, entry.other_n_tokens, entry.ratio) == ("a", "b", 11, 6, 11 / 6)
    assert (entry.ratio_ci_low, entry.ratio_ci_high) == enumerated_interval([3, 8], [2, 4])

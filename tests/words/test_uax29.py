"""Words by UAX #29 boundaries (benchmark.words.uax29), the segmenter of languages written with spaces.

It is checked against uniseg (a conforming implementation, in the test extra)
on awkward strings, on random text from the characters every rule is about, and on every line of
the bundled FLORES-200 devtest files.
"""

from __future__ import annotations


import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from benchmark.words import uax29 as words
from tests.support.paths import FLORES

DEVTEST = FLORES / "devtest"


def texts_of(text: str, spans) -> list[str]:
    return [text[a:b] for a, b in spans]


def uniseg_words(text: str) -> list[tuple[int, int]]:
    import regex
    from uniseg.wordbreak import word_boundaries

    bounds = list(word_boundaries(text))
    return [(a, b) for a, b in zip(bounds, bounds[1:]) if regex.search(r"[\p{L}\p{N}]", text[a:b])]


@pytest.mark.parametrize("text, expected", [
    ("Once upon a time in Tokyo", ["Once", "upon", "a", "time", "in", "Tokyo"]),
    ("It's 3.14, isn't it? e-mail U.S. 1,000.50", ["It's", "3.14", "isn't", "it", "e", "mail", "U.S", "1,000.50"]),
    ("'Ah', l'amour", ["Ah", "l'amour"]),  # a leading quote is not part of the word (regex's \b keeps it)
    ("naïve cafe\u0301 déjà", ["naïve", "cafe\u0301", "déjà"]),  # a combining mark stays on its letter
    ("\u0301abc", ["abc"]),  # a mark at the start is not glued onto the word after it
    ("ଏଫ୍.କେନେଡିଙ୍କ", ["ଏଫ୍.କେନେଡିଙ୍କ"]),  # a mark before "." does not block WB6/WB7
    ("한국어 문장입니다. 4개월", ["한국어", "문장입니다", "4개월"]),
    ("Привет, мир! Т.е. пример.", ["Привет", "мир", "Т.е", "пример"]),
    ("👍🏽 ok 🇯🇵x a_b", ["ok", "x", "a_b"]),  # emoji are not words; "_" joins (WB13a)
    ("カタカナ漢字", ["カタカナ", "漢", "字"]),  # Han is left to dictionaries: one character each
])
def test_uax29_words_on_awkward_text(text, expected):
    assert texts_of(text, words.word_spans(text)) == expected
    assert words.word_spans(text) == uniseg_words(text)


def test_segments_cover_the_text_and_an_emoji_zwj_sequence_is_one_segment():
    text = "a 👨\u200d👩\u200d👧 b\r\nc  d"
    spans = words.segments(text)
    assert "".join(texts_of(text, spans)) == text  # nothing dropped, nothing twice
    assert "👨\u200d👩\u200d👧" in texts_of(text, spans)  # WB3c
    assert "\r\n" in texts_of(text, spans) and "  " in texts_of(text, spans)  # WB3, WB3d


# The characters the rules are about: letters, Hebrew, digits, Katakana, the mid characters, quotes,
# "_", marks, ZWJ, an emoji, regional indicators, spaces, newlines, Han, punctuation.
ALPHABET = list("aZéשא1٣カー.,:;'\"_-’\u0301\u200d\u200b😀🇯🇵 \u3000\n\r漢!") + ["\u00ad"]


@settings(max_examples=400, deadline=None)
@given(st.text(alphabet=ALPHABET, max_size=24))
def test_uax29_agrees_with_uniseg_on_random_text(text):
    assert words.word_spans(text) == uniseg_words(text)


@pytest.mark.slow
def test_uax29_agrees_with_uniseg_on_every_devtest_line():
    for path in sorted(DEVTEST.glob("*.devtest")):
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
            assert words.word_spans(line) == uniseg_words(line), f"{path.name} line {number}"

"""The segmenter each language gets (benchmark.words.segmenters): UAX #29 (test_uax29.py) for
languages written with spaces, a dictionary segmenter (the segmenters extra) for those written
without, else a note; word spans as UTF-8 byte offsets, and each language segmented once.
"""

from __future__ import annotations

import pytest

from benchmark.words import segmenters
from benchmark.words import uax29 as words


def texts_of(text: str, spans) -> list[str]:
    return [text[a:b] for a, b in spans]


def test_each_language_gets_its_segmenter_or_a_note():
    english = segmenters.choose_segmenter("eng_Latn", ["Once upon a time."])
    japanese = segmenters.choose_segmenter("jpn_Jpan", ["東京都に住んでいる。"])
    assert english.name == words.UAX29_NAME and english.version.startswith("regex ")
    assert japanese.name.startswith("fugashi + unidic-lite") and "unidic-lite 1.0.8" in japanese.version
    assert segmenters.choose_segmenter("ja", ["東京"]).name == japanese.name  # a two-letter code
    # A language in a script without spaces and no segmenter: a note, never whitespace words.
    note = segmenters.choose_segmenter("bod_Tibt", ["བོད་ཀྱི་སྐད་ཡིག་ནི་"])
    assert isinstance(note, str) and "Tibetan script" in note and "no word segmenter" in note
    unknown = segmenters.choose_segmenter("xyz", ["我们现在有没有糖尿病的老鼠。"])
    assert isinstance(unknown, str) and "Han script" in unknown
    # Mostly Latin with a few Han characters is a spaced language.
    assert segmenters.choose_segmenter("xyz", ["Tokyo (東京) is big, very big indeed."]).name == words.UAX29_NAME


def test_japanese_words_are_mecab_morphemes_with_their_offsets():
    text = "東京 タワーは ｶﾀｶﾅ、ＡＢＣを含む。  Ring社 cafe\u0301"
    split = segmenters.choose_segmenter("jpn_Jpan", [text]).split
    found = texts_of(text, split(text))
    assert found[:4] == ["東京", "タワー", "は", "ｶﾀｶﾅ"]
    assert "、" not in found and "。" not in found  # punctuation is not a word
    assert "Ring" in found and "社" in found
    assert found[-1] == "cafe\u0301"  # MeCab splits the mark off; it stays on its letter
    # The same dictionary whatever else is installed: unidic-lite, named on the command line.
    assert segmenters._japanese() is segmenters._japanese()


def test_word_spans_become_utf8_byte_offsets():
    text = "日本 go é"
    spans = words.word_spans(text)
    flat = segmenters.byte_spans(text, spans)
    data = text.encode("utf-8")
    assert [data[flat[k]:flat[k + 1]].decode() for k in range(0, len(flat), 2)] == texts_of(text, spans)
    assert list(segmenters.byte_spans("a bc", [(0, 1), (2, 4)])) == [0, 1, 2, 4]


def test_a_language_is_segmented_once_with_its_record_entry():
    lines = ("Once upon a time.", "It's 3.14!")
    english = segmenters.segment_language("eng_Latn", lines)
    assert english.n_words == 6 and len(english.spans) == 2 and english.note is None
    tibetan = segmenters.segment_language("bod_Tibt", ("བོད་ཀྱི་སྐད་ཡིག་ནི་",))
    assert tibetan.spans is None and tibetan.n_words is None and tibetan.segmenter == "none"
    from benchmark.measure.describe import word_settings

    settings_ = word_settings({"eng_Latn": english, "bod_Tibt": tibetan})
    assert settings_.segmenters["bod_Tibt"].note == tibetan.note and settings_.segmenters["eng_Latn"].version


@pytest.mark.parametrize("code, text, some_words", [
    ("zho_Hans", "我们现在有四个月大的老鼠。", ["我们", "现在", "老鼠"]),
    ("tha_Thai", "ตอนนี้เรามีหนูอายุ 4 เดือน", ["เรา", "หนู", "4", "เดือน"]),
    ("lao_Laoo", "ດຽວນີ້ ພວກເຮົາ ມີ ໜູ 1/2 ໂຕ", ["ພວກເຮົາ", "ໜູ", "1", "2"]),  # laonlp drops "/"
    ("khm_Khmr", "យើង\u200bមាន\u200bកណ្ដុរ ៤ ខែ", ["យើង", "មាន", "កណ្ដុរ"]),
    ("mya_Mymr", "ကျွန်တော် ထမင်း စားတယ်။", ["ထမင်း"]),
])
def test_the_segmenters_extra_finds_words_in_their_text(code, text, some_words, tmp_path, monkeypatch):
    monkeypatch.setenv("HOME", str(tmp_path))  # nothing may be written there (pythainlp's data folder)
    segmenter = segmenters.choose_segmenter(code, [text])
    assert not isinstance(segmenter, str), segmenter
    spans = segmenter.split(text)
    found = texts_of(text, spans)
    assert set(some_words) <= set(found), found
    assert all(a < b for a, b in spans) and spans == sorted(spans)
    assert all(w.strip() == w and "\u200b" not in (w[0], w[-1]) for w in found)  # no space at either end
    assert segmenter.split(text) == spans  # deterministic
    assert list(tmp_path.iterdir()) == []


def test_a_missing_segmenter_is_a_note_naming_the_extra(monkeypatch):
    def missing():
        raise ImportError("No module named 'jieba'")

    monkeypatch.setitem(segmenters.DICTIONARY_SEGMENTERS, "zho", (missing, ("jieba",)))
    note = segmenters.choose_segmenter("zho_Hans", ["我们现在有四个月大的老鼠。"])
    assert note == ("no word figures: zho_Hans needs jieba to find its words "
                    "(pip install 'tokencost-benchmark[segmenters]')")


def test_words_are_found_in_order_where_a_segmenter_changes_the_text():
    from benchmark.words.segmenters_extra import spans_in_order, spans_of_pieces

    assert spans_in_order("a/b a", ["a", "b", "a"]) == [(0, 1), (2, 3), (4, 5)]
    assert spans_in_order("abc", ["x", "bc"]) == [(1, 3)]  # a piece not in the text is left out
    assert spans_of_pieces("ab cd", ["ab", " ", "cd"]) == [(0, 2), (2, 3), (3, 5)]


def test_a_segmenter_that_raises_costs_its_language_the_word_figures_only(monkeypatch):
    def broken(text):
        if "boom" in text:
            raise RuntimeError("cannot segment\nsecond line")
        return words.word_spans(text)

    monkeypatch.setattr(segmenters, "_uax29", lambda: segmenters.Segmenter("broken", "0", broken))
    found = segmenters.segment_language("eng_Latn", ("fine", "boom here"))
    assert found.spans is None and found.n_words is None and found.segmenter == "broken"
    assert found.note == "no word figures: the segmenter raised on line 2 (RuntimeError: cannot segment)"


def test_languages_segmented_in_slices_on_workers_equal_one_pass_each():
    from benchmark.corpora import load_flores
    from benchmark.measure.executors import make_executor

    corpus = load_flores(languages=["eng_Latn", "jpn_Jpan", "kor_Hang"])
    texts = {code: corpus.lines("devtest", code)[:300] for code in corpus.languages}
    whole = {code: segmenters.segment_language(code, lines) for code, lines in texts.items()}
    tasks = segmenters.segment_tasks(texts, task_lines=64)
    assert len(tasks) == 3 * 5 and {t.start for t in tasks} == {0, 64, 128, 192, 256}
    with make_executor("processes", workers=2) as executor:
        sliced = segmenters.merge_segments(tasks, executor.map(segmenters.run_segment_task, tasks))
    assert sliced == whole
    assert segmenters.segment_languages(texts) == whole  # in this process, default slices


def test_a_slice_that_raises_names_the_line_of_the_language(monkeypatch):
    lines = tuple(f"line {k}" for k in range(10))
    sample = segmenters.chooser_sample(lines)
    first = segmenters.SegmentTask("eng_Latn", 0, sample, lines[:6])
    second = segmenters.SegmentTask("eng_Latn", 6, sample, lines[6:])

    def split(text):  # a segmenter with a bug on one sentence
        if text == "line 7":
            raise RuntimeError("boom")
        return words.word_spans(text)

    monkeypatch.setattr(segmenters, "choose_segmenter", lambda code, texts: segmenters.Segmenter("buggy", "1", split))
    good, bad = segmenters.run_segment_task(first), segmenters.run_segment_task(second)
    assert good.spans is not None and bad.spans is None
    assert bad.note == "no word figures: the segmenter raised on line 8 (RuntimeError: boom)"
    merged = segmenters.merge_segments([first, second], [good, bad])
    assert merged["eng_Latn"] == bad

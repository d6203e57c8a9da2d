"""Which word segmenter each language gets, and its words as UTF-8 byte spans of each sentence.

- Languages written with spaces between words: UAX #29 word boundaries (benchmark.words.uax29).
- Japanese: MeCab through fugashi with the UniDic-lite dictionary (UniDic short units), a core
  dependency. The dictionary is named on the command line, so an installed full `unidic`
  package cannot silently take its place.
- Chinese (jieba), Thai (pythainlp), Lao (laonlp), Khmer (khmercut), Burmese (burmesenlp):
  dictionary segmenters from the `segmenters` extra (`pip install 'tokencost-benchmark[segmenters]'`,
  benchmark.words.segmenters_extra); without it those languages' word figures are blank, with a note.
- Any other language whose letters are mostly in a script written without spaces (Tibetan, a
  missing extra's script, ...) gets no segmenter: its word figures are blank and the record says
  why. Splitting such text at spaces would count phrases as words.

A word is a segment with at least one letter or number: spaces and punctuation are not words,
whoever segments. Every language is segmented once per run (`segment_languages`), and the spans
travel with the counting tasks, so no tokenizer segments anything.
"""

from __future__ import annotations

from array import array
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Callable, Sequence

from benchmark.plumbing.pinned import installed_version
from benchmark.words import uax29 as words

# Scripts that write no space between words: UAX #29 gives a character or a phrase there, not a word.
UNSPACED_SCRIPTS = ("Han", "Hiragana", "Katakana", "Thai", "Lao", "Khmer", "Myanmar", "Tibetan", "Tai_Tham",
                    "Tai_Le", "New_Tai_Lue", "Tai_Viet", "Javanese", "Balinese", "Yi")
SEGMENTERS_EXTRA = "pip install 'tokencost-benchmark[segmenters]'"


@dataclass(frozen=True)
class Segmenter:
    """A word segmenter: `split(text)` -> the words' (start, end) character offsets, in order."""

    name: str  # what it is, for the record: "fugashi + unidic-lite (MeCab, UniDic short units)"
    version: str  # the packages' versions, e.g. "fugashi 1.5.2, unidic-lite 1.0.8"
    split: Callable[[str], list[tuple[int, int]]]


@dataclass(frozen=True)
class LanguageWords:
    """One language's words for a run: who segmented it, and each sentence's word spans as a flat
    array of UTF-8 byte offsets (start, end, start, end, ...), or why there are none."""

    segmenter: str  # Segmenter.name, or "none"
    version: str | None
    note: str | None  # why there is no segmenter (blank word figures), or a caveat about it
    spans: tuple[array, ...] | None  # per sentence; None: no segmenter, no word figures

    @property
    def n_words(self) -> int | None:
        return None if self.spans is None else sum(len(flat) for flat in self.spans) // 2


WORD = "a UAX #29 word segment, or a dictionary segmenter's word, that holds a letter or a number ([\\p{L}\\p{N}])"
ALIGNMENT = ("a token belongs to a word when their UTF-8 byte spans overlap; a word is whole when exactly one "
             "token overlaps it (that token may also hold a space or part of another word), continued when two "
             "or more do; fertility is every token of the text over its words")


def _version(*distributions: str) -> str:
    return ", ".join(f"{name} {installed_version(name)}" for name in distributions)


@lru_cache(maxsize=1)
def _japanese() -> Segmenter:
    import fugashi
    import unidic_lite

    dicdir = unidic_lite.DICDIR
    tagger = fugashi.Tagger(f'-d "{dicdir}" -r "{dicdir}/mecabrc"')
    _, word, _ = words._patterns()
    import regex

    marks_only = regex.compile(r"[\p{M}\p{Word_Break=Extend}\p{Word_Break=ZWJ}\p{Word_Break=Format}]+")

    def split(text: str) -> list[tuple[int, int]]:
        spans: list[tuple[int, int]] = []
        position = 0
        for node in tagger(text):
            position += len(node.white_space)
            surface = node.surface
            end = position + len(surface)
            if text[position:end] != surface:  # MeCab gives surfaces verbatim; refuse to guess
                raise ValueError(f"fugashi: morpheme {surface!r} is not at character {position} of {text[:40]!r}")
            if spans and spans[-1][1] == position and marks_only.fullmatch(surface):
                spans[-1] = (spans[-1][0], end)  # a combining mark MeCab split off stays on its letter
            else:
                spans.append((position, end))
            position = end
        return [(a, b) for a, b in spans if word.search(text, a, b)]

    return Segmenter("fugashi + unidic-lite (MeCab, UniDic short units)", _version("fugashi", "unidic-lite"), split)


@lru_cache(maxsize=1)
def _uax29() -> Segmenter:
    return Segmenter(words.UAX29_NAME, _version("regex"), words.word_spans)


def _extra(part: str) -> Callable[[], Segmenter]:
    """The `segmenters` extra's segmenter of a language (benchmark.words.segmenters_extra), its words
    those with a letter or a number."""

    @lru_cache(maxsize=1)
    def factory() -> Segmenter:
        from benchmark.words import segmenters_extra

        name, distributions, split = segmenters_extra.FACTORIES[part]()
        _, word, _ = words._patterns()

        def words_of(text: str) -> list[tuple[int, int]]:
            return [_trimmed(text, a, b) for a, b in split(text) if word.search(text, a, b)]

        return Segmenter(name, _version(*distributions), words_of)

    return factory


def _trimmed(text: str, start: int, end: int) -> tuple[int, int]:
    """The span without spaces or format characters at its ends (khmercut keeps the zero-width
    spaces Khmer text puts between words on the word after them)."""
    while start < end and (text[start].isspace() or text[start] in _INVISIBLE):
        start += 1
    while end > start and (text[end - 1].isspace() or text[end - 1] in _INVISIBLE):
        end -= 1
    return start, end


_INVISIBLE = frozenset("\u200b\u200c\u200d\u2060\ufeff")


# language part of the code -> (the segmenter's factory, the distributions it needs)
DICTIONARY_SEGMENTERS: dict[str, tuple[Callable[[], Segmenter], tuple[str, ...]]] = {
    "jpn": (_japanese, ("fugashi", "unidic-lite")),
    "zho": (_extra("zho"), ("jieba",)),
    "tha": (_extra("tha"), ("pythainlp",)),
    "lao": (_extra("lao"), ("laonlp",)),
    "khm": (_extra("khm"), ("khmercut",)),
    "mya": (_extra("mya"), ("burmesenlp",)),
}


def dominant_unspaced_script(texts: Sequence[str], *, sample_chars: int = 20_000) -> str | None:
    """The script written without spaces that most of the letters of `texts` are in (from the
    first `sample_chars` characters), or None when most letters are in spaced scripts."""
    import regex

    joined = "".join(chooser_sample(texts, sample_chars=sample_chars))
    n_letters = len(regex.findall(r"\p{L}", joined))
    counts = {script: len(regex.findall(rf"\p{{Script={script}}}", joined)) for script in UNSPACED_SCRIPTS}
    script, n_unspaced = max(counts.items(), key=lambda item: item[1])
    if n_letters == 0 or sum(counts.values()) * 2 <= n_letters:
        return None
    return script if n_unspaced else None


def choose_segmenter(code: str, texts: Sequence[str]) -> Segmenter | str:
    """The segmenter of language `code` (a FLORES code such as "jpn_Jpan", or "ja"), or the note
    that says why it has none."""
    from benchmark.corpora import ISO_639_1

    part = code.split("_")[0].lower()
    part = ISO_639_1.get(part, part)
    if part in DICTIONARY_SEGMENTERS:
        factory, distributions = DICTIONARY_SEGMENTERS[part]
        try:
            return factory()
        except ImportError:
            return (f"no word figures: {code} needs {' and '.join(distributions)} to find its words "
                    f"({SEGMENTERS_EXTRA})")
    script = dominant_unspaced_script(texts)
    if script is not None:
        return (f"no word figures: {code} is mostly {script.replace('_', ' ')} script, written without spaces "
                "between words, and this suite has no word segmenter for it")
    return _uax29()


def byte_spans(text: str, spans: Sequence[tuple[int, int]]) -> array:
    """Character spans of `text` (in order) as a flat array of UTF-8 byte offsets
    [start, end, start, end, ...].

    >>> list(byte_spans("日本 go", [(0, 2), (3, 5)]))
    [0, 6, 7, 9]
    """
    if text.isascii():
        return array("i", [offset for span in spans for offset in span])
    flat = array("i")
    char = byte = 0
    for start, end in spans:
        byte += len(text[char:start].encode("utf-8"))
        flat.append(byte)
        byte += len(text[start:end].encode("utf-8"))
        flat.append(byte)
        char = end
    return flat


def segment_language(code: str, texts: Sequence[str]) -> LanguageWords:
    """Every sentence of one language, segmented once (`choose_segmenter`)."""
    return run_segment_task(SegmentTask(code, 0, chooser_sample(texts), tuple(texts)))


# Lines per segmenting task: a web-scale language is cut into slices the workers share.
SEGMENT_TASK_LINES = 2_000


@dataclass(frozen=True)
class SegmentTask:
    """One slice of a language's sentences to segment, from line `start` (0-based); `sample` is
    the language's first sentences, from which every slice's worker chooses the same segmenter."""

    code: str
    start: int
    sample: tuple[str, ...]
    texts: tuple[str, ...]


def chooser_sample(texts: Sequence[str], *, sample_chars: int = 20_000) -> tuple[str, ...]:
    """The first sentences that `dominant_unspaced_script` reads (at least `sample_chars` characters)."""
    sample, size = [], 0
    for text in texts:
        sample.append(text)
        size += len(text)
        if size >= sample_chars:
            break
    return tuple(sample)


def run_segment_task(task: SegmentTask) -> LanguageWords:
    """One slice's word spans (a worker's task), or why there are none; line numbers count from
    the start of the language, not of the slice."""
    chosen = choose_segmenter(task.code, task.sample)
    if isinstance(chosen, str):
        return LanguageWords(segmenter="none", version=None, note=chosen, spans=None)
    spans = []
    for number, text in enumerate(task.texts, start=task.start + 1):
        try:
            spans.append(byte_spans(text, chosen.split(text)))
        except Exception as exc:  # a segmenter's bug costs this language its word figures, not the run
            from benchmark.plumbing.errors import one_line

            return LanguageWords(segmenter=chosen.name, version=chosen.version, spans=None,
                                 note=f"no word figures: the segmenter raised on line {number} ({one_line(exc)})")
    return LanguageWords(segmenter=chosen.name, version=chosen.version, note=None, spans=tuple(spans))


def segment_tasks(texts_by_language: dict[str, Sequence[str]],
                  task_lines: int = SEGMENT_TASK_LINES) -> list[SegmentTask]:
    tasks = []
    for code, texts in texts_by_language.items():
        sample = chooser_sample(texts)
        for start in range(0, max(len(texts), 1), task_lines):
            tasks.append(SegmentTask(code, start, sample, tuple(texts[start:start + task_lines])))
    return tasks


def merge_segments(tasks: Sequence[SegmentTask], results: Sequence[LanguageWords]) -> dict[str, LanguageWords]:
    """The slices' results put back together per language, in order: the first slice without
    spans (no segmenter, or one that raised) speaks for the whole language."""
    merged: dict[str, LanguageWords] = {}
    for task, words_of_slice in zip(tasks, results):
        so_far = merged.get(task.code)
        if so_far is None:
            merged[task.code] = words_of_slice
        elif so_far.spans is not None:
            merged[task.code] = (words_of_slice if words_of_slice.spans is None else
                                 replace(so_far, spans=so_far.spans + words_of_slice.spans))
    return merged


def segment_languages(texts_by_language: dict[str, Sequence[str]], executor=None) -> dict[str, LanguageWords]:
    """Every language's words, in slices on `executor` (benchmark.measure.executors; None: here, in order)."""
    tasks = segment_tasks(texts_by_language)
    results = executor.map(run_segment_task, tasks) if executor is not None else [run_segment_task(t) for t in tasks]
    return merge_segments(tasks, results)

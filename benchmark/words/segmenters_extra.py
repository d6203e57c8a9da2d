"""The dictionary segmenters of the `segmenters` extra: Chinese, Thai, Lao, Khmer, Burmese.

Each is imported only when a run measures its language, works offline, and writes nothing
(pythainlp is told `PYTHAINLP_READ_ONLY`, jieba builds its prefix dictionary in memory instead of
caching it in the temporary folder). Each factory returns (name, distributions, split), where
split(text) gives the words' character offsets; benchmark.words.segmenters wraps them.

Where a library returns words but not where they are, they are found in the text in order
(`spans_in_order`); laonlp drops "/" and burmesenlp normalises some text, and a word that is not
in the text as written is left out (the Burmese figures count the words found).
"""

from __future__ import annotations

import os
from typing import Callable, Iterable

Split = Callable[[str], list[tuple[int, int]]]


def spans_in_order(text: str, pieces: Iterable[str]) -> list[tuple[int, int]]:
    """Where each piece (stripped of spaces) is in `text`, searching on from the last one found;
    a piece not in the text is left out.

    >>> spans_in_order("ab cd", ["ab", " ", "cd", "x"])
    [(0, 2), (3, 5)]
    """
    spans, position = [], 0
    for piece in pieces:
        piece = piece.strip()
        if not piece:
            continue
        start = text.find(piece, position)
        if start < 0:
            continue
        spans.append((start, start + len(piece)))
        position = start + len(piece)
    return spans


def spans_of_pieces(text: str, pieces: Iterable[str]) -> list[tuple[int, int]]:
    """Offsets of pieces that concatenate to `text` (checked: otherwise `spans_in_order`)."""
    pieces = list(pieces)
    if "".join(pieces) != text:
        return spans_in_order(text, pieces)
    spans, position = [], 0
    for piece in pieces:
        spans.append((position, position + len(piece)))
        position += len(piece)
    return spans


def chinese() -> tuple[str, tuple[str, ...], Split]:
    import logging

    import jieba

    jieba.setLogLevel(logging.WARNING)
    tokenizer = jieba.Tokenizer()
    # What initialize() does, without reading or writing its cache file in the temporary folder.
    tokenizer.FREQ, tokenizer.total = tokenizer.gen_pfdict(tokenizer.get_dict_file())
    tokenizer.initialized = True

    def split(text: str) -> list[tuple[int, int]]:
        return [(start, end) for _, start, end in tokenizer.tokenize(text)]

    return "jieba (default dictionary, accurate mode)", ("jieba",), split


def thai() -> tuple[str, tuple[str, ...], Split]:
    os.environ.setdefault("PYTHAINLP_READ_ONLY", "1")  # else it makes ~/pythainlp-data
    from pythainlp.tokenize import word_tokenize

    def split(text: str) -> list[tuple[int, int]]:
        return spans_of_pieces(text, word_tokenize(text, engine="newmm", keep_whitespace=True))

    return "pythainlp newmm (maximal matching, its default dictionary)", ("pythainlp",), split


def lao() -> tuple[str, tuple[str, ...], Split]:
    os.environ.setdefault("PYTHAINLP_READ_ONLY", "1")  # laonlp imports pythainlp
    from laonlp.tokenize import word_tokenize

    def split(text: str) -> list[tuple[int, int]]:
        return spans_in_order(text, word_tokenize(text))

    return "laonlp word_tokenize (dictionary maximal matching)", ("laonlp",), split


def khmer() -> tuple[str, tuple[str, ...], Split]:
    from khmercut import tokenize

    def split(text: str) -> list[tuple[int, int]]:
        return spans_of_pieces(text, tokenize(text))

    return "khmercut (CRF)", ("khmercut",), split


def burmese() -> tuple[str, tuple[str, ...], Split]:
    from burmesenlp.lexicon import Lexicon
    from burmesenlp.normalize import normalize
    from burmesenlp.tokenize.longest import WordSegmenter
    from burmesenlp.tokenize.syllable import tokenize as syllables

    segmenter = WordSegmenter(Lexicon.default())  # its word_tokenize() builds this on every call

    def split(text: str) -> list[tuple[int, int]]:
        # warn_zawgyi off: its heuristic would log for some FLORES lines, which are Unicode Burmese
        pieces = segmenter.segment(syllables(normalize(text, warn_zawgyi=False)))
        return spans_in_order(text, (token.text for token in pieces))

    return "burmesenlp (syllables, then longest match in its lexicon)", ("burmesenlp",), split


# language part of the code -> factory
FACTORIES: dict[str, Callable[[], tuple[str, tuple[str, ...], Split]]] = {
    "zho": chinese, "tha": thai, "lao": lao, "khm": khmer, "mya": burmese,
}

"""Words of a sentence, where spaces separate them: Unicode's default word boundaries (UAX #29).

`word_spans(text)` gives the (start, end) character offsets of the words of `text`: the segments
between UAX #29 word boundaries that hold at least one letter or number, so spaces and
punctuation are not words and "can't", "3.14", "U.S" and "e-mail"'s parts are what the standard
says they are.

The boundaries are the rules WB1-WB999 of UAX #29 (Unicode 16, the tables of the pinned `regex`),
written as one regular expression over the Word_Break property: a word run is letters and digits
that join directly (WB5, WB8-WB10), across one MidLetter/MidNum character between two of the same
kind (WB6-WB7, WB11-WB12), or through ExtendNumLet (WB13a-b); Katakana joins Katakana (WB13);
Extend, Format and ZWJ ride on the character before them (WB4). `regex`'s own `(?w)\\b` is not
this: it fails 257 of the 1,823 WordBreakTest cases (a leading apostrophe stays on the next word,
a mark before "." or "'" blocks a join). Tested against uniseg, a conforming implementation.

What UAX #29 leaves to dictionaries is not done here: Han, Hiragana, Thai, Lao, Khmer, Myanmar
characters are one segment each. Languages written in those scripts get a dictionary segmenter
(benchmark.words.segmenters) or no word figures at all, never these.
"""

from __future__ import annotations

from functools import lru_cache

UAX29_NAME = "UAX #29 word boundaries (benchmark.words.uax29, Unicode tables of regex)"


def _wb(*values: str) -> str:
    """A character class of these Word_Break values, to put inside [...]."""
    return "".join(rf"\p{{Word_Break={value}}}" for value in values)


@lru_cache(maxsize=None)
def _patterns():
    import regex

    ignored = f"[{_wb('Extend', 'Format', 'ZWJ')}]*"  # WB4: rides on the character before
    ah, hl, nu = f"[{_wb('ALetter', 'Hebrew_Letter')}]", f"[{_wb('Hebrew_Letter')}]", f"[{_wb('Numeric')}]"
    mid_letter = f"[{_wb('MidLetter', 'MidNumLet', 'Single_Quote')}]"
    mid_num = f"[{_wb('MidNum', 'MidNumLet', 'Single_Quote')}]"
    letter_or_digit = (
        f"(?:{hl}{ignored}(?:{_q('Double_Quote')}{ignored}(?={hl})|{mid_letter}{ignored}(?={ah}))?"  # WB7b-c
        f"|{ah}{ignored}(?:{mid_letter}{ignored}(?={ah}))?"  # WB6-7
        f"|{nu}{ignored}(?:{mid_num}{ignored}(?={nu}))?)"  # WB11-12
    )
    letters, katakana = f"(?:{letter_or_digit})+", f"(?:{_q('Katakana')}{ignored})+"
    glue = f"(?:{_q('ExtendNumLet')}{ignored})+"  # WB13a-b: joins letters, digits, Katakana, itself
    block = f"(?:{letters}|{katakana})"
    # subtle: Hebrew_Letter x Single_Quote (WB7a) holds whatever follows, but nothing joins the
    # quote to what follows but a letter (WB7, taken above): here the quote ends the run
    run = f"(?:{glue}{block}?|{block})(?:{glue}{block}?)*(?:(?<={hl}{ignored}){_q('Single_Quote')}{ignored})?"
    segment = regex.compile(
        r"\r\n|[\r\n\p{Word_Break=Newline}]"  # WB3-3b: no Extend rides on a line break
        f"|{_q('WSegSpace')}+{ignored}"  # WB3d
        f"|(?:{_q('Regional_Indicator')}{ignored}){{1,2}}"  # WB15-16: flags, two by two
        f"|{run}"
        f"|(?s:.){ignored}",  # WB999
        regex.VERSION1,
    )
    return segment, regex.compile(r"[\p{L}\p{N}]"), regex.compile(r"\p{Extended_Pictographic}")


def _q(value: str) -> str:
    return f"[{_wb(value)}]"


def segments(text: str) -> list[tuple[int, int]]:
    """Every UAX #29 word segment of `text` (words, spaces, punctuation), as character offsets."""
    segment, _, pictographic = _patterns()
    spans: list[tuple[int, int]] = []
    for match in segment.finditer(text):
        start, end = match.span()
        # WB3c: ZWJ x Extended_Pictographic, whatever came before the ZWJ (an emoji ZWJ sequence)
        if spans and text[start - 1] == "\u200d" and pictographic.match(text, start):
            spans[-1] = (spans[-1][0], end)
        else:
            spans.append((start, end))
    return spans


def word_spans(text: str) -> list[tuple[int, int]]:
    """The words of `text` (segments with a letter or a number), as character offsets.

    >>> text = "It's 3.14, isn't it?"
    >>> [text[a:b] for a, b in word_spans(text)]
    ["It's", '3.14', "isn't", 'it']
    """
    _, word, _ = _patterns()
    return [(a, b) for a, b in segments(text) if word.search(text, a, b)]

"""Language codes: their parts, their scripts, and the one rule that turns what a user typed into a
corpus's code.

A FLORES-200 code is `<ISO 639-3 language>_<ISO 15924 script>` (`hin_Deva`, `zho_Hant`); a user's
corpus may use any code (`eng`, `ru`, `pt-BR`). This module reads no file: the names of the bundled
languages are in `flores.py`.
"""

from __future__ import annotations

import difflib
from typing import Callable, Sequence

from benchmark.plumbing.errors import BenchmarkError

# Two-letter (ISO 639-1) codes -> their three-letter language part, so that a user's `ru.txt`
# finds FLORES's `rus_Cyrl` to train and warm up on, and `--languages ja` finds `jpn_Jpan`.
ISO_639_1 = {"en": "eng", "es": "spa", "ru": "rus", "ja": "jpn", "ko": "kor", "cs": "ces", "de": "deu",
             "fr": "fra", "zh": "zho", "hi": "hin", "ar": "arb"}

# Codes tried, in order, when the user does not name the premium's reference language.
ENGLISH_CODES = ("eng_Latn", "eng", "en")

# English names of the ISO 15924 scripts of FLORES-200 (Unicode's property value aliases, in short).
SCRIPT_NAMES = {
    "Arab": "Arabic", "Armn": "Armenian", "Beng": "Bengali", "Cyrl": "Cyrillic", "Deva": "Devanagari",
    "Ethi": "Ethiopic", "Geor": "Georgian", "Grek": "Greek", "Gujr": "Gujarati", "Guru": "Gurmukhi",
    "Hang": "Hangul", "Hans": "Han (Simplified)", "Hant": "Han (Traditional)", "Hebr": "Hebrew",
    "Jpan": "Japanese (Han, Hiragana, Katakana)", "Khmr": "Khmer", "Knda": "Kannada", "Laoo": "Lao",
    "Latn": "Latin", "Mlym": "Malayalam", "Mymr": "Myanmar", "Olck": "Ol Chiki", "Orya": "Odia",
    "Sinh": "Sinhala", "Taml": "Tamil", "Telu": "Telugu", "Tfng": "Tifinagh", "Thai": "Thai",
    "Tibt": "Tibetan",
}

# Scripts written right to left (Unicode's bidirectional class R or AL): the two of FLORES-200,
# and the other living ones a user's code may carry. Derived from the script, not from FLORES's
# right_to_left.txt, which leaves out ydd_Hebr (Yiddish, written in Hebrew script).
RIGHT_TO_LEFT_SCRIPTS = frozenset({"Arab", "Hebr", "Syrc", "Thaa", "Nkoo", "Adlm", "Mand", "Samr", "Rohg"})

# Past this many languages an error names close matches and `list` instead of every code.
_MAX_LISTED = 12


def english_code(codes: Sequence[str]) -> str | None:
    """The first of `codes` that is an English code (ENGLISH_CODES in that order, any case); two
    that differ only in case (en and EN) are an error, as either could be meant."""
    for english in ENGLISH_CODES:
        found = [code for code in codes if code.lower() == english.lower()]
        if len(found) > 1:
            raise BenchmarkError(
                f"{' and '.join(found)} are both English ({english}); pick the premium's reference with --reference CODE"
            )
        if found:
            return found[0]
    return None


def language_part(code: str) -> str:
    """The language a code names, lower case, two-letter codes as their three-letter part:
    'zho_Hant' -> 'zho', 'RU' -> 'rus', 'pt-BR' -> 'pt-br'."""
    part = code.split("_")[0].lower()
    return ISO_639_1.get(part, part)


def script_of(code: str) -> str | None:
    """The ISO 15924 script of a FLORES-style code ('hin_Deva' -> 'Deva'); None without one."""
    _, _, script = code.partition("_")
    return script if len(script) == 4 and script.isascii() and script.isalpha() else None


def one_per_script(codes: Sequence[str], limit: int, *, first: Sequence[str] = (),
                   script: Callable[[str], str | None] | None = None) -> list[str]:
    """Up to `limit` of `codes` in their order: `first`, then the first code of each script not yet
    chosen, then the next codes (a sample of many languages that covers their scripts).
    `script` gives a code's script (default script_of; a code without one counts as its own)."""
    script = script or script_of
    chosen = [code for code in first if code in codes][:limit]
    scripts = {script(code) for code in chosen}
    for code in codes:
        own = script(code)
        if len(chosen) < limit and code not in chosen and (own is None or own not in scripts):
            chosen.append(code)
            scripts.add(own)
    chosen += [code for code in codes if code not in chosen][: limit - len(chosen)]
    return [code for code in codes if code in chosen]


def script_name(code: str) -> str:
    """'hin_Deva' -> 'Devanagari'; a script not in the table is its code; no script, ''."""
    script = script_of(code)
    return SCRIPT_NAMES.get(script, script) if script else ""


def is_right_to_left(code: str) -> bool:
    """Whether the code's script is written right to left: 'ydd_Hebr' -> True."""
    return script_of(code) in RIGHT_TO_LEFT_SCRIPTS


def resolve_code(code: str, available: Sequence[str], *, where: str,
                 name_of: Callable[[str], str] = str, what: str = "language code") -> str:
    """The one code of `available` that `code` means: itself, itself in another case (`HIN_DEVA`),
    or, for a code without a script, the one variety of that language (`hin`, `HIN` and `hi` ->
    `hin_Deva`). A language in several scripts is refused with its choices (`zho`: `zho_Hans`,
    `zho_Hant`), an unknown code with the closest ones; `where` starts the message, `what` names
    the code in it.

    >>> resolve_code("HIN", ["eng_Latn", "hin_Deva"], where="corpus")
    'hin_Deva'
    """
    if code in available:
        return code
    same_case = [other for other in available if other.lower() == code.lower()]
    if len(same_case) == 1:
        return same_case[0]
    # A script given is a choice made: eng_Latf is not eng_Latn.
    candidates = [] if "_" in code else [other for other in available if language_part(other) == language_part(code)]
    if len(candidates) == 1:
        return candidates[0]
    if candidates:
        choices = ", ".join(f"{other} ({name_of(other)})" if name_of(other) != other else other
                            for other in candidates)
        raise BenchmarkError(f"{where}: {what} {code!r} is ambiguous, it is one of {choices}; "
                             f"name the one you mean, e.g. {candidates[0]}")
    raise BenchmarkError(f"{where}: unknown {what} {code!r}; {choices_hint(code, available)}")


def resolve_codes(codes: Sequence[str], available: Sequence[str], *, where: str,
                  name_of: Callable[[str], str] = str) -> tuple[str, ...]:
    """`resolve_code` of each, in order, each code once; `all` (any case) is every available code."""
    every = any(code.lower() == "all" for code in codes)
    # Beside `all`, the other codes must still be codes of the corpus: `all,xx` is a typo, not all.
    resolved = [resolve_code(code, available, where=where, name_of=name_of) for code in codes
                if code.lower() != "all"]
    if every:
        return tuple(available)
    if not resolved:
        raise BenchmarkError(f"{where}: no language selected; {choices_hint('', available)}")
    return tuple(dict.fromkeys(resolved))


def choices_hint(code: str, available: Sequence[str]) -> str:
    """What an error about `code` suggests: every code of a small corpus, the closest of a big one."""
    if len(available) <= _MAX_LISTED:
        return f"this corpus has {', '.join(available)}"
    # The same language in another script first (hin_Latn -> hin_Deva), then the nearest spellings.
    same = [other for other in available if code and language_part(other) == language_part(code)]
    by_lower = {other.lower(): other for other in available}
    near = [by_lower[lower] for lower in difflib.get_close_matches(code.lower(), list(by_lower), n=3, cutoff=0.6)]
    close = list(dict.fromkeys(same + near))[:4]
    guess = f"closest: {', '.join(close)}; " if close else ""
    return (f"{guess}this corpus has {len(available)} languages (`python -m benchmark list [--corpus DIR]` "
            "names them, `--languages all` takes them all)")


def resolve_code_or_name(text: str, available: Sequence[str], names: dict[str, str], *, where: str) -> str:
    """`resolve_code`, or else a language's English name in any case: 'Hindi' -> 'hin_Deva'. A name
    that is a word of several ('Chinese': Chinese (Simplified), Chinese (Traditional)) is refused with them.

    >>> resolve_code_or_name("hindi", ["eng_Latn", "hin_Deva"], {"hin_Deva": "Hindi"}, where="results")
    'hin_Deva'
    """
    wanted = text.strip()
    try:
        return resolve_code(wanted, available, where=where, name_of=lambda code: names.get(code, code))
    except BenchmarkError as not_a_code:
        lower = wanted.lower()
        exact = [code for code in available if names.get(code, "").lower() == lower]
        if len(exact) == 1:
            return exact[0]
        # A whole word of the name: 'Chinese' is in 'Yue Chinese' and 'Chinese (Simplified)'.
        words = [code for code in available if lower in names.get(code, "").lower().replace("(", " ").split()]
        if len(words) == 1:
            return words[0]
        if words:
            choices = ", ".join(f"{names[code]} ({code})" for code in words[:8]) + (", ..." if len(words) > 8 else "")
            raise BenchmarkError(f"{where}: {wanted!r} is in the names of {len(words)} languages: {choices}; give "
                                 "one of their codes") from None
        raise not_a_code from None

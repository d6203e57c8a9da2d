"""Pre-tokenization patterns: where merges may never cross.

A pattern splits text into pre-tokens (words, runs of digits, runs of spaces...); BPE merges happen
only inside one pre-token. The named patterns are the published ones, character for character, so
that an encoder loaded with OpenAI's ranks gives OpenAI's ids. They need the `regex` package for the
Unicode classes (`\\p{L}`) and the possessive quantifiers (`++`).

What this module adds: the named patterns, the checks on a custom one, and the form each runs in.
What it leaves out: what happens inside a pre-token (train.py, encode.py).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

import regex

# GPT-2 (r50k/p50k): tiktoken's faster equivalent of the original release's pattern.
GPT2_PATTERN = r"""'(?:[sdmt]|ll|ve|re)| ?\p{L}++| ?\p{N}++| ?[^\s\p{L}\p{N}]++|\s++$|\s+(?!\S)|\s"""

# GPT-4 (cl100k_base).
CL100K_PATTERN = (
    r"""'(?i:[sdmt]|ll|ve|re)|[^\r\n\p{L}\p{N}]?+\p{L}++|\p{N}{1,3}+| ?[^\s\p{L}\p{N}]++[\r\n]*+"""
    r"""|\s++$|\s*[\r\n]|\s+(?!\S)|\s"""
)

# GPT-4o (o200k_base): case-aware words, contractions glued to the word.
O200K_PATTERN = "|".join(
    [
        r"""[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+(?i:'s|'t|'re|'ve|'m|'ll|'d)?""",
        r"""[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*(?i:'s|'t|'re|'ve|'m|'ll|'d)?""",
        r"""\p{N}{1,3}""",
        r""" ?[^\s\p{L}\p{N}]+[\r\n/]*""",
        r"""\s*[\r\n]+""",
        r"""\s+(?!\S)""",
        r"""\s+""",
    ]
)

# Runs of spaces, of word characters, or single punctuation marks.
SIMPLE_PATTERN = r"""\s+|\w+|[^\w\s]"""

# name -> pattern text; "none" means no split at all (the whole text is one pre-token).
PATTERNS: dict[str, str | None] = {
    "gpt2": GPT2_PATTERN,
    "cl100k": CL100K_PATTERN,
    "o200k": O200K_PATTERN,
    "simple": SIMPLE_PATTERN,
    "none": None,
}


# A string like this is a pattern *name*, not a regex (a regex of letters only would split text at
# that literal word): an unknown one is a typo, and is refused rather than run.
_NAME_LIKE = regex.compile(r"[A-Za-z][A-Za-z0-9_-]*")


def resolve_pattern(pattern: str | None) -> tuple[str, str | None]:
    """Return (name, pattern text) for a named pattern or a custom regex string.

    A custom regex may leave text unmatched: that text still becomes pre-tokens (see
    `execution_form`), so nothing is dropped. Refused, with the reason: a value that is not a
    string, an unknown name, a regex that does not compile, and capturing groups (matches must be
    whole pre-tokens).

    >>> resolve_pattern("simple")
    ('simple', '\\\\s+|\\\\w+|[^\\\\w\\\\s]')
    """
    known = ", ".join(PATTERNS)
    if pattern is None:
        return "none", None
    if not isinstance(pattern, str):
        hint = " (pass its text, .pattern)" if isinstance(getattr(pattern, "pattern", None), str) else ""
        raise TypeError(
            f"pattern must be a pattern name ({known}) or a regex string, got {type(pattern).__name__} "
            f"{pattern!r}{hint}"
        )
    if pattern in PATTERNS:
        return pattern, PATTERNS[pattern]
    for name, text in PATTERNS.items():
        if text == pattern:
            return name, text
    if _NAME_LIKE.fullmatch(pattern):
        raise ValueError(
            f"unknown pattern name {pattern!r}; the named patterns are {known} "
            rf"(a custom pattern is a regex, e.g. r'\s+|\w+|[^\w\s]'; for the literal text, write (?:{pattern}))"
        )
    try:
        compiled = regex.compile(pattern)
    except regex.error as exc:
        raise ValueError(
            f"pattern {pattern!r} is neither a named pattern ({known}) nor a valid regex: {exc}"
        ) from None
    if compiled.groups:
        raise ValueError(
            f"pattern {pattern!r} has {compiled.groups} capturing group(s), so its matches would be the "
            "groups' text, not whole pre-tokens; write each group as (?:...)"
        )
    if compiled.flags & regex.REVERSE:
        raise ValueError(f"pattern {pattern!r} matches in reverse ((?r)): its pre-tokens would come out of order")
    _check_backtracking(pattern)
    return "custom", pattern


# A custom pattern is a stranger's regex, and the `regex` engine backtracks: "(?:a|a)+$" takes 2^n
# steps on n a's and a "!". One that is that slow on a short run of one character class is refused
# when it is read; any other runs with a time limit (`bounded_findall`). PROBES also try the regexes
# of a user's HF tokenizer.json (adapters/hf_tokenizers.py), which run in another engine.
_PROBE_SECONDS = 0.25
PROBES = tuple(run * 40 + end for run in ("a", "A", "1", " ", "\t", "!", "é", "日", "a1", "a ")
                for end in ("!", "\n", "\x00"))


# The pattern's text in pieces: a property or code escape, an escape, a group's opening with its
# flags or name, a count, a class bracket, or one character.
_PIECES = regex.compile(r"\\[pP]\{[^}]*\}|\\[pP].|\\x\{[^}]*\}|\\x[0-9a-fA-F]{2}|\\u[0-9a-fA-F]{4}|\\.|"
                        r"\(\?(?:[a-zA-Z-]*:|P?<[^>=!]*>|[:=!>]|<[=!])|\{\d*,?\d*\}|.", regex.DOTALL)
_SYNTAX = set("()[]{}|?*+^$.")  # outside a class, not text
_ESCAPED_TEXT = set("\\()[]{}|?*+^$.-/!#%&,:;<=>@`~'\"")  # \. \! ...: the character itself
_ENDS = ("!", "\n", "\x00")


def probes_for(pattern: str) -> tuple[str, ...]:
    """`PROBES`, and the same probes made of what the pattern itself names: each literal character
    (in a class or not) and each run of literals up to 4 long (a class in it by its first
    character), 40 times, then an end that breaks it.
    "(?:x|x)+$" backtracks on 'x' * 40 + '!', which no fixed probe holds; one made of its own
    literals does. Read from the pattern's text, not parsed: an over-read literal is one probe more."""
    units: dict[str, None] = {}
    run: list[str] = []
    in_class = False
    first_in_class: str | None = None  # a class stands in a run of literals by its first character

    def end_run() -> None:
        for width in range(2, min(len(run), 4) + 1):
            units.setdefault("".join(run[:width]))
        run.clear()

    for piece in _PIECES.findall(pattern):
        literal = (piece[1] if len(piece) == 2 and piece[0] == "\\" and piece[1] in _ESCAPED_TEXT
                   else piece if len(piece) == 1 and piece != "\\" else None)
        if in_class:
            if piece == "]":
                in_class = False
                if first_in_class is None:  # a class of no literal: the run ends
                    end_run()
                else:
                    run.append(first_in_class)
            elif literal is not None and piece not in ("^", "-"):
                units.setdefault(literal)
                if first_in_class is None:
                    first_in_class = literal
            continue
        if piece == "[":
            in_class, first_in_class = True, None
        elif literal is not None and piece not in _SYNTAX:
            units.setdefault(literal)
            run.append(literal)
        else:
            end_run()
    end_run()
    own = (unit * 40 + end for unit in units for end in _ENDS if end not in unit)
    return PROBES + tuple(probe for probe in dict.fromkeys(own) if probe not in PROBES)


def _check_backtracking(pattern: str) -> None:
    compiled = regex.compile(execution_form(pattern))
    for probe in probes_for(pattern):
        try:
            compiled.findall(probe, timeout=_PROBE_SECONDS)
        except TimeoutError:
            raise ValueError(
                f"pattern {pattern!r} takes over {_PROBE_SECONDS} s to split {len(probe)} characters "
                f"({probe[:1]!r} * {len(probe) - 1} and {probe[-1]!r}): it backtracks without end; "
                "use a named pattern or one without nested repeats of overlapping alternatives") from None


# The time limit of a custom pattern on one text: generous (about a hundred times what a pattern
# of the published kind takes), so that only a pattern that backtracks without end meets it.
SPLIT_SECONDS = 1.0
SPLIT_SECONDS_PER_CHARACTER = 1e-5


def bounded_findall(compiled: regex.Pattern[str], pattern: str) -> Callable[[str], list[str]]:
    """`findall_of(compiled)` with a time limit growing with the text; a ValueError that names
    the pattern when it is reached."""

    def split(text: str) -> list[str]:
        limit = SPLIT_SECONDS + SPLIT_SECONDS_PER_CHARACTER * len(text)
        try:
            return compiled.findall(text, concurrent=False, timeout=limit)
        except TimeoutError:
            raise ValueError(f"pattern {pattern!r} took over {limit:.1f} s to split a text of {len(text):,} "
                             "characters: it backtracks without end on it; use a named pattern") from None

    return split


# What the `regex` package runs for a published pattern: the same language, faster. The published
# texts make every quantifier possessive (`++`, `?+`, `{1,3}+`) because that speeds up tiktoken's
# engine; in `regex` the possessive forms push backtracking state on every match and cost about
# 15% more time. Dropping them changes no match: a possessive quantifier differs from the greedy
# one only when what follows it in its alternative can fail and giving characters back would let
# it succeed, and in these patterns nothing can:
# - `X?+\p{L}++`, X a non-letter: giving X back puts `\p{L}` on that non-letter; `\p{L}++` ends
#   its alternative, as do `\p{N}{1,3}+`, `\p{N}++` and `[^\s\p{L}\p{N}]++` in gpt2.
# - `[^\s\p{L}\p{N}]++[\r\n]*+`: `[\r\n]*` never fails; ` ?` given back puts a non-space class
#   on the space.
# - `\s++$`: `$` (no MULTILINE) holds only at the end or before a final newline, which a shorter
#   run of spaces reaches only if the whole run does, and the greedy run tries the whole run first.
# tests/bpe/test_against_tiktoken.py checks both forms split alike, on corpora, adversarial and random text.
EXECUTION_FORMS: dict[str, str] = {
    CL100K_PATTERN: (
        r"""'(?i:[sdmt]|ll|ve|re)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n]*"""
        r"""|\s+$|\s*[\r\n]|\s+(?!\S)|\s"""
    ),
    GPT2_PATTERN: r"""'(?:[sdmt]|ll|ve|re)| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+$|\s+(?!\S)|\s""",
}


def findall_of(compiled: regex.Pattern[str]) -> Callable[[str], list[str]]:
    """`compiled.findall`, without `regex` releasing the GIL around every match.

    subtle: by default `regex` lets other threads run during every match (it drops and takes back
    the GIL each time); nothing else runs here, and that round trip cost ~10% of the split."""
    return partial(compiled.findall, concurrent=False)


# Global inline flags ("(?i)") must stay at the very start of a pattern when it is wrapped.
_LEADING_FLAGS = regex.compile(r"(?:\(\?[aiLmsuxV0-9]+\))*")


def execution_form(pattern_text: str) -> str:
    """The regex that runs for a pattern text. A published pattern matches every character of any
    text (the tests check it), and runs in its faster equivalent form where it has one. A custom
    pattern may not: `(?:custom)|[\\s\\S]` makes every character it leaves out a pre-token of its
    own, so that encoding stays lossless, and tiktoken (`to_tiktoken`) runs the same form."""
    if pattern_text in PATTERNS.values():
        return EXECUTION_FORMS.get(pattern_text, pattern_text)
    flags = _LEADING_FLAGS.match(pattern_text).group()
    # subtle: in verbose mode a trailing "# comment" would swallow the closing parenthesis.
    end = "\n)" if regex.compile(pattern_text).flags & regex.VERBOSE else ")"
    return f"{flags}(?:{pattern_text[len(flags):]}{end}|[\\s\\S]"


def compile_pattern(pattern_text: str | None) -> regex.Pattern[str] | None:
    """Compile a pattern text's execution form; None (`none`) stays None."""
    if pattern_text is None:
        return None
    return regex.compile(execution_form(pattern_text))

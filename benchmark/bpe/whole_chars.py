"""Whole characters first: BPE that gives every character of chosen scripts its own token, then
spends the rest of the budget on ordinary frequency merges.

What this module adds: the option `whole_characters=("Hangul",)` of `train`/`train_sweep`. A
Hangul syllable is three UTF-8 bytes, and frequency BPE joins them only as often as the syllable
is frequent enough; this trainer binds each syllable seen in the training text first, the
hypothesis being that a token that is a whole character serves Korean better than one that is
part of it. Any Unicode script name the `regex` package knows works (`Han`, `Hiragana`,
`Katakana`, `Devanagari`, `Cyrillic`, ...): the question stands for every multi-byte script.

The rules (reference.py's `reference_whole_character_merges` computes the same list naively, and
the tests ask both trainers for the identical merge list):

- A character of the scripts counts `count x occurrences` over the pre-token table, like a pair.
  Only characters seen at least `min_frequency` times get a token (a rarer pair is never merged
  either).
- Characters go most frequent first; ties go to the smaller code point.
- A character of n bytes b1..bn is built left to right by n - 1 merges: (b1, b2), then
  (b1b2, b3), ... A merge that an earlier character already made is not made again: the 64
  Hangul syllables that share their first two bytes share that token, so a syllable costs one
  merge, plus one for each new two-byte prefix (the 2,350 syllables of KS X 1001 need 2,525).
- These merges come first, in that order, and the budget cuts the list like any merge list: the
  model at a size is a prefix of the run to a larger size (`train_sweep` relies on it), even when
  the cut falls between a syllable's two merges. Frequency merges (train.py's rules) follow on the
  text as those merges left it.

What it leaves out: parity-aware training with whole characters, and characters that are more
than one code point (a Hangul syllable written as jamo stays three characters).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import regex

from benchmark.bpe.train import _learn

__all__ = ["DEFAULT_SCRIPTS", "script_pattern", "character_counts", "whole_character_merges",
           "train_whole_character_merges"]

DEFAULT_SCRIPTS = ("Hangul",)
_SCRIPT_NAME = regex.compile(r"[A-Za-z][A-Za-z_]*")


def script_pattern(scripts: Sequence[str]) -> regex.Pattern[str]:
    """One regex matching a character of any of `scripts` (Unicode script names, as `\\p{Script=...}`
    takes them); a ValueError naming the script it does not know."""
    if isinstance(scripts, str):
        raise TypeError(f"whole_characters must be a sequence of script names, got the str {scripts!r}; "
                        f"wrap it in a tuple: ({scripts!r},)")
    scripts = list(scripts)
    if not scripts:
        raise ValueError("whole_characters needs at least one script name, e.g. ('Hangul',)")
    for name in scripts:
        if not isinstance(name, str) or _SCRIPT_NAME.fullmatch(name) is None:
            raise ValueError(f"whole_characters: {name!r} is not a Unicode script name (e.g. Hangul, Han, Hiragana)")
        try:
            regex.compile(rf"\p{{Script={name}}}")
        except regex.error:
            raise ValueError(f"whole_characters: unknown Unicode script {name!r}; use a name such as Hangul, Han, "
                             "Hiragana, Katakana, Devanagari or Cyrillic") from None
    return regex.compile("|".join(rf"\p{{Script={name}}}" for name in scripts))


def character_counts(pretoken_counts: Mapping[bytes, int], scripts: Sequence[str]) -> dict[str, int]:
    """{character of the scripts: count x occurrences over the table}."""
    findall = script_pattern(scripts).findall
    counts: dict[str, int] = {}
    for data, n in pretoken_counts.items():
        if data.isascii():
            continue
        # subtle: a caller's table may cut a character in two; only whole characters decode.
        for char in findall(data.decode("utf-8", "replace")):
            counts[char] = counts.get(char, 0) + n
    return counts


def whole_character_merges(pretoken_counts: Mapping[bytes, int], scripts: Sequence[str], *,
                           min_frequency: int = 2) -> list[tuple[int, int]]:
    """The merges that make every character of `scripts` seen `min_frequency` times or more a
    token, most frequent first (ids from 256, as the first merges of a model)."""
    counts = character_counts(pretoken_counts, scripts)
    ordered = sorted((char for char, n in counts.items() if n >= max(1, min_frequency)),
                     key=lambda char: (-counts[char], char))
    made: dict[bytes, int] = {bytes([b]): b for b in range(256)}
    merges: list[tuple[int, int]] = []
    for char in ordered:
        data = char.encode("utf-8")
        for end in range(2, len(data) + 1):
            if data[:end] not in made:
                made[data[:end]] = 256 + len(merges)
                merges.append((made[data[:end - 1]], data[end - 1]))
    return merges


def train_whole_character_merges(
    pretoken_counts: Mapping[bytes, int],
    n_merges: int,
    *,
    scripts: Sequence[str] = DEFAULT_SCRIPTS,
    min_frequency: int = 2,
    progress: bool = False,
    checkpoints: Sequence[int] = (),
) -> tuple[list[tuple[int, int]], dict[int, float]]:
    """`train_merges` (train.py) after the whole-character merges: same arguments and result."""
    merges, seconds_at, _ = _learn(
        pretoken_counts, n_merges, min_frequency=min_frequency, progress=progress, checkpoints=checkpoints,
        first=lambda counts, min_count: whole_character_merges(counts, scripts, min_frequency=min_count))
    return merges, seconds_at

"""Training mixes: how much of each language our BPE learns from, and parity-aware training.

A tokenizer spends its merges on what it saw most, so the share of each language in the training
text decides what each language pays. A mix gives every training language a weight:

- `balanced`: the same number of lines from every language (parallel lines: the same content);
- `english-only`: English alone;
- `english-heavy`: English 90% of the training bytes, the other languages sharing the rest equally;
- `parity`: balanced text, parity-aware merges (Foroutan, Meister et al. 2025): each merge is the
  most frequent pair of the language whose text is then the most tokens (benchmark/bpe/parity.py);
- `hangul-first`: balanced text; every Hangul syllable seen at least twice first gets its own
  token (most frequent first, within the budget), then frequency merges (benchmark/bpe/whole_chars.py);
- `<script>-first` for any other Unicode script (`han-first`, `hiragana+katakana-first`,
  `devanagari-first`): the same, for the characters of those scripts;
- a custom mix, `--train-mix eng=9,*=1`: relative shares of the training bytes, `*` for every
  language not named (a language given no share is not trained on).

The corpus does not grow with a weight: a weight multiplies a language's pre-token counts, which
is the same as repeating its text, not showing more of it (FLORES-200 dev has 997 lines per
language). Weights are integers, so that exact ties between pair counts stay exact.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Mapping, Sequence

from benchmark.plumbing.errors import BenchmarkError

ENGLISH_PREFIX = "eng"  # FLORES's eng_Latn, a user's eng or en (see `is_english`)
HEAVY_SHARE = 0.9  # english-heavy: English's share of the training bytes
WEIGHT_SCALE = 1000  # the smallest nonzero weight; the others are rounded to it


@dataclass(frozen=True)
class TrainingMix:
    name: str  # used in ids: bpe/<name>-<size>
    description: str
    parity: bool = False
    byte_shares: tuple[tuple[str, float], ...] = ()  # (code or "*", relative share of the bytes)
    equal_lines: bool = False  # balanced: weight 1 each, not shares of bytes
    whole_characters: tuple[str, ...] = ()  # scripts whose characters get a token first (bpe/whole_chars.py)

    def byte_share_of(self, code: str) -> float:
        """The share a custom mix gives `code`: under its own code or its language part in any
        case (`eng` names `eng_Latn`), else the share of `*`."""
        shares = {key.lower(): share for key, share in self.byte_shares}
        for key in (code.lower(), code.split("_")[0].lower()):
            if key in shares:
                return shares[key]
        return shares.get("*", 0.0)

    def unavailable_reason(self, languages: Sequence[str]) -> str | None:
        """Why this mix cannot be trained on these languages (None: it can): an English mix
        without English, or shares that name no training language."""
        if self.name in ("english-only", "english-heavy") and not any(is_english(code) for code in languages):
            return f"training mix {self.name}: the training languages have no English"
        if self.byte_shares and not any(self._share(code, [c for c in languages if is_english(c)], len(languages)) > 0
                                        for code in languages):
            named = ", ".join(code for code, _ in self.byte_shares)
            return f"training mix {self.name}: its shares name none of the training languages ({named})"
        return None

    def weights(self, lines_by_language: Mapping[str, Sequence[str]]) -> dict[str, int]:
        """Each language's integer weight (0: left out), from its training lines: equal lines,
        or shares of the bytes, as this mix says."""
        if self.equal_lines:
            return {code: 1 for code in lines_by_language}
        english = [code for code in lines_by_language if is_english(code)]
        if self.name in ("english-only", "english-heavy") and not english:
            raise BenchmarkError(f"training mix {self.name}: the training languages have no English "
                                 f"({', '.join(lines_by_language)})")
        n_bytes = {code: sum(len(line.encode("utf-8")) for line in lines) for code, lines in lines_by_language.items()}
        shares = {code: self._share(code, english, len(lines_by_language)) for code in lines_by_language}
        per_byte = {code: share / n_bytes[code] for code, share in shares.items() if share > 0 and n_bytes[code]}
        if not per_byte:
            raise BenchmarkError(f"training mix {self.name}: no training language has a share "
                                 f"(the languages are {', '.join(lines_by_language)})")
        smallest = min(per_byte.values())
        return {code: round(WEIGHT_SCALE * per_byte[code] / smallest) if code in per_byte else 0
                for code in lines_by_language}

    def _share(self, code: str, english: Sequence[str], n_languages: int) -> float:
        if self.name == "english-only":
            return 1.0 if code in english else 0.0
        if self.name == "english-heavy":
            if n_languages == len(english):
                return 1.0
            return HEAVY_SHARE / len(english) if code in english else (1 - HEAVY_SHARE) / (n_languages - len(english))
        return self.byte_share_of(code)


def is_english(code: str) -> bool:
    part = code.split("_")[0].lower()
    return part in (ENGLISH_PREFIX, "en")


BUILT_IN: dict[str, TrainingMix] = {
    mix.name: mix for mix in (
        TrainingMix("balanced", "the same number of lines from every language", equal_lines=True),
        TrainingMix("english-only", "English alone"),
        TrainingMix("english-heavy", f"English {HEAVY_SHARE:.0%} of the training bytes, the others sharing the rest "
                                     "equally"),
        TrainingMix("parity", "balanced text, parity-aware merges", parity=True, equal_lines=True),
        TrainingMix("hangul-first", "balanced text, every Hangul syllable seen twice a token first, then frequency "
                    "merges", equal_lines=True, whole_characters=("Hangul",)),
    )
}
DEFAULT_MIXES = tuple(BUILT_IN)
_SPEC_ITEM = re.compile(r"\s*([^=,\s]+)\s*=\s*([0-9]*\.?[0-9]+)\s*")


def parse_mix(spec: str) -> TrainingMix:
    """A built-in mix's name, or `code=share,...` (relative shares of the training bytes; `*` for
    every language not named).

    >>> parse_mix("eng=9,*=1").name
    'eng9-rest1'

    `<script>[+<script>...]-first` is balanced text with every character of those Unicode scripts
    seen twice bound first, as `hangul-first` is for Hangul:

    >>> parse_mix("hiragana+katakana-first").whole_characters
    ('Hiragana', 'Katakana')
    """
    if spec in BUILT_IN:
        return BUILT_IN[spec]
    first = _FIRST_SPEC.fullmatch(spec)
    if first:
        return _whole_characters_mix(spec, first.group(1).split("+"))
    items = spec.split(",")
    shares = []
    for item in items:
        match = _SPEC_ITEM.fullmatch(item)
        if match is None:
            raise BenchmarkError(
                f"training mix {spec!r}: expected a built-in mix ({', '.join(BUILT_IN)}) or shares like eng=9,*=1, "
                f"got {item.strip()!r}"
            )
        # One spelling of a code (codes are matched in any case), so ENG=9 and eng=1 collide.
        shares.append((match.group(1).lower(), float(match.group(2))))
    codes = [code for code, _ in shares]
    if len(set(codes)) != len(codes):
        twice = sorted({code for code in codes if codes.count(code) > 1})
        raise BenchmarkError(f"training mix {spec!r}: {', '.join(twice)} given twice (codes are read in any case)")
    if not any(share > 0 for _, share in shares):
        raise BenchmarkError(f"training mix {spec!r}: every share is zero")
    name = "-".join(f"{'rest' if code == '*' else code}{share:g}" for code, share in shares)
    return TrainingMix(name, f"relative shares of the training bytes: {spec}", byte_shares=tuple(shares))


def check_mix_languages(mixes: Sequence[TrainingMix], languages: Sequence[str]) -> None:
    """A BenchmarkError naming a custom mix's code that no training language has (under its code
    or its language part, in any case): a typo would otherwise train on `*` or be skipped."""
    known = {code.lower() for code in languages} | {code.split("_")[0].lower() for code in languages}
    for mix in mixes:
        unknown = [code for code, _ in mix.byte_shares if code != "*" and code not in known]
        if unknown:
            raise BenchmarkError(f"training mix {mix.description.split(': ', 1)[-1]!r}: no training language "
                                 f"{', '.join(unknown)}; the training languages are {', '.join(languages)}")


_FIRST_SPEC = re.compile(r"([A-Za-z_]+(?:\+[A-Za-z_]+)*)-first")


def _whole_characters_mix(spec: str, names: list[str]) -> TrainingMix:
    from benchmark.bpe.whole_chars import script_pattern

    scripts = tuple("_".join(part.capitalize() for part in name.split("_")) for name in names)
    try:
        script_pattern(scripts)
    except ValueError as exc:
        raise BenchmarkError(f"training mix {spec!r}: {exc}") from None
    # "+" joins the scripts in the spec; the name goes into ids and file names, so "-" there.
    description = f"balanced text, every {'/'.join(scripts)} character seen twice a token first, then frequency merges"
    return TrainingMix(spec.lower().replace("+", "-"), description, equal_lines=True, whole_characters=scripts)


def parse_mixes(specs: Sequence[str]) -> tuple[TrainingMix, ...]:
    mixes = tuple(parse_mix(spec) for spec in specs)
    names = [mix.name for mix in mixes]
    if len(set(names)) != len(names):
        raise BenchmarkError(f"training mixes given twice: {', '.join(sorted({n for n in names if names.count(n) > 1}))}")
    return mixes

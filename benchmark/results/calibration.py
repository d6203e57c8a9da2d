"""Estimates without a tokenizer: tokens per character and per UTF-8 byte, fitted on one split and
checked on another, with each estimate's held-out error beside that of the common chars/4.

A tool that cannot run a tokenizer estimates a text's tokens as its characters times a ratio (or
its bytes times one). `fit_calibration` fits that ratio per production tokenizer on the `dev`
split (the group's tokens over its characters, or bytes, summed over its sentences) for each
language, each script (its languages pooled) and all languages pooled, then applies it to every
`devtest` sentence and to the group's whole `devtest` text:

- `*_sentence_error_p50`, `*_sentence_error_p90`: the median and 90th percentile over sentences
  of |estimate - tokens| / tokens (a sentence estimated alone);
- `*_total_error`: estimate / tokens - 1 over the group's whole text (signed: below 0 undercounts);
- `*_worst_language_error`: the signed total error of the group's language it misses most.

The prefixes: `char_` (the fitted tokens per character), `byte_` (the fitted tokens per byte) and
`chars4_` (characters / 4, fitted on nothing). Pure functions over counts (no I/O); the run counts
(measure/calibration.py), results.json carries the entries, the reports render them.
"""

from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass
from typing import Any, Mapping, Sequence

from benchmark.plumbing.escaping import csv_cell

LEVELS = ("all", "script", "language")  # the groups a ratio is fitted for, widest first
ESTIMATES = ("char", "byte", "chars4")  # tokens per character, tokens per byte, characters / 4
CHARS_PER_TOKEN_HEURISTIC = 4  # the common heuristic this table replaces


@dataclass(frozen=True)
class LanguageCounts:
    """What one tokenizer counted on one language: the fit split's totals and, per sentence of the
    checked split, its tokens, characters (code points) and UTF-8 bytes."""

    fit_n_sentences: int
    fit_n_tokens: int
    fit_n_chars: int
    fit_n_bytes: int
    check_tokens: Sequence[int]
    check_chars: Sequence[int]
    check_bytes: Sequence[int]


@dataclass(frozen=True)
class CalibrationEntry:
    """One tokenizer's ratios for one group of languages and their held-out errors (module doc)."""

    tokenizer: str
    level: str  # "all", "script" or "language"
    group: str  # "all", an ISO 15924 script ("Deva") or a language code ("hin_Deva")
    n_languages: int
    fit_n_sentences: int
    fit_n_tokens: int
    fit_n_chars: int
    fit_n_bytes: int
    tokens_per_char: float
    tokens_per_byte: float
    check_n_sentences: int
    check_n_tokens: int
    check_n_chars: int
    check_n_bytes: int
    char_sentence_error_p50: float
    char_sentence_error_p90: float
    char_total_error: float
    char_worst_language_error: float
    byte_sentence_error_p50: float
    byte_sentence_error_p90: float
    byte_total_error: float
    byte_worst_language_error: float
    chars4_sentence_error_p50: float
    chars4_sentence_error_p90: float
    chars4_total_error: float
    chars4_worst_language_error: float

    def __post_init__(self) -> None:
        where = f"calibration of {self.tokenizer!r} on {self.level} {self.group!r}"
        for f in dataclasses.fields(self):
            value = getattr(self, f.name)
            if f.type == "str":
                if not isinstance(value, str) or not value:
                    raise ValueError(f"{f.name} must be text, got {value!r} in the {where}")
            elif f.type == "int":
                if not isinstance(value, int) or isinstance(value, bool) or value < 0:
                    raise ValueError(f"{f.name} must be a count, got {value!r} in the {where}")
            elif isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
                raise ValueError(f"{f.name} must be a number, got {value!r} in the {where}")
        if self.level not in LEVELS:
            raise ValueError(f"level must be one of {', '.join(LEVELS)}, got {self.level!r} in the {where}")
        if self.tokens_per_char <= 0 or self.tokens_per_byte <= 0 or not self.n_languages:
            raise ValueError(f"a calibration needs tokens and a language: {where}")

    def to_dict(self) -> dict[str, Any]:
        return dataclasses.asdict(self)


CALIBRATION_FIELDS: tuple[str, ...] = tuple(f.name for f in dataclasses.fields(CalibrationEntry))


def fit_calibration(counts: Mapping[str, Mapping[str, LanguageCounts]],
                    script_of: Mapping[str, str | None]) -> tuple[CalibrationEntry, ...]:
    """Per tokenizer (in `counts`' order): all its languages pooled, each script's (`script_of`:
    language -> script, None for a code without one; scripts in code order), then each language
    in `counts`' order. A group whose fit split has no character or no token has no entry."""
    entries = []
    for tokenizer, by_language in counts.items():
        languages = [code for code, c in by_language.items() if c.fit_n_tokens and c.fit_n_chars]
        groups = [("all", "all", languages)] if languages else []
        scripts = sorted({script_of.get(code) for code in languages} - {None})
        groups += [("script", script, [code for code in languages if script_of.get(code) == script])
                   for script in scripts]
        groups += [("language", code, [code]) for code in languages]
        entries += [_entry(tokenizer, level, group, [by_language[code] for code in codes])
                    for level, group, codes in groups]
    return tuple(entries)


def _entry(tokenizer: str, level: str, group: str, languages: Sequence[LanguageCounts]) -> CalibrationEntry:
    import numpy as np

    fit = {name: sum(getattr(c, f"fit_n_{name}") for c in languages) for name in ("sentences", "tokens", "chars", "bytes")}
    ratios = {"char": fit["tokens"] / fit["chars"], "byte": fit["tokens"] / fit["bytes"],
              "chars4": 1 / CHARS_PER_TOKEN_HEURISTIC}
    units = {"char": "check_chars", "byte": "check_bytes", "chars4": "check_chars"}
    tokens = [np.asarray(c.check_tokens, dtype=np.float64) for c in languages]
    every_tokens = np.concatenate(tokens)
    values: dict[str, float] = {}
    for estimate, ratio in ratios.items():
        sizes = [np.asarray(getattr(c, units[estimate]), dtype=np.float64) for c in languages]
        every_size = np.concatenate(sizes)
        counted = every_tokens > 0  # a sentence of no token has no relative error
        errors = np.abs(ratio * every_size[counted] - every_tokens[counted]) / every_tokens[counted]
        p50, p90 = np.percentile(errors, [50, 90]) if errors.size else (0.0, 0.0)
        totals = [_total_error(ratio * s.sum(), t.sum()) for s, t in zip(sizes, tokens)]
        values.update({f"{estimate}_sentence_error_p50": float(p50), f"{estimate}_sentence_error_p90": float(p90),
                       f"{estimate}_total_error": _total_error(ratio * every_size.sum(), every_tokens.sum()),
                       f"{estimate}_worst_language_error": max(totals, key=abs)})
    return CalibrationEntry(
        tokenizer=tokenizer, level=level, group=group, n_languages=len(languages),
        fit_n_sentences=fit["sentences"], fit_n_tokens=fit["tokens"], fit_n_chars=fit["chars"],
        fit_n_bytes=fit["bytes"], tokens_per_char=ratios["char"], tokens_per_byte=ratios["byte"],
        check_n_sentences=int(every_tokens.size), check_n_tokens=int(every_tokens.sum()),
        check_n_chars=sum(int(sum(c.check_chars)) for c in languages),
        check_n_bytes=sum(int(sum(c.check_bytes)) for c in languages), **values)


def _total_error(estimate: float, n_tokens: float) -> float:
    return float(estimate / n_tokens - 1) if n_tokens else 0.0


def estimate_tokens(entries: Sequence[CalibrationEntry], tokenizer: str, text: str, *, group: str,
                    per: str = "char", domain: str | None = None) -> float | None:
    """The tokens `tokenizer` is estimated to give `text`, by the entry for `group` (a language
    code, a script, or "all") fitted per character or per byte, on the whole corpus or on one
    `domain`'s lines (a results/calibration_domains.py entry); None when there is no such entry.

    >>> entry = CalibrationEntry("t", "all", "all", 1, 1, 1, 4, 4, 0.25, 0.25, *([1] * 4), *([0.0] * 12))
    >>> estimate_tokens([entry], "t", "abcdefgh", group="all")
    2.0
    """
    entry = find_entry(entries, tokenizer, group=group, domain=domain)
    if entry is None:
        return None
    if per == "byte":
        return entry.tokens_per_byte * len(text.encode("utf-8"))
    return entry.tokens_per_char * len(text)


def find_entry(entries: Sequence[CalibrationEntry], tokenizer: str, *, group: str,
               domain: str | None = None) -> CalibrationEntry | None:
    """`tokenizer`'s entry for `group`, of `domain` (None: a whole-corpus entry), or None."""
    for entry in entries:
        if entry.tokenizer == tokenizer and entry.group == group and getattr(entry, "domain", None) == domain:
            return entry
    return None


def calibration_csv(entries: Sequence[CalibrationEntry], names: Mapping[str, str] | None = None) -> str:
    """The entries as CSV: `CALIBRATION_FIELDS` with `name` after `group` (the language's or
    script's English name from `names`, else the group) and `domain` last (empty for a whole-corpus
    entry, the label for a results/calibration_domains.py one), full precision (repr of each float,
    the shortest text that reads back as the same float), every text cell made inert for spreadsheets."""
    import csv
    import io

    names = names or {}
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    header = list(CALIBRATION_FIELDS)
    header.insert(header.index("group") + 1, "name")
    header.append("domain")  # last, so a reader of the columns before it reads them where they were
    writer.writerow(header)
    for entry in entries:
        values = {"domain": "", **entry.to_dict()}
        values["name"] = names.get(entry.group, entry.group)
        writer.writerow([repr(values[h]) if isinstance(values[h], float) else csv_cell(values[h]) for h in header])
    return buffer.getvalue()


CALIBRATION_JSON_FORMAT = "tokencost-calibration"
# Bump when calibration.json's layout changes. 1: the entries; 2: "domains", the entries of each
# domain of a labelled corpus (results/calibration_domains.py), [] for a corpus without labels.
CALIBRATION_JSON_VERSION = 2


def calibration_json(entries: Sequence[CalibrationEntry], *, method: str | None, date: str, corpus: str | None,
                     names: Mapping[str, str], sources: Mapping[str, Mapping[str, str]],
                     domains: Sequence[CalibrationEntry] = ()) -> str:
    """calibration.json, for a tool to ship in place of characters / 4: how the table was made
    (`method`, the run's `date` and `corpus`), each tokenizer's vocabulary file (`sources`: id ->
    package, version, file, sha256), the entries and the `domains` entries, each with its group's
    English name (`names`), floats at full precision, keys in a fixed order."""
    import json

    document = {
        "format": CALIBRATION_JSON_FORMAT, "version": CALIBRATION_JSON_VERSION, "date": date, "corpus": corpus,
        "method": method,
        "estimate": "tokens = characters x tokens_per_char (or UTF-8 bytes x tokens_per_byte); the entry of the "
                    "text's language, else of its script, else 'all'; the *_error fields are its held-out errors; "
                    "for a known kind of text, the same from 'domains' (each fitted on that domain's lines only)",
        "tokenizers": {tokenizer: dict(sources[tokenizer])
                       for tokenizer in dict.fromkeys(e.tokenizer for e in (*entries, *domains))
                       if tokenizer in sources},
        "entries": [{**entry.to_dict(), "name": names.get(entry.group, entry.group)} for entry in entries],
        "domains": [{**entry.to_dict(), "name": names.get(entry.group, entry.group)} for entry in domains],
    }
    return json.dumps(document, indent=1, ensure_ascii=False, allow_nan=False) + "\n"

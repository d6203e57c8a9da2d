"""Premiums over other base languages: the run's paired bootstrap intervals of each language's
tokens over a base's (`run --bases`), and the premiums they go with, read back from the rows.

A run's premium is over its reference (English by default), in the rows. `BasePremiums` holds, for
each further base B, each tokenizer's interval of n_tokens(L) / n_tokens(B) on every language L it
counted, and of its mean premium over B: the same seeded resamples of the sentences as the rows'
(measure/bases.py computes them). The premium itself is not stored: it is n_tokens(L) / n_tokens(B)
of two rows, so `premiums_over` reads it from them, never stored twice.

    premiums_over(results, "hin_Deva")["tiktoken/o200k_base"]["eng_Latn"]  # (premium, low, high)
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, Mapping

from benchmark.plumbing.errors import BenchmarkError

Interval = tuple[float, float]
WithInterval = tuple[float, float, float]  # (estimate, low, high)


def _ratio(value: Any) -> bool:
    """A ratio of counts, as a row's figures: finite, from 0 (a resample of a language's empty lines) to below 2**63."""
    return (isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)
            and 0 <= value < 1 << 63)


def _interval(value: Any, where: str, size: int = 2) -> tuple[float, ...]:
    if (not isinstance(value, (list, tuple)) or len(value) != size or not all(map(_ratio, value))
            or value[-2] > value[-1]):
        raise ValueError(f"{where}: expected {'[low, high]' if size == 2 else '[estimate, low, high]'} of numbers "
                         f"from 0 to below 2**63, low <= high, got {value!r}")
    return tuple(float(v) for v in value)


@dataclass(frozen=True)
class BasePremiums:
    """The bases a run computed premiums over (its reference first) and their intervals."""

    bases: tuple[str, ...] = ()  # every base, the reference first; () for a run before `--bases`
    reference: str | None = None  # whose intervals are the rows' (not repeated here)
    # base -> tokenizer -> language -> (low, high): 95% paired bootstrap of n_tokens(L) / n_tokens(base)
    premium_ci: Mapping[str, Mapping[str, Mapping[str, Interval]]] = field(default_factory=dict)
    # base -> tokenizer -> (mean, low, high): the mean over the languages but the base (as the summaries')
    mean_premium: Mapping[str, Mapping[str, WithInterval]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if self.bases and self.bases[0] != self.reference:
            raise ValueError(f"bases: the first base must be the reference {self.reference!r}, got {self.bases[0]!r}")
        if len(set(self.bases)) != len(self.bases):
            raise ValueError(f"bases: a base is listed twice in {list(self.bases)}")
        others = set(self.bases[1:])
        for name, table in (("premium_ci", self.premium_ci), ("mean_premium", self.mean_premium)):
            if set(table) - others:
                raise ValueError(f"{name}: {sorted(set(table) - others)[0]!r} is not one of the bases other than the "
                                 f"reference ({sorted(others)})")
        premium_ci = {base: {tokenizer: {language: _interval(bounds, f"premium_ci {base}/{tokenizer}/{language}")
                                         for language, bounds in languages.items()}
                             for tokenizer, languages in tokenizers.items()}
                      for base, tokenizers in self.premium_ci.items()}
        mean = {base: {tokenizer: _interval(value, f"mean_premium {base}/{tokenizer}", 3)
                       for tokenizer, value in tokenizers.items()}
                for base, tokenizers in self.mean_premium.items()}
        object.__setattr__(self, "bases", tuple(self.bases))
        object.__setattr__(self, "premium_ci", premium_ci)
        object.__setattr__(self, "mean_premium", mean)

    def to_dict(self) -> dict[str, Any]:
        return {"bases": list(self.bases), "reference": self.reference,
                "premium_ci": {base: {tokenizer: {language: list(bounds) for language, bounds in languages.items()}
                                      for tokenizer, languages in tokenizers.items()}
                               for base, tokenizers in self.premium_ci.items()},
                "mean_premium": {base: {tokenizer: list(value) for tokenizer, value in tokenizers.items()}
                                 for base, tokenizers in self.mean_premium.items()}}

    @classmethod
    def from_dict(cls, raw: Any) -> BasePremiums:
        """From results.json's "bases"; a malformed one is a ValueError naming what is wrong."""
        if not isinstance(raw, dict) or set(raw) - {"bases", "reference", "premium_ci", "mean_premium"}:
            raise ValueError(f"bases: expected an object with bases, reference, premium_ci and mean_premium, got "
                             f"{sorted(raw) if isinstance(raw, dict) else type(raw).__name__}")
        bases, reference = raw.get("bases", []), raw.get("reference")
        if not isinstance(bases, list) or not all(isinstance(b, str) and b for b in bases):
            raise ValueError(f"bases: expected a list of language codes, got {bases!r}")
        if reference is not None and not isinstance(reference, str):
            raise ValueError(f"bases: the reference must be a language code, got {reference!r}")
        for name in ("premium_ci", "mean_premium"):
            table = raw.get(name, {})
            depth = 3 if name == "premium_ci" else 2
            _check_nesting(table, depth, f"bases.{name}")
        return cls(tuple(bases), reference, raw.get("premium_ci", {}), raw.get("mean_premium", {}))


def _check_nesting(table: Any, depth: int, where: str) -> None:
    """Objects keyed by text, `depth` deep (the intervals' own checks come after)."""
    if depth == 0:
        return
    if not isinstance(table, dict) or not all(isinstance(key, str) and key for key in table):
        raise ValueError(f"{where}: expected an object keyed by code, got {type(table).__name__}")
    for key, value in table.items():
        _check_nesting(value, depth - 1, f"{where}.{key}")


def resolve_base(results, base: str, *, where: str = "results") -> str:
    """The code `base` means among the bases `results` carry (hin -> hin_Deva); one line naming the
    bases it does carry, and the rerun that adds it, when it carries none such."""
    from benchmark.corpora.languages import resolve_code

    carried = carried_bases(results)
    measured = sorted({row.language for row in results.rows})
    try:
        code = resolve_code(base, measured, where=where, what="base language")
    except BenchmarkError:
        code = None
    if code in carried:
        return code
    rerun = (f"--bases {code}" if code else
             f"{base} added to --languages and --bases {base} (it is not a language of this run)")
    raise BenchmarkError(f"{where}: no premiums over {code or repr(base)}: these results carry premiums over "
                         f"{', '.join(carried)}; rerun `python -m benchmark run` with the same options and {rerun}")


def carried_bases(results) -> tuple[str, ...]:
    """The bases `results` carry premiums over: the run's `--bases`, else only its reference."""
    reference = results.record.settings.reference or _first_reference(results)
    return results.bases.bases or (reference,)


def _first_reference(results) -> str:
    codes = {row.language for row in results.rows}
    return next((guess for guess in ("eng_Latn", "eng") if guess in codes), min(codes, default=""))


def premiums_over(results, base: str) -> dict[str, dict[str, WithInterval | tuple[float, None, None]]]:
    """tokenizer -> language -> (premium, low, high) over `base` (a code the results carry, see
    `resolve_base`): over the reference, the rows' own; over another base, n_tokens(L) / n_tokens(base)
    with the run's interval. A language the tokenizer did not count, or without an interval, is left out."""
    carried = carried_bases(results)
    if base not in carried:
        raise BenchmarkError(f"results: no premiums over {base}; they carry {', '.join(carried)}")
    out: dict[str, dict[str, Any]] = {}
    if base == carried[0]:
        for row in results.rows:
            if row.ok and row.premium is not None and row.premium_ci_low is not None:
                out.setdefault(row.tokenizer, {})[row.language] = (row.premium, row.premium_ci_low, row.premium_ci_high)
        return out
    base_tokens = {row.tokenizer: row.n_tokens for row in results.rows if row.ok and row.language == base}
    intervals = results.bases.premium_ci.get(base, {})
    for row in results.rows:
        bounds = intervals.get(row.tokenizer, {}).get(row.language)
        if row.ok and bounds is not None and base_tokens.get(row.tokenizer):
            out.setdefault(row.tokenizer, {})[row.language] = (row.n_tokens / base_tokens[row.tokenizer], *bounds)
    return out

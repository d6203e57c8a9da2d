"""Pairwise ratios: on one language, how many tokens one production tokenizer needs for the same
sentences as another, with a paired bootstrap interval (the premium's resamples: every sentence
resampled alike for both tokenizers). `pairwise.csv` holds them; `ratio_between` reads one in
either orientation (the interval of B/A is that of A/B inverted: a percentile interval of a
positive ratio maps through 1/x exactly), by a lookup `PairwiseRatios` builds once: a priced
answer asks for one ratio per model, and a 204-language file holds 13,464 of them.
"""

from __future__ import annotations

import dataclasses
import functools
import math
from dataclasses import dataclass
from typing import Any, Sequence

from benchmark.plumbing.escaping import csv_cell


@dataclass(frozen=True)
class PairwiseRatio:
    """`tokenizer`'s n_tokens over `other`'s on `language`, the same sentences."""

    language: str
    tokenizer: str
    other: str
    n_tokens: int
    other_n_tokens: int
    ratio: float
    ratio_ci_low: float  # 95% paired bootstrap over sentences
    ratio_ci_high: float

    def __post_init__(self) -> None:
        where = f"pairwise {self.tokenizer}/{self.other} on {self.language}"
        # Typed here, not by the record's generic decoder: a 204-language file holds 13,464 of them.
        for name, kind in (("language", str), ("tokenizer", str), ("other", str), ("n_tokens", int),
                           ("other_n_tokens", int)):
            value = getattr(self, name)
            if not isinstance(value, kind) or isinstance(value, bool) or (kind is int and value < 0):
                raise ValueError(f"{name} must be {'a count' if kind is int else 'text'}, got {value!r} in {where}")
        if not self.language or not self.tokenizer or not self.other or self.tokenizer == self.other:
            raise ValueError(f"a pairwise ratio needs a language and two tokenizers: {where}")
        for name in ("ratio", "ratio_ci_low", "ratio_ci_high"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value) or value <= 0:
                raise ValueError(f"{name} must be a positive number, got {value!r} in {where}")
        if not self.ratio_ci_low <= self.ratio_ci_high:
            raise ValueError(f"({self.ratio_ci_low}, {self.ratio_ci_high}) is not an interval in {where}")

    def to_dict(self) -> dict[str, Any]:
        return dataclasses.asdict(self)


PAIRWISE_FIELDS: tuple[str, ...] = tuple(f.name for f in dataclasses.fields(PairwiseRatio))


Between = tuple[float, float, float]  # (ratio, low, high)


class PairwiseRatios(tuple):
    """A run's pairwise ratios, in their order (a tuple), with their lookup by (language, tokenizer,
    other) in both orientations, built on the first `ratio_between`."""

    @functools.cached_property
    def by_pair(self) -> dict[tuple[str, str, str], Between]:
        return _by_pair(self)


def _by_pair(pairwise: Sequence[PairwiseRatio]) -> dict[tuple[str, str, str], Between]:
    found: dict[tuple[str, str, str], Between] = {}
    for entry in pairwise:  # the first entry of a pair wins, in either orientation
        found.setdefault((entry.language, entry.tokenizer, entry.other),
                         (entry.ratio, entry.ratio_ci_low, entry.ratio_ci_high))
        found.setdefault((entry.language, entry.other, entry.tokenizer),
                         (1 / entry.ratio, 1 / entry.ratio_ci_high, 1 / entry.ratio_ci_low))
    return found


def ratio_between(pairwise: Sequence[PairwiseRatio], language: str, tokenizer: str, other: str) -> Between | None:
    """(ratio, low, high) of `tokenizer`'s tokens over `other`'s on `language`; None if not measured.
    In constant time on `PairwiseRatios` (a `Results`' pairwise), in linear time on another sequence."""
    by_pair = pairwise.by_pair if isinstance(pairwise, PairwiseRatios) else _by_pair(pairwise)
    return by_pair.get((language, tokenizer, other))


def pairwise_csv(pairwise: Sequence[PairwiseRatio]) -> str:
    """The pairwise ratios as CSV, header `PAIRWISE_FIELDS`, full precision (as results.csv)."""
    import csv
    import io

    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(PAIRWISE_FIELDS)
    for entry in pairwise:
        # repr of a float is the shortest text that reads back as the same float.
        writer.writerow([repr(v) if isinstance(v, float) else csv_cell(v) for v in entry.to_dict().values()])
    return buffer.getvalue()

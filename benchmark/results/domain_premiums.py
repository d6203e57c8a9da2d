"""The premium per domain: on the lines of one kind of text only (news, social, ...), a language's
tokens over the reference's, with the paired bootstrap interval of the whole-corpus premium (the
same seeded resamples, drawn over that domain's lines). A corpus with per-line labels
(corpora/domains.py) gets one entry per production or trained tokenizer, language but the
reference, and domain; `domain_premiums.csv` holds them.
"""

from __future__ import annotations

import dataclasses
import math
import re
from dataclasses import dataclass
from typing import Any, Sequence

from benchmark.plumbing.escaping import csv_cell

DOMAIN_LABEL = re.compile(r"[^\W_][\w.-]*")  # as corpora/domains.py reads them


@dataclass(frozen=True)
class DomainPremium:
    """`tokenizer`'s premium of `language` over the reference on the `n_lines` lines of `domain`."""

    domain: str
    language: str
    tokenizer: str
    n_lines: int
    n_tokens: int
    reference_n_tokens: int
    premium: float
    premium_ci_low: float  # 95% paired bootstrap over the domain's lines
    premium_ci_high: float

    def __post_init__(self) -> None:
        where = f"domain premium of {self.language} on {self.domain} ({self.tokenizer})"
        for name, kind in (("domain", str), ("language", str), ("tokenizer", str), ("n_lines", int),
                           ("n_tokens", int), ("reference_n_tokens", int)):
            value = getattr(self, name)
            if not isinstance(value, kind) or isinstance(value, bool) or (kind is int and value < 0):
                raise ValueError(f"{name} must be {'a count' if kind is int else 'text'}, got {value!r} in {where}")
        if not DOMAIN_LABEL.fullmatch(self.domain):  # a label is shown in tables and plots as it is
            raise ValueError(f"domain must be a label (letters, digits, '_', '-', '.'), got {self.domain[:40]!r} in {where}")
        if not self.language or not self.tokenizer or not self.n_lines:
            raise ValueError(f"a domain premium needs a domain, a language, a tokenizer and lines: {where}")
        for name in ("premium", "premium_ci_low", "premium_ci_high"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value) or value <= 0:
                raise ValueError(f"{name} must be a positive number, got {value!r} in {where}")
        if not self.premium_ci_low <= self.premium_ci_high:
            raise ValueError(f"({self.premium_ci_low}, {self.premium_ci_high}) is not an interval in {where}")

    def to_dict(self) -> dict[str, Any]:
        return dataclasses.asdict(self)


DOMAIN_PREMIUM_FIELDS: tuple[str, ...] = tuple(f.name for f in dataclasses.fields(DomainPremium))


def domain_premiums_csv(entries: Sequence[DomainPremium]) -> str:
    """The entries as CSV, header `DOMAIN_PREMIUM_FIELDS`, full precision (as results.csv)."""
    import csv
    import io

    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(DOMAIN_PREMIUM_FIELDS)
    for entry in entries:
        values = entry.to_dict()
        writer.writerow([csv_cell(values[name]) for name in DOMAIN_PREMIUM_FIELDS])
    return buffer.getvalue()


def premium_spread(entries: Sequence[DomainPremium]) -> dict[tuple[str, str], tuple[DomainPremium, DomainPremium]]:
    """(tokenizer, language) -> its lowest and highest domain premium: how far the kind of text
    moves the premium."""
    grouped: dict[tuple[str, str], list[DomainPremium]] = {}
    for entry in entries:
        grouped.setdefault((entry.tokenizer, entry.language), []).append(entry)
    return {key: (min(found, key=lambda e: e.premium), max(found, key=lambda e: e.premium))
            for key, found in grouped.items()}

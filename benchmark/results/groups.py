"""Summaries per language group: for each tokenizer, each language family (Glottolog) and each
resource class (Joshi et al. 2020) of the run's languages (benchmark/corpora/groups.py), the
group's premium over the reference with a paired bootstrap interval, and the Gini of the group's
languages' token counts (none for a group of one language).

The group's premium is the ratio of sums over the same lines: the group's languages' tokens over
the reference's tokens times the number of languages, i.e. the mean of their token totals over the
reference's total. Its interval resamples the lines with the premium's seeded resamples
(`metrics.ratio_cis`), every language of a line drawn alike.
"""

from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass
from typing import Any, Sequence

from benchmark.plumbing.escaping import csv_cell

GROUP_KINDS = ("family", "tier")


@dataclass(frozen=True)
class GroupSummary:
    """One tokenizer on one group of the run's languages."""

    kind: str  # "family" or "tier"
    group: str  # the family's name, "class 3", or "not covered"
    group_id: str  # the family's glottocode, the class's digit, or "" when not covered
    tokenizer: str
    n_languages: int
    languages: tuple[str, ...]
    n_tokens: int  # the group's languages' tokens together
    premium: float  # mean of the languages' n_tokens over the reference's
    premium_ci_low: float
    premium_ci_high: float
    gini: float | None  # of the group's languages' n_tokens; None for one language

    def __post_init__(self) -> None:
        if isinstance(self.languages, list):  # as JSON gives it
            object.__setattr__(self, "languages", tuple(self.languages))
        where = f"group summary {self.kind}/{self.group!r} of {self.tokenizer!r}"
        if self.kind not in GROUP_KINDS:
            raise ValueError(f"kind must be one of {GROUP_KINDS}, got {self.kind!r} in the {where}")
        if not self.group or not self.tokenizer or self.n_languages != len(self.languages) or not self.languages:
            raise ValueError(f"a group summary needs a group, a tokenizer and its languages: {where}")
        for name in ("premium", "premium_ci_low", "premium_ci_high"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value) or value < 0:
                raise ValueError(f"{name} must be a number >= 0, got {value!r} in the {where}")
        if not self.premium_ci_low <= self.premium_ci_high:
            raise ValueError(f"({self.premium_ci_low}, {self.premium_ci_high}) is not an interval in the {where}")
        if self.gini is not None and not 0 <= self.gini < 1:
            raise ValueError(f"gini must be from 0 to below 1, got {self.gini} in the {where}")
        if self.gini is not None and self.n_languages < 2:
            raise ValueError(f"a group of one language has no Gini: {where}")

    def to_dict(self) -> dict[str, Any]:
        return {**dataclasses.asdict(self), "languages": list(self.languages)}


GROUP_FIELDS: tuple[str, ...] = tuple(f.name for f in dataclasses.fields(GroupSummary))


def groups_csv(groups: Sequence[GroupSummary]) -> str:
    """The group summaries as CSV, header `GROUP_FIELDS` (languages joined by spaces)."""
    import csv
    import io

    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(GROUP_FIELDS)
    for entry in groups:
        values = {**entry.to_dict(), "languages": " ".join(entry.languages)}
        writer.writerow(["" if values[n] is None else repr(values[n]) if isinstance(values[n], float)
                         else csv_cell(values[n]) for n in GROUP_FIELDS])
    return buffer.getvalue()

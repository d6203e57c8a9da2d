"""The calibration table's domain level: on a corpus whose lines carry domain labels (what kind of
text each line is), the same ratios and held-out errors as results/calibration.py, fitted on one
domain's own dev lines and checked on its own devtest lines.

Each domain gets the whole ladder (all languages, each script, each language), so a tool that
knows its text is travel prose and not news picks the `wikivoyage` entry of its language. A corpus
of one kind of text (corpora/django-ui: every line `ui`) gives one domain. `closest_domains` says,
for each domain's devtest text, whose fitted ratio misses it least (the entries' own totals are
enough: one ratio times another domain's characters, over that domain's tokens). Pure functions
over counts; results.json holds the entries as "calibration_domains", calibration.json as "domains".
"""

from __future__ import annotations

import dataclasses
import statistics
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from benchmark.results.calibration import CalibrationEntry, LanguageCounts, fit_calibration
from benchmark.results.domain_premiums import DOMAIN_LABEL


@dataclass(frozen=True)
class DomainCalibrationEntry(CalibrationEntry):
    """A `CalibrationEntry` fitted and checked on the lines of one domain only."""

    domain: str

    def __post_init__(self) -> None:
        super().__post_init__()
        if not DOMAIN_LABEL.fullmatch(self.domain):
            raise ValueError(f"domain must be a domain label (letters, digits, '_', '-', '.'), got {self.domain!r} "
                             f"in the calibration of {self.tokenizer!r} on {self.level} {self.group!r}")


DOMAIN_CALIBRATION_FIELDS: tuple[str, ...] = tuple(f.name for f in dataclasses.fields(DomainCalibrationEntry))


def fit_domain_calibration(counts: Mapping[str, Mapping[str, Mapping[str, LanguageCounts]]],
                           script_of: Mapping[str, str | None]) -> tuple[DomainCalibrationEntry, ...]:
    """`counts`: domain -> tokenizer -> language -> that domain's counts; per domain (sorted), the
    entries `fit_calibration` gives for them, each tagged with its domain."""
    return tuple(DomainCalibrationEntry(**entry.to_dict(), domain=domain)
                 for domain in sorted(counts) for entry in fit_calibration(counts[domain], script_of))


def domains_from_list(raw: Any, where: str) -> tuple[DomainCalibrationEntry, ...]:
    """A stored block (a list of entry objects) as entries; anything else is one ValueError naming
    `where` and the entry."""
    if not isinstance(raw, list):
        raise ValueError(f"{where}: expected a list of domain entries, got {type(raw).__name__}")
    found = []
    for number, entry in enumerate(raw):
        if not isinstance(entry, dict):
            raise ValueError(f"{where}[{number}]: expected an object, got {type(entry).__name__}")
        try:
            found.append(DomainCalibrationEntry(**entry))
        except (TypeError, ValueError) as exc:
            raise ValueError(f"{where}[{number}]: {exc}") from None
    return tuple(found)


@dataclass(frozen=True)
class ClosestDomain:
    """For one domain's devtest text (`text_domain`) and one group: the domain whose ratio misses
    it least over the tokenizers (the median |whole-text error|; its own domain among them), beside
    its own domain's ratio's miss and the whole corpus's."""

    text_domain: str
    group: str
    closest: str
    closest_error: float  # the median over tokenizers of the closest ratio's signed whole-text error
    own_error: float
    corpus_error: float | None  # the whole-corpus entry's (None: no such entry)


def whole_text_error(ratio_entry: CalibrationEntry, text_entry: CalibrationEntry) -> float:
    """`ratio_entry`'s tokens per character applied to `text_entry`'s whole devtest text: estimate /
    tokens - 1 (the entries' own totals: no count needed)."""
    return ratio_entry.tokens_per_char * text_entry.check_n_chars / text_entry.check_n_tokens - 1


def closest_domains(domains: Sequence[DomainCalibrationEntry], corpus: Sequence[CalibrationEntry], *,
                    group: str = "all") -> tuple[ClosestDomain, ...]:
    """Per domain (sorted), for `group`: which domain's ratio is closest on its text, over the
    tokenizers that have an entry of `group` in every domain compared."""
    by_key = {(e.domain, e.tokenizer): e for e in domains if e.group == group}
    whole = {e.tokenizer: e for e in corpus if e.group == group}
    names = sorted({domain for domain, _ in by_key})
    out = []
    for text in names:
        tokenizers = [t for d, t in by_key if d == text]

        def median_error(ratio_of) -> float | None:
            errors = [whole_text_error(ratio_of(t), by_key[(text, t)]) for t in tokenizers if ratio_of(t) is not None]
            return statistics.median(errors) if errors else None

        candidates = {other: median_error(lambda t, o=other: by_key.get((o, t))) for other in names}
        candidates = {o: e for o, e in candidates.items() if e is not None}
        closest = min(candidates, key=lambda o: (abs(candidates[o]), o))
        out.append(ClosestDomain(text, group, closest, candidates[closest], candidates[text], median_error(whole.get)))
    return tuple(out)

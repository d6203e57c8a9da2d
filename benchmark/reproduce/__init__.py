"""Published token counts recomputed offline, each compared with the published number:
`python -m benchmark reproduce STUDY`.

Data flows one way: a study's protocol text per language -> counts (`reproduce`) -> an immutable
`Reproduction` -> a text table (`render`). A study is a module (`STUDIES`) holding `TITLE`,
`PROTOCOL`, `COLUMNS` (what it computes, and how), `NOT_COMPUTED` (what it cannot, and why),
`protocol_text(code)` and `read_published()`: petrov2023.py (Petrov et al., NeurIPS 2023).
"""

from __future__ import annotations

import importlib
import time
from dataclasses import dataclass
from types import ModuleType
from typing import Sequence

from benchmark.plumbing.errors import BenchmarkError

STUDIES = {"petrov2023": "benchmark.reproduce.petrov2023"}


@dataclass(frozen=True)
class Count:
    """One language's count in one column, as published and as computed here."""

    code: str
    published: int | None  # None: the study counted nothing there
    computed: int

    @property
    def exact(self) -> bool:
        return self.published == self.computed


@dataclass(frozen=True)
class ColumnResult:
    column: str
    method: str
    counts: tuple[Count, ...]

    @property
    def n_exact(self) -> int:
        return sum(count.exact for count in self.counts)

    @property
    def mismatches(self) -> tuple[Count, ...]:
        return tuple(count for count in self.counts if not count.exact)


@dataclass(frozen=True)
class Reproduction:
    study: str
    title: str
    protocol: str
    columns: tuple[ColumnResult, ...]
    not_computed: dict[tuple[str, ...], str]  # published columns left out -> why
    n_languages: int
    seconds: float

    @property
    def ok(self) -> bool:
        return all(not column.mismatches for column in self.columns)


def study_module(study: str) -> ModuleType:
    if study not in STUDIES:
        raise BenchmarkError(f"unknown study {study!r}; reproducible: {', '.join(STUDIES)}")
    return importlib.import_module(STUDIES[study])


def reproduce(study: str, *, columns: Sequence[str] | None = None,
              languages: Sequence[str] | None = None) -> Reproduction:
    """Recompute `columns` (default: all the study computes) for `languages` (bundled codes;
    default: every language the study published). One language after the other: two threads
    took as long as one (19.5 s and 18.2 s for all 204), tiktoken keeping the GIL."""
    started = time.perf_counter()
    module = study_module(study)
    published = module.read_published()
    names = tuple(columns) if columns else tuple(module.COLUMNS)
    for name in names:
        if name not in module.COLUMNS:
            why = next((f" (it needs {why})" for left_out, why in module.NOT_COMPUTED.items() if name in left_out), "")
            raise BenchmarkError(f"{study}: cannot recompute column {name!r} offline{why}; computable: "
                                 f"{', '.join(module.COLUMNS)}")
    codes = tuple(languages) if languages else tuple(published)
    missing = [code for code in codes if code not in published]
    if missing:
        raise BenchmarkError(f"{study}: published nothing for {missing[0]!r}")
    counters = {name: module.COLUMNS[name].make_counter() for name in names}

    computed = {}
    for code in codes:
        text = module.protocol_text(code)
        computed[code] = {name: counter(text) for name, counter in counters.items()}
    results = tuple(
        ColumnResult(name, module.COLUMNS[name].method,
                     tuple(Count(code, published[code][name], computed[code][name]) for code in codes))
        for name in names
    )
    return Reproduction(study=study, title=module.TITLE, protocol=module.PROTOCOL, columns=results,
                        not_computed=dict(module.NOT_COMPUTED), n_languages=len(codes),
                        seconds=time.perf_counter() - started)


def render(reproduction: Reproduction) -> str:
    """The summary, one line per column, and a table of language, published, computed for every
    count that differs."""
    width = max(len(column.column) for column in reproduction.columns)
    lines = [f"{reproduction.study}: {reproduction.title}", f"protocol: {reproduction.protocol}", ""]
    for column in reproduction.columns:
        lines.append(f"  {column.column:<{width}}  {column.n_exact}/{len(column.counts)} exact  ({column.method})")
    for names, why in reproduction.not_computed.items():
        lines.append(f"  not recomputed: {', '.join(names)} (they need {why})")
    for column in reproduction.columns:
        if column.mismatches:
            lines += ["", f"{column.column}: {_differ(len(column.mismatches))}",
                      f"  {'language':<10} {'published':>11} {'computed':>11} {'difference':>11}"]
            for count in column.mismatches:
                published = "-" if count.published is None else f"{count.published:,}"
                difference = "" if count.published is None else f"{count.computed - count.published:+,}"
                lines.append(f"  {count.code:<10} {published:>11} {count.computed:>11,} {difference:>11}")
    n_counts = sum(len(column.counts) for column in reproduction.columns)
    n_exact = sum(column.n_exact for column in reproduction.columns)
    verdict = "every count matches" if reproduction.ok else _differ(n_counts - n_exact)
    lines += ["", f"{n_exact}/{n_counts} counts exact ({_counted(len(reproduction.columns), 'column')} x "
                  f"{_counted(reproduction.n_languages, 'language')}): {verdict}, in {reproduction.seconds:.1f} s"]
    return "\n".join(lines)


def _counted(n: int, noun: str) -> str:
    """`1 column`, `2 columns`."""
    return f"{n:,} {noun}{'' if n == 1 else 's'}"


def _differ(n: int) -> str:
    return f"{_counted(n, 'count')} {'differs' if n == 1 else 'differ'}"

"""A validated parallel corpus, split -> language -> lines, and the checks every layout shares."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterable, Sequence

from benchmark.corpora.languages import ENGLISH_CODES, choices_hint, english_code
from benchmark.plumbing.errors import BenchmarkError

SPLITS = ("dev", "devtest")
ALL_SPLIT = "all"  # the one split of a user corpus without dev/ and devtest/ subfolders


@dataclass(frozen=True)
class Corpus:
    """A validated parallel corpus: split -> language -> lines (without newlines)."""

    name: str  # "flores200" or the user folder's name
    root: Path
    languages: tuple[str, ...]
    splits: dict[str, dict[str, tuple[str, ...]]]
    checksums: dict[str, str]  # "<split>/<file name>" -> sha256 of the file as read (of its text, if compressed)
    domains: dict[str, tuple[str, ...]] = field(default_factory=dict)  # split -> a label per line (domains.py)
    domain: str | None = None  # the one domain the measured split was cut to (--domain), else None

    def lines(self, split: str, language: str) -> tuple[str, ...]:
        try:
            return self.splits[split][language]
        except KeyError:
            raise BenchmarkError(
                f"{self.root}: no split {split!r} for language {language!r}; "
                f"splits: {', '.join(self.splits)}; languages: {', '.join(self.languages)}"
            ) from None

    @property
    def measure_split(self) -> str:
        """Measurements use `devtest`, or the whole corpus when it has no split."""
        return "devtest" if "devtest" in self.splits else ALL_SPLIT

    @property
    def train_split(self) -> str:
        """Training uses `dev`, or the whole corpus when it has no split."""
        return "dev" if "dev" in self.splits else ALL_SPLIT

    def n_sentences(self, split: str) -> int:
        return len(next(iter(self.splits[split].values())))

    def default_reference(self) -> str:
        code = english_code(self.languages)
        if code is not None:
            return code
        raise BenchmarkError(
            f"{self.root}: no English file ({', '.join(ENGLISH_CODES)}, in any case) to measure the premium "
            f"against; pick one of {', '.join(self.languages)} with --reference CODE"
        )


def check_aligned(files: dict[str, Path], lines: dict[str, tuple[str, ...]]) -> None:
    """Every language of a split must have the same number of lines."""
    first = next(iter(lines))
    n_first = len(lines[first])
    for language, language_lines in lines.items():
        if len(language_lines) != n_first:
            n = len(language_lines)
            where = min(n, n_first) + 1
            raise BenchmarkError(
                f"{files[language]}: {n} lines but {files[first]} has {n_first}; "
                f"parallel files must match line for line (first difference at line {where})"
            )


def select(available: Sequence[str], languages: Iterable[str] | None, root: Path,
           default: Sequence[str] | None = None) -> tuple[str, ...]:
    """The codes to load, exactly as the corpus spells them (what a user typed is resolved before,
    by `languages.resolve_codes`); None: `default`, or every available code."""
    if languages is None:
        return tuple(default if default is not None else available)
    selected = []
    for code in languages:
        if code not in available:
            raise BenchmarkError(
                f"{root}: unknown language code {code!r}; {choices_hint(code, available)}"
            )
        if code not in selected:
            selected.append(code)
    if not selected:
        raise BenchmarkError(f"{root}: no language selected; {choices_hint('', available)}")
    return tuple(selected)

"""The committed baseline of the speed ratios, and the check against it.

`benchmark/speed/baseline.json` holds one ratio per language and figure (ratios.py), the tolerance
and what identifies the measured text. A check measures the ratios again and judges two things:

- each ratio against its baseline: worse by more than the tolerance (25%) is a regression;
- each figure's ratios averaged over the languages (geometric mean of ratio / baseline ratio):
  worse by more than the figure tolerance (10%) is one too. The mean cancels much of one cell's
  noise, so it catches a slowdown of every language that each cell's 25% lets through.

Both tolerances, and why they are what they are, are in docs/speed.md. A baseline is only good for
the machine it was recorded on: the ratio survives a busy neighbour, not another machine.
"""

from __future__ import annotations

import datetime
import json
import math
import statistics
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Sequence

from benchmark.plumbing.errors import BenchmarkError
from benchmark.speed.ratios import ENCODING, SPEED_REPEATS, TEXT_KEYS, RatioRow
from benchmark.measure.timing import machine_info

DEFAULT_BASELINE = Path(__file__).resolve().parent / "baseline.json"
# Three times the repeats of a check, so the baseline sits near the true median and a check's own
# noise (not the baseline's) is what the tolerance has to absorb.
BASELINE_REPEATS = 3 * SPEED_REPEATS
# About twice the worst run-to-run noise of a ratio measured here, and far below what a real
# slowdown does to one (docs/speed.md).
DEFAULT_TOLERANCE = 0.25
# The mean over the languages is steadier than one cell, so it can be stricter (docs/speed.md).
DEFAULT_FIGURE_TOLERANCE = 0.10
MIN_LANGUAGES_FOR_MEAN = 3  # fewer, and the mean is hardly steadier than one cell

# History of the baseline file format (pyperf's habit: say what changed).
#   1: first version.
#   2: records the text measured (`languages`, `max_lines`, `corpus_checksums`); --check refuses
#      to compare other text with it.
BASELINE_FORMAT = "tokencost-speed-baseline"
BASELINE_FORMAT_VERSION = 2
_RECORD_AGAIN = "record it again with `python -m benchmark speed --update-baseline`"
_MAX_BASELINE_BYTES = 4 * 1024 * 1024  # a baseline is a few kB: one ratio per language and figure


@dataclass(frozen=True)
class Baseline:
    ratios: dict[tuple[str, str], float]  # (language, figure) -> our time / tiktoken's
    tolerance: float  # a ratio may grow by this share before the check fails
    info: dict[str, Any] = field(default_factory=dict)  # machine, date, repeats, the text: for the reader


def baseline_from_rows(rows: Sequence[RatioRow], *, tolerance: float = DEFAULT_TOLERANCE,
                       repeats: int | None = None, clock: str = "cpu",
                       text: dict[str, Any] | None = None) -> Baseline:
    """`text`: what `load_texts` says identifies the measured text (languages, max_lines, sums)."""
    info = {
        **(text or {}),
        "date": datetime.date.today().isoformat(),
        "clock": clock,
        "machine": machine_info(),
        "repeats": repeats if repeats is not None else (len(rows[0].ours_seconds) if rows else 0),
        "encoding": ENCODING,
        "tiktoken_mb_s": {f"{r.language}/{r.figure}": None if r.tiktoken_mb_s is None else round(r.tiktoken_mb_s, 2)
                          for r in rows},
    }
    return Baseline({(r.language, r.figure): r.ratio for r in rows}, tolerance, info)


def check_replaceable(path: Path, option: str = "--baseline") -> None:
    """A BenchmarkError unless a baseline may be written at `path`: nothing stands there, or a
    speed baseline does (of any version). Anything else, a results.json, a user's file, a link, a
    FIFO, is not ours to replace."""
    from benchmark.plumbing.fileio import read_bounded

    path = Path(path)
    if not path.exists() and not path.is_symlink():
        return
    fix = "--update-baseline replaces only a speed baseline this program wrote: give another path, or move that file away"
    if path.is_symlink():
        raise BenchmarkError(f"{option} {path}: is a symbolic link; {fix}")
    data = read_bounded(path, "speed baseline", max_bytes=_MAX_BASELINE_BYTES, hint=fix)
    try:
        document = json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        document = None
    found = document.get("format") if isinstance(document, dict) else None
    if found != BASELINE_FORMAT:
        what = f"its 'format' is {found!r}" if isinstance(document, dict) else "not a JSON object"
        raise BenchmarkError(f"{option} {path}: holds a file that is not a speed baseline ({what}); {fix}")


def save_baseline(baseline: Baseline, path: Path = DEFAULT_BASELINE) -> None:
    """Write `baseline` at `path`, where `check_replaceable` allows (checked again: minutes of timing
    may have passed since the command's own check)."""
    from benchmark.plumbing.fileio import atomic_write_text

    check_replaceable(path)
    ratios: dict[str, dict[str, float]] = {}
    for (language, figure), ratio in baseline.ratios.items():
        ratios.setdefault(language, {})[figure] = float(f"{ratio:.4g}")
    document = {
        "format": BASELINE_FORMAT,
        "version": BASELINE_FORMAT_VERSION,
        "what": "our encode time / tiktoken's on FLORES-200 devtest, interleaved in one process; "
                "lower is better; `python -m benchmark speed --check` fails when a ratio exceeds "
                "baseline x (1 + tolerance)",
        "tolerance": baseline.tolerance,
        **baseline.info,
        "ratios": ratios,
    }
    atomic_write_text(Path(path), json.dumps(document, indent=1, ensure_ascii=False) + "\n")


def load_baseline(path: Path = DEFAULT_BASELINE) -> Baseline:
    from benchmark.plumbing.fileio import file_kind, read_versioned_json

    path = Path(path)
    if file_kind(path) == "no such file":
        raise BenchmarkError(f"{path}: no speed baseline; record one with `python -m benchmark speed --update-baseline`")
    _, document = read_versioned_json(path, what="speed baseline", format_name=BASELINE_FORMAT,
                                      versions=(BASELINE_FORMAT_VERSION,), hint=_RECORD_AGAIN)
    try:
        tolerance = float(document["tolerance"])
        ratios = {(language, figure): float(ratio)
                  for language, by_figure in document["ratios"].items() for figure, ratio in by_figure.items()}
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        raise BenchmarkError(f"{path}: malformed baseline ({type(exc).__name__}: {exc}); {_RECORD_AGAIN}") from None
    for (language, figure), ratio in ratios.items():
        if not ratio > 0:
            raise BenchmarkError(f"{path}: ratio {language}/{figure} = {ratio} is not positive; {_RECORD_AGAIN}")
    info = {k: v for k, v in document.items() if k not in ("format", "version", "tolerance", "ratios", "what")}
    return Baseline(ratios, tolerance, info)


def check_same_text(baseline: Baseline, text: dict[str, Any], *, path: Path) -> None:
    """Refuse a check on other text than the baseline's: its ratios would not be comparable."""
    for key in TEXT_KEYS:
        if key not in baseline.info:
            raise BenchmarkError(f"{path}: does not record {key!r}; record it again with --update-baseline")
        if baseline.info[key] != text[key]:
            if key == "corpus_checksums":
                differ = sorted(set(baseline.info[key].items()) ^ set(text[key].items()))
                shown = f"the files differ ({differ[0][0]}, ...)"
            else:
                shown = f"baseline {baseline.info[key]!r}, now {text[key]!r}"
            option = {"languages": "--languages", "max_lines": "--max-sentences", "corpus_checksums": "--corpus"}[key]
            raise BenchmarkError(
                f"{path}: measured with other {key} than this check ({shown}); check with the "
                f"baseline's {option}, or record a new baseline with --update-baseline"
            )


@dataclass(frozen=True)
class CheckedRow:
    row: RatioRow
    baseline_ratio: float | None  # None: not in the baseline (never a failure)
    tolerance: float

    @property
    def change(self) -> float | None:
        """Relative change of the ratio against the baseline (+0.10 = 10% slower than tiktoken)."""
        return None if self.baseline_ratio is None else self.row.ratio / self.baseline_ratio - 1.0

    @property
    def regressed(self) -> bool:
        return self.change is not None and self.change > self.tolerance

    @property
    def verdict(self) -> str:
        if self.baseline_ratio is None:
            return "new"
        return "SLOWER" if self.regressed else "ok"


def check_ratios(rows: Sequence[RatioRow], baseline: Baseline, *, tolerance: float | None = None) -> list[CheckedRow]:
    """Each measured ratio against the baseline's; `tolerance` overrides the baseline's own."""
    tolerance = baseline.tolerance if tolerance is None else tolerance
    return [CheckedRow(row, baseline.ratios.get((row.language, row.figure)), tolerance) for row in rows]


@dataclass(frozen=True)
class FigureChange:
    figure: str
    change: float  # geometric mean over the languages of (ratio / baseline ratio), minus 1
    n_languages: int
    tolerance: float

    @property
    def regressed(self) -> bool:
        return self.change > self.tolerance


def check_figures(checked: Sequence[CheckedRow], *, tolerance: float = DEFAULT_FIGURE_TOLERANCE) -> list[FigureChange]:
    """Per figure, the mean change of its ratios over the languages (those in the baseline), when
    at least MIN_LANGUAGES_FOR_MEAN of them were measured."""
    changes: dict[str, list[float]] = {}
    for c in checked:
        if c.change is not None:
            changes.setdefault(c.row.figure, []).append(math.log1p(c.change))
    return [FigureChange(figure, math.expm1(statistics.fmean(logs)), len(logs), tolerance)
            for figure, logs in changes.items() if len(logs) >= MIN_LANGUAGES_FOR_MEAN]

"""How fast our encoder is, as ratios to tiktoken that survive a busy machine; and the check.

Absolute seconds drift between machines and between runs on one machine, so the figure we track
is our encode time divided by tiktoken's (`cl100k_base`, the same ranks and pattern) on the same
text, measured interleaved in one process: a busy neighbour slows both alike and the ratio keeps.
It does not keep across machines (an interpreter and compiled code slow down differently):
re-record the baseline on the machine that checks; `benchmark.speed_instructions` counts instructions.

Per FLORES-200 devtest language, three figures (issue 2, "How fast"), each sentence encoded on its
own, through `benchmark.timing.measure_throughput` (the code the harness's throughput table uses):

- unseen: empty the cache, encode the language's dev split, then time devtest (the realistic case);
- cold:   empty the cache, time devtest;
- repeat: empty the cache, encode devtest, time devtest again (every pre-token cached).

tiktoken goes through the same steps (it has no cache, so its three times differ only by noise).
Every repeat times ours and tiktoken back to back, alternating which goes first; a figure's ratio
is the median over repeats of (ours / tiktoken) of one pair, which cancels slow drifts of the
machine better than a ratio of medians taken minutes apart.

subtle: the clock is the process's CPU time by default, not the wall clock. On a shared machine
the OS hands our core to other processes now and then; a 10 ms tiktoken pass often fits between
two such interruptions while a 100 ms pass of ours does not, so wall-clock ratios grew by up to
2x under load (measured: see the README). CPU time leaves out the time we were not running; both
encoders are single-threaded, so otherwise it equals the wall time. `--clock wall` is there too.

`python -m benchmark speed` also prints the other figures of issue 2: `"a" * n` scaling, the
factor against the textbook encoder (the naive reference in tests/, so only from a checkout) and
training time against HuggingFace `tokenizers` (`benchmark.speed_train`).

`--check` measures the ratios again and fails (exit 1) when any is worse than the committed
baseline (`benchmark/speed_baseline.json`) by more than its tolerance, or when a figure's ratios
are worse on average over the languages by more than `--figure-tolerance` (10%: the mean cancels
much of one cell's noise, so it catches a slowdown of every language that each cell's 25% lets
through); `--update-baseline` rewrites that file. tiktoken is built from the offline rank files (never `get_encoding`, which
downloads).
"""

from __future__ import annotations

import argparse
import datetime
import json
import math
import statistics
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Sequence, TextIO

from benchmark import metrics
from benchmark.argtypes import positive_int, share
from benchmark.corpora import BUNDLED_CORPUS_DIR
from benchmark.errors import BenchmarkError
from benchmark.timing import machine_info, measure_throughput

REPO_ROOT = Path(__file__).resolve().parents[1]
FLORES_DIR = BUNDLED_CORPUS_DIR
DEFAULT_BASELINE = Path(__file__).resolve().with_name("speed_baseline.json")
LANGUAGES = ("eng_Latn", "spa_Latn", "rus_Cyrl", "jpn_Jpan", "kor_Hang", "ces_Latn")
FIGURES = ("unseen", "cold", "repeat")
ENCODING = "cl100k_base"
DEFAULT_REPEATS = 9
# The baseline is measured with three times the repeats, so it sits near the true median and a
# check's own noise (not the baseline's) is what the tolerance has to absorb.
BASELINE_REPEATS = 3 * DEFAULT_REPEATS
# Worst run-to-run change of a ratio seen on the 2-core CI-like machine was about +/-15% (see the
# README section "Encoder speed"); 25% keeps clear of that noise and still catches a real
# slowdown, which moves the ratio by far more (a redundant pass over each text doubles it).
DEFAULT_TOLERANCE = 0.25
# A figure's changes averaged over the languages (geometric mean) cancel much of one cell's noise, so
# a slowdown of every language that each cell's 25% misses still shows: three checks of unchanged
# code moved the figure means by +0.5% to +5.8%; a deliberately slowed encoder moved the unseen mean
# by +16% and +21% while all but one unseen cell passed (see the README). Judged only with at least
# MIN_LANGUAGES_FOR_MEAN languages.
DEFAULT_FIGURE_TOLERANCE = 0.10
MIN_LANGUAGES_FOR_MEAN = 3
CLOCKS: dict[str, Callable[[], float]] = {"cpu": time.process_time, "wall": time.perf_counter}
SCALING_SIZES = (10_000, 100_000, 1_000_000)
TEXTBOOK_LINES = 20  # per language: the textbook encoder replays ~3,800 merges per pre-token

# History of the baseline file format (pyperf's habit: say what changed).
#   1: first version.
#   2: records the text measured (`languages`, `max_lines`, `corpus_checksums`); --check refuses
#      to compare other text with it.
BASELINE_FORMAT = "tokencost-speed-baseline"
BASELINE_FORMAT_VERSION = 2
# What identifies the measured text; a check must measure the same (see `check_same_text`).
TEXT_KEYS = ("languages", "max_lines", "corpus_checksums")


# ---------------------------------------------------------------- texts and encoders


@dataclass(frozen=True)
class LanguageTexts:
    language: str
    dev: tuple[str, ...]  # warm-up text of the "unseen" figure
    devtest: tuple[str, ...]  # the timed text

    @property
    def n_bytes(self) -> int:
        return sum(len(text.encode("utf-8")) for text in self.devtest)


def load_flores(
    languages: Sequence[str] = LANGUAGES, *, corpus_dir: Path = FLORES_DIR, max_lines: int | None = None
) -> list[LanguageTexts]:
    """Dev and devtest lines of each language, the first `max_lines` of each if set.

    Read by `benchmark.corpora` (strict UTF-8, aligned lines, and the pinned SHA-256 sums when
    `corpus_dir` is the bundled corpus), so the timed text is the text the harness measures."""
    return load_texts(languages, corpus_dir=corpus_dir, max_lines=max_lines)[0]


def load_texts(
    languages: Sequence[str] = LANGUAGES, *, corpus_dir: Path = FLORES_DIR, max_lines: int | None = None
) -> tuple[list[LanguageTexts], dict[str, Any]]:
    """`load_flores`, plus what identifies the text: languages, `max_lines` and the files' SHA-256
    (a baseline records them; a check on other text is refused)."""
    from benchmark.corpora import load_corpus

    corpus = load_corpus(Path(corpus_dir), languages)
    if "dev" not in corpus.splits or "devtest" not in corpus.splits:
        raise BenchmarkError(f"{corpus_dir}: needs dev/ and devtest/ (a FLORES-200 layout) for the speed figures")
    out = [LanguageTexts(code, corpus.lines("dev", code)[:max_lines], corpus.lines("devtest", code)[:max_lines])
           for code in corpus.languages]
    identity = {"languages": list(corpus.languages), "max_lines": max_lines,
                "corpus_checksums": dict(sorted(corpus.checksums.items()))}
    return out, identity


def tiktoken_encoding(name: str = ENCODING):  # -> tiktoken.Encoding
    """tiktoken's encoding built from the offline, hash-checked ranks (no download)."""
    import tiktoken

    from benchmark.bpe import openai_ranks

    spec = openai_ranks.spec(name)
    return tiktoken.Encoding(
        name, pat_str=spec.pattern, mergeable_ranks=openai_ranks.load_ranks(name),
        special_tokens=spec.special_tokens,
    )


@dataclass(frozen=True)
class Engine:
    """An encoder under test: encode one text, and empty its cache (None: it has none)."""

    name: str
    encode: Callable[[str], Sequence[int]]
    reset: Callable[[], None] | None = None


def default_engines(name: str = ENCODING) -> tuple[Engine, Engine]:
    """(ours, tiktoken) on the same OpenAI ranks."""
    from benchmark.bpe import ByteLevelBPE

    ours = ByteLevelBPE.from_tiktoken(name)
    reference = tiktoken_encoding(name)
    return (
        Engine(f"bpe/{name}", ours.encode_ordinary, ours.clear_cache),
        Engine(f"tiktoken/{name}", reference.encode_ordinary, None),
    )


# ---------------------------------------------------------------- the ratios


@dataclass(frozen=True)
class RatioRow:
    """One language and figure: paired seconds of each repeat, ours then tiktoken."""

    language: str
    figure: str  # "unseen", "cold" or "repeat"
    ours_seconds: tuple[float, ...]
    tiktoken_seconds: tuple[float, ...]
    n_bytes: int
    n_tokens: int

    @property
    def ratio(self) -> float:
        """Our time / tiktoken's: median over repeats of the paired ratio (lower is better)."""
        return statistics.median(o / t for o, t in zip(self.ours_seconds, self.tiktoken_seconds))

    @property
    def x_tiktoken(self) -> float:
        """Our throughput as a multiple of tiktoken's (the inverse of `ratio`)."""
        return 1.0 / self.ratio

    @property
    def ours_mb_s(self) -> float | None:
        return metrics.throughput_mb_s(n_bytes=self.n_bytes, seconds=statistics.median(self.ours_seconds))

    @property
    def tiktoken_mb_s(self) -> float | None:
        return metrics.throughput_mb_s(n_bytes=self.n_bytes, seconds=statistics.median(self.tiktoken_seconds))


def _warm_texts(texts: LanguageTexts, figure: str) -> Sequence[str]:
    return {"unseen": texts.dev, "cold": (), "repeat": texts.devtest}[figure]


def measure_ratios(
    corpus: Sequence[LanguageTexts],
    *,
    repeats: int = DEFAULT_REPEATS,
    figures: Sequence[str] = FIGURES,
    engines: tuple[Engine, Engine] | None = None,
    check_ids: bool = True,
    clock: Callable[[], float] = time.process_time,
) -> list[RatioRow]:
    """Time ours against tiktoken, interleaved, for every language and figure.

    Both engines must give the same ids on the timed text (checked once, untimed, unless
    `check_ids=False`): a ratio to an encoder that gives other tokens would mean nothing.
    """
    if repeats < 1:
        raise ValueError(f"repeats must be >= 1, got {repeats}")
    unknown = set(figures) - set(FIGURES)
    if unknown:
        raise BenchmarkError(f"unknown speed figure(s) {sorted(unknown)}; known: {', '.join(FIGURES)}")
    ours, reference = engines or default_engines()
    rows = []
    for texts in corpus:
        if check_ids:
            _check_same_ids(ours, reference, texts)
        for figure in figures:
            warm = _warm_texts(texts, figure)
            ours_seconds, reference_seconds = [], []
            n_tokens = 0
            for repeat in range(repeats):
                # Alternate who goes first, so neither always runs right after the other's garbage.
                order = (ours, reference) if repeat % 2 == 0 else (reference, ours)
                for engine in order:
                    result = measure_throughput(engine.encode, warm, texts.devtest, repeats=1,
                                                reset=engine.reset, clock=clock)
                    if engine is ours:
                        ours_seconds.append(result.median_seconds)
                        n_tokens = result.n_tokens
                    else:
                        reference_seconds.append(result.median_seconds)
            rows.append(RatioRow(texts.language, figure, tuple(ours_seconds), tuple(reference_seconds),
                                 texts.n_bytes, n_tokens))
    return rows


def _check_same_ids(ours: Engine, reference: Engine, texts: LanguageTexts) -> None:
    for line_number, text in enumerate(texts.devtest, start=1):
        if list(ours.encode(text)) != list(reference.encode(text)):
            raise BenchmarkError(
                f"{texts.language} devtest line {line_number}: {ours.name} and {reference.name} give "
                "different ids; fix the encoder (tests/test_bpe_*.py) before timing it"
            )


# ---------------------------------------------------------------- baseline and check


@dataclass(frozen=True)
class Baseline:
    ratios: dict[tuple[str, str], float]  # (language, figure) -> our time / tiktoken's
    tolerance: float  # a ratio may grow by this share before the check fails
    info: dict[str, Any] = field(default_factory=dict)  # machine, date, repeats: for the reader


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


def save_baseline(baseline: Baseline, path: Path = DEFAULT_BASELINE) -> None:
    from benchmark.fileio import atomic_write_text

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
    path = Path(path)
    if not path.is_file():
        raise BenchmarkError(f"{path}: no speed baseline; record one with `python -m benchmark speed --update-baseline`")
    try:
        document = json.loads(path.read_text(encoding="utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise BenchmarkError(f"{path}: not valid JSON ({exc}); record it again with --update-baseline") from None
    if not isinstance(document, dict) or document.get("format") != BASELINE_FORMAT:
        raise BenchmarkError(f"{path}: not a speed baseline (format {BASELINE_FORMAT!r} expected)")
    if document.get("version") != BASELINE_FORMAT_VERSION:
        raise BenchmarkError(
            f"{path}: baseline version {document.get('version')!r}, this program reads "
            f"{BASELINE_FORMAT_VERSION}; record it again with --update-baseline"
        )
    try:
        tolerance = float(document["tolerance"])
        ratios = {(language, figure): float(ratio)
                  for language, by_figure in document["ratios"].items() for figure, ratio in by_figure.items()}
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        raise BenchmarkError(f"{path}: malformed baseline ({type(exc).__name__}: {exc}); record it again with --update-baseline") from None
    for (language, figure), ratio in ratios.items():
        if not ratio > 0:
            raise BenchmarkError(f"{path}: ratio {language}/{figure} = {ratio} is not positive; "
                                 "record the baseline again with --update-baseline")
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
            option = {"languages": "--languages", "max_lines": "--max-lines", "corpus_checksums": "--corpus-dir"}[key]
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


# ---------------------------------------------------------------- tables


def _mb_s_text(mb_s: float | None) -> str:
    """MB/s to two decimals; "-" when the clock saw no time (`metrics.throughput_mb_s` is None)."""
    return "-" if mb_s is None else f"{mb_s:.2f}"


def format_ratio_table(rows: Sequence[RatioRow | CheckedRow]) -> str:
    """Markdown: one line per language and figure; baseline columns when rows were checked."""
    checked = [r if isinstance(r, CheckedRow) else None for r in rows]
    with_baseline = any(c is not None for c in checked)
    header = "| language | figure | ours MB/s | tiktoken MB/s | ours / tiktoken | x tiktoken throughput |"
    rule = "|---|---|---:|---:|---:|---:|"
    if with_baseline:
        header += " baseline | change | verdict |"
        rule += "---:|---:|---|"
    lines = [header, rule]
    for item, check in zip(rows, checked):
        row = check.row if check is not None else item
        line = (f"| {row.language} | {row.figure} | {_mb_s_text(row.ours_mb_s)} | {_mb_s_text(row.tiktoken_mb_s)} "
                f"| {row.ratio:.2f} | {row.x_tiktoken:.2f}x |")
        if with_baseline:
            if check is None or check.baseline_ratio is None:
                line += " - | - | new |"
            else:
                line += f" {check.baseline_ratio:.2f} | {check.change:+.0%} | {check.verdict} |"
        lines.append(line)
    return "\n".join(lines)


def summarise_unseen(rows: Sequence[RatioRow]) -> str:
    """The issue's targets on unseen text: >= 0.2x tiktoken everywhere, >= 0.3x on the median."""
    unseen = [r for r in rows if r.figure == "unseen"]
    if not unseen:
        return ""
    worst = min(unseen, key=lambda r: r.x_tiktoken)
    median = statistics.median(r.x_tiktoken for r in unseen)
    return (f"unseen text: worst {worst.x_tiktoken:.2f}x tiktoken ({worst.language}; target >= 0.2x), "
            f"median {median:.2f}x (target >= 0.3x)")


# ---------------------------------------------------------------- the other figures


@dataclass(frozen=True)
class ScalingRow:
    n_chars: int
    seconds: float  # median, one call on "a" * n_chars with an empty cache
    growth: float | None  # seconds / seconds at the previous (10x smaller) size


def measure_scaling(sizes: Sequence[int] = SCALING_SIZES, *, repeats: int = 3, model=None) -> list[ScalingRow]:
    """Time one `encode("a" * n)` per size (cache emptied first): the issue asks <= 15x per 10x."""
    from benchmark.bpe import ByteLevelBPE

    model = model or ByteLevelBPE.from_tiktoken(ENCODING)
    rows: list[ScalingRow] = []
    for n in sizes:
        text = "a" * n
        times = []
        for _ in range(repeats):
            times.append(measure_throughput(model.encode_ordinary, (), (text,), repeats=1,
                                            reset=model.clear_cache).median_seconds)
        seconds = statistics.median(times)
        growth = seconds / rows[-1].seconds if rows else None
        rows.append(ScalingRow(n, seconds, growth))
    return rows


def format_scaling(rows: Sequence[ScalingRow]) -> str:
    lines = ['| `"a" * n` | seconds | x previous size (target <= 15x per 10x) |', "|---:|---:|---:|"]
    for row in rows:
        growth = "-" if row.growth is None else f"{row.growth:.1f}x"
        lines.append(f"| {row.n_chars:,} | {row.seconds:.3f} | {growth} |")
    return "\n".join(lines)


@dataclass(frozen=True)
class TextbookRow:
    language: str
    n_lines: int
    textbook_seconds: float
    ours_seconds: float  # cold cache

    @property
    def factor(self) -> float:
        return self.textbook_seconds / self.ours_seconds


def textbook_reference() -> Callable | None:
    """`reference_encode`, the naive encoder of `benchmark.bpe.reference` (part of the package)."""
    from benchmark.bpe.reference import reference_encode

    return reference_encode


def measure_textbook(corpus: Sequence[LanguageTexts], *, vocab_size: int = 4096,
                     n_lines: int = TEXTBOOK_LINES) -> list[TextbookRow]:
    """Our encoder against the textbook one (replay every merge in order) on a model we trained.

    The model is trained to `vocab_size` on the dev split of every language; the timed text is
    the first `n_lines` devtest lines (the textbook encoder is too slow for the whole file).
    Empty when the reference is not available (an installed package has no tests/).
    """
    from benchmark.bpe import ByteLevelBPE
    from benchmark.bpe.patterns import compile_pattern

    reference_encode = textbook_reference()
    if reference_encode is None:
        return []
    model = ByteLevelBPE.train([t for texts in corpus for t in texts.dev], vocab_size)
    pattern = compile_pattern(model.pattern)
    rows = []
    for texts in corpus:
        lines = texts.devtest[:n_lines]
        started = time.perf_counter()
        expected = [reference_encode(text, model.merges, pattern) for text in lines]
        textbook_seconds = time.perf_counter() - started
        ours = measure_throughput(model.encode_ordinary, (), lines, repeats=3, reset=model.clear_cache)
        if [model.encode_ordinary(text) for text in lines] != expected:
            raise BenchmarkError(f"{texts.language}: our encoder and the textbook one disagree; run the BPE tests")
        rows.append(TextbookRow(texts.language, len(lines), textbook_seconds, ours.median_seconds))
    return rows


def format_textbook(rows: Sequence[TextbookRow]) -> str:
    lines = ["| language | lines | textbook s | ours s (cold) | ours faster by |", "|---|---:|---:|---:|---:|"]
    for row in rows:
        lines.append(f"| {row.language} | {row.n_lines} | {row.textbook_seconds:.3f} | {row.ours_seconds:.4f} "
                     f"| {row.factor:.0f}x |")
    return "\n".join(lines)


# ---------------------------------------------------------------- the command


@dataclass(frozen=True)
class SpeedOptions:
    check: bool = False
    update_baseline: bool = False
    baseline: Path = DEFAULT_BASELINE
    tolerance: float | None = None  # None: the baseline's own (or DEFAULT_TOLERANCE when writing one)
    figure_tolerance: float = DEFAULT_FIGURE_TOLERANCE
    repeats: int | None = None  # None: DEFAULT_REPEATS, or BASELINE_REPEATS when updating the baseline
    languages: tuple[str, ...] = LANGUAGES
    corpus_dir: Path = FLORES_DIR
    max_lines: int | None = None
    ratios_only: bool = False
    clock: str = "cpu"  # a key of CLOCKS


def speed(options: SpeedOptions, *, out: TextIO | None = None,
          engines: tuple[Engine, Engine] | None = None) -> int:
    """Measure and print; return 1 when `check` finds a ratio worse than the baseline, else 0."""
    out = out or sys.stdout
    if options.check and options.update_baseline:
        raise BenchmarkError("--check and --update-baseline exclude each other: check first, then update")
    repeats = options.repeats or (BASELINE_REPEATS if options.update_baseline else DEFAULT_REPEATS)
    corpus, text = load_texts(options.languages, corpus_dir=options.corpus_dir, max_lines=options.max_lines)
    if options.clock not in CLOCKS:
        raise BenchmarkError(f"unknown clock {options.clock!r}; use one of {', '.join(CLOCKS)}")
    baseline = None
    if options.check:
        # Before measuring: a check that cannot be judged fails in a second, not a minute.
        baseline = load_baseline(options.baseline)
        if baseline.info.get("clock", "cpu") != options.clock:
            raise BenchmarkError(f"{options.baseline} was measured with the {baseline.info.get('clock')} clock; "
                                 f"check with --clock {baseline.info.get('clock')}, or record a new baseline")
        check_same_text(baseline, text, path=options.baseline)
    print(f"## Encoder speed: ours / tiktoken {ENCODING}, median of {repeats} interleaved repeats "
          f"({options.clock} time)\n", file=out)
    rows = measure_ratios(corpus, repeats=repeats, engines=engines, clock=CLOCKS[options.clock])
    status = 0
    if baseline is not None:
        checked = check_ratios(rows, baseline, tolerance=options.tolerance)
        print(format_ratio_table(checked), file=out)
        tolerance = checked[0].tolerance if checked else baseline.tolerance
        slower = [c for c in checked if c.regressed]
        figures = check_figures(checked, tolerance=options.figure_tolerance)
        print(f"\n{summarise_unseen(rows)}", file=out)
        if figures:
            means = ", ".join(f"{f.figure} {f.change:+.1%}" for f in figures)
            print(f"mean change per figure over {figures[0].n_languages} languages: {means} "
                  f"(tolerance {options.figure_tolerance:.0%})", file=out)
        if slower:
            names = ", ".join(f"{c.row.language}/{c.row.figure} {c.change:+.0%}" for c in slower)
            print(f"FAIL: {len(slower)} ratio(s) worse than {options.baseline.name} by more than "
                  f"{tolerance:.0%}: {names}", file=out)
            status = 1
        if any(f.regressed for f in figures):
            names = ", ".join(f"{f.figure} {f.change:+.1%}" for f in figures if f.regressed)
            print(f"FAIL: figure(s) worse on average over the languages than {options.baseline.name} by more "
                  f"than {options.figure_tolerance:.0%}: {names}", file=out)
            status = 1
        if not status:
            means = f", every figure's mean within {options.figure_tolerance:.0%}" if figures else ""
            print(f"OK: every ratio within {tolerance:.0%} of {options.baseline.name}{means} "
                  f"(recorded {baseline.info.get('date', '?')})", file=out)
    else:
        print(format_ratio_table(rows), file=out)
        print(f"\n{summarise_unseen(rows)}", file=out)
    if options.update_baseline:
        tolerance = options.tolerance if options.tolerance is not None else DEFAULT_TOLERANCE
        save_baseline(baseline_from_rows(rows, tolerance=tolerance, repeats=repeats, clock=options.clock,
                                         text=text), options.baseline)
        print(f"wrote {options.baseline} (tolerance {tolerance:.0%})", file=out)
    if options.check or options.ratios_only:
        return status
    print("\n### Scaling on `\"a\" * n` (ours, cold cache, median of 3)\n", file=out)
    print(format_scaling(measure_scaling()), file=out)
    textbook = measure_textbook(corpus)
    print("\n### Against the textbook encoder (bpe/cl100k-4096 trained on dev; "
          f"first {TEXTBOOK_LINES} devtest lines)\n", file=out)
    print(format_textbook(textbook) if textbook else "not measured: tests/bpe_reference.py is not here "
          "(run from a checkout)", file=out)
    print("\n### Training on the six dev files against HuggingFace `tokenizers` (median of 3)\n", file=out)
    print(_training_table(options), file=out)
    return status


def _training_table(options: SpeedOptions) -> str:
    try:
        from benchmark import speed_train
    except ImportError:
        return "not measured: benchmark/speed_train.py is missing"
    corpus = load_flores(options.languages, corpus_dir=options.corpus_dir, max_lines=options.max_lines)
    texts = [text for language in corpus for text in language.dev]
    n_bytes = sum(len(text.encode("utf-8")) for text in texts)
    rows = speed_train.compare_training(texts, [4096, 16384], repeats=3)
    return f"{len(texts)} lines, {n_bytes / 1e6:.2f} MB\n\n" + speed_train.format_rows(rows)


def add_text_arguments(parser: argparse.ArgumentParser) -> None:
    """--languages, --corpus-dir and --max-lines: which FLORES-200 text a speed figure measures."""
    parser.add_argument("--languages", type=lambda v: tuple(x for x in v.split(",") if x), default=LANGUAGES,
                        metavar="CODES", help="comma-separated FLORES-200 codes (default: the six)")
    parser.add_argument("--corpus-dir", type=Path, default=FLORES_DIR, metavar="DIR",
                        help="a FLORES-200 folder with dev/ and devtest/ (default: the bundled one)")
    parser.add_argument("--max-lines", type=positive_int, metavar="N", help="only the first N lines of each file")


def add_speed_parser(subparsers) -> argparse.ArgumentParser:
    """Register the `speed` verb on the CLI's subparsers; its handler is `run_speed`."""
    parser = subparsers.add_parser(
        "speed", help="our encoder's speed as ratios to tiktoken; --check against the baseline",
        description="Time our BPE against tiktoken cl100k_base on FLORES-200 devtest (unseen, cold, "
                    "repeat); print Markdown. --check exits 1 when a ratio is worse than the baseline "
                    "by more than its tolerance, or a figure's ratios by more than --figure-tolerance on "
                    "average over the languages.",
    )
    parser.add_argument("--check", action="store_true",
                        help="compare the ratios with the baseline; exit 1 on a regression (ratios only)")
    parser.add_argument("--update-baseline", action="store_true", help="write the measured ratios as the baseline")
    parser.add_argument("--baseline", type=Path, default=DEFAULT_BASELINE, metavar="PATH",
                        help="the baseline file (default benchmark/speed_baseline.json)")
    parser.add_argument("--tolerance", type=share, metavar="SHARE",
                        help=f"allowed growth of a ratio, e.g. 0.25 or 25%% (default: the baseline's; "
                             f"{DEFAULT_TOLERANCE * 100:.0f}%% for a new one)")
    parser.add_argument("--figure-tolerance", type=share, metavar="SHARE", default=DEFAULT_FIGURE_TOLERANCE,
                        help="allowed growth of a figure's ratios averaged over the languages (geometric "
                             f"mean; judged with {MIN_LANGUAGES_FOR_MEAN} languages or more; default "
                             f"{DEFAULT_FIGURE_TOLERANCE * 100:.0f}%%)")
    parser.add_argument("--repeats", type=positive_int, metavar="N",
                        help=f"interleaved repeats per figure (default {DEFAULT_REPEATS}; "
                             f"{BASELINE_REPEATS} with --update-baseline)")
    add_text_arguments(parser)
    parser.add_argument("--clock", choices=sorted(CLOCKS), default="cpu",
                        help="cpu: process CPU time, immune to other processes taking the core (default); wall")
    parser.add_argument("--ratios-only", action="store_true",
                        help="skip scaling, textbook and training figures (quicker)")
    parser.set_defaults(handler=_handler)
    return parser


def run_speed(args: argparse.Namespace, *, out: TextIO | None = None) -> int:
    """The `speed` verb: unpack the parsed arguments into `speed`; returns the exit status."""
    options = SpeedOptions(
        check=args.check, update_baseline=args.update_baseline, baseline=args.baseline, tolerance=args.tolerance,
        figure_tolerance=args.figure_tolerance,
        repeats=args.repeats, languages=tuple(args.languages), corpus_dir=args.corpus_dir,
        max_lines=args.max_lines, ratios_only=args.ratios_only, clock=args.clock,
    )
    return speed(options, out=out)


def _handler(args: argparse.Namespace) -> int:
    return run_speed(args)


def main(argv: Sequence[str] | None = None) -> int:
    """`python -m benchmark.speed ...`: the same verb without the rest of the CLI."""
    parser = argparse.ArgumentParser(prog="python -m benchmark.speed")
    add_speed_parser(parser.add_subparsers(dest="verb", required=True))
    args = parser.parse_args(["speed", *(sys.argv[1:] if argv is None else argv)])
    try:
        return run_speed(args)
    except BenchmarkError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())

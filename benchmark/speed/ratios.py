"""How fast our encoder is, as ratios to tiktoken that survive a busy machine.

Absolute seconds drift between machines and between runs on one machine, so the figure we track
is our encode time divided by the yardstick's, tiktoken (`cl100k_base`, the same ranks and pattern), on the same
text, measured interleaved in one process: a busy neighbour slows both alike and the ratio keeps.
It does not keep across machines (an interpreter and compiled code slow down differently), so a
baseline is re-recorded on the machine that checks (baseline.py); instructions.py counts
instructions instead, which no machine moves.

Per FLORES-200 devtest language, three figures, each sentence encoded on its own, through
`benchmark.measure.timing.measure_throughput` (the code the harness's throughput table uses):

- unseen: empty the cache, encode the language's dev split, then time devtest (the realistic case);
- cold:   empty the cache, time devtest;
- repeat: empty the cache, encode devtest, time devtest again (every pre-token cached).

tiktoken goes through the same steps (it has no cache, so its three times differ only by noise).
Every repeat times ours and tiktoken back to back, alternating which goes first; a figure's ratio
is the median over repeats of (ours / tiktoken) of one pair, which cancels slow drifts of the
machine better than a ratio of medians taken minutes apart.

subtle: the clock is the process's CPU time by default, not the wall clock. On a shared machine
the OS hands our core to other processes now and then; a short tiktoken pass often fits between
two such interruptions while our pass, several times longer, does not, so wall-clock ratios swing
with the load (docs/speed.md). CPU time leaves out the time we were not running; both encoders
are single-threaded, so otherwise it equals the wall time. The wall clock is there too.

tiktoken is built from the offline rank files (never `get_encoding`, which downloads).
"""

from __future__ import annotations

import statistics
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Sequence

from benchmark.results import metrics
from benchmark.corpora import (
    BUNDLED_CORPUS_DIR,
    FLORES_LANGUAGES,
    language_name,
    list_corpus_languages,
    load_corpus,
    resolve_codes,
)
from benchmark.plumbing.errors import BenchmarkError
from benchmark.measure.timing import measure_throughput

FIGURES = ("unseen", "cold", "repeat")
ENCODING = "cl100k_base"
SPEED_REPEATS = 9  # interleaved repeats per ratio (a run's timed repeats are plan.TIMED_REPEATS)
CLOCKS: dict[str, Callable[[], float]] = {"cpu": time.process_time, "wall": time.perf_counter}
DEFAULT_CLOCK = "cpu"
# What identifies the measured text (`load_texts`); a baseline records it and a check must match it.
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


def load_texts(
    languages: Sequence[str] = FLORES_LANGUAGES, *, corpus_dir: Path = BUNDLED_CORPUS_DIR,
    max_lines: int | None = None,
) -> tuple[list[LanguageTexts], dict[str, Any]]:
    """Dev and devtest lines of each language (the first `max_lines` of each if set), and what
    identifies that text: languages, `max_lines` and the files' SHA-256 (TEXT_KEYS).

    Read by `benchmark.corpora` (strict UTF-8, aligned lines, and the pinned SHA-256 sums when
    `corpus_dir` is the bundled corpus), so the timed text is the text the harness measures."""
    # Codes as the run takes them: `hin` is hin_Deva, `all` every language of the corpus.
    codes = resolve_codes(languages, list_corpus_languages(Path(corpus_dir)), where=str(corpus_dir),
                          name_of=language_name)
    corpus = load_corpus(Path(corpus_dir), codes)
    if "dev" not in corpus.splits or "devtest" not in corpus.splits:
        raise BenchmarkError(f"{corpus_dir}: needs dev/ and devtest/ (a FLORES-200 layout) for the speed figures")
    texts = [LanguageTexts(code, corpus.lines("dev", code)[:max_lines], corpus.lines("devtest", code)[:max_lines])
             for code in corpus.languages]
    identity = {"languages": list(corpus.languages), "max_lines": max_lines,
                "corpus_checksums": dict(sorted(corpus.checksums.items()))}
    return texts, identity


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
    yardstick = tiktoken_encoding(name)
    return (
        Engine(f"bpe/{name}", ours.encode_ordinary, ours.clear_cache),
        Engine(f"tiktoken/{name}", yardstick.encode_ordinary, None),
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
    repeats: int = SPEED_REPEATS,
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
    ours, yardstick = engines or default_engines()
    rows = []
    for texts in corpus:
        if check_ids:
            _check_same_ids(ours, yardstick, texts)
        for figure in figures:
            warm = _warm_texts(texts, figure)
            ours_seconds, yardstick_seconds = [], []
            n_tokens = 0
            for repeat in range(repeats):
                # Alternate who goes first, so neither always runs right after the other's garbage.
                order = (ours, yardstick) if repeat % 2 == 0 else (yardstick, ours)
                for engine in order:
                    result = measure_throughput(engine.encode, warm, texts.devtest, repeats=1,
                                                reset=engine.reset, clock=clock)
                    if engine is ours:
                        ours_seconds.append(result.median_seconds)
                        n_tokens = result.n_tokens
                    else:
                        yardstick_seconds.append(result.median_seconds)
            rows.append(RatioRow(texts.language, figure, tuple(ours_seconds), tuple(yardstick_seconds),
                                 texts.n_bytes, n_tokens))
    return rows


def _check_same_ids(ours: Engine, yardstick: Engine, texts: LanguageTexts) -> None:
    for line_number, text in enumerate(texts.devtest, start=1):
        if list(ours.encode(text)) != list(yardstick.encode(text)):
            raise BenchmarkError(
                f"{texts.language} devtest line {line_number}: {ours.name} and {yardstick.name} give "
                "different ids; fix the encoder (tests/bpe/) before timing it"
            )

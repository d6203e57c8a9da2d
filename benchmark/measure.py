"""Runs the tokenizers over the corpora: counts, round-trips, timings -> `Results`.

The protocol:
- Trained tokenizers learn from the training corpus's `dev` split (the bundled FLORES-200 unless
  `--train-corpus`), all selected languages together, an equal share each: the same number of
  lines per language. The corpus is parallel, so equal lines means equal content; equal bytes
  would instead give scripts with more bytes per sentence fewer sentences.
- Every measurement is on `devtest` (or, for a user corpus without splits, the whole corpus,
  while training stays on the other corpus): no measurement sees training text. That is checked
  line by line, not assumed from folder names: a run with trained tokenizers is refused if more
  than 5% of a language's measured lines are training text, and the report counts the few others.
- Each sentence is encoded on its own as plain text; `n_tokens` is the sum.
- A user corpus trains (and, without a dev split, warms up) on the training corpus's counterpart
  of each language: the same code or the same language part (`eng` -> `eng_Latn`). Languages
  without one leave the training to the others; if none has one, all training languages are used.
- Throughput: `benchmark.timing.measure_throughput`, single thread, median of repeats, with the
  language's `dev` split encoded first so the timed text is unseen (see timing.py); a language
  with neither a dev split nor a counterpart is timed cold (`settings.timing.warm_up` says so).
  Every repeat also times tiktoken's `cl100k_base` (the yardstick) on the same sentences, the two
  taking turns: `throughput_x_tiktoken` is the median of the repeats' ratios, the figure that
  survives a machine whose speed changes from one second to the next. The clock is CPU time
  (the wall clock on Windows; see RUN_CLOCK).

Only this module and the CLI talk to the outside (files, clocks, progress bars); the numbers
come from the pure functions in metrics.py.
"""

from __future__ import annotations

import datetime as _dt
import os
import platform
import sys
import time
from contextlib import contextmanager
from dataclasses import dataclass
from importlib import metadata as _metadata
from pathlib import Path
from typing import Any, Iterator, Sequence

from benchmark import metrics
from benchmark.adapters import (
    DEFAULT_VOCAB_SIZES,
    PRETRAINED,
    Adapter,
    Skipped,
    TrainingCache,
    TrainingText,
    build_tokenizers,
    check_tokenizer_files,
    default_cache_dir,
    file_id,
    load_tokenizer_file,
    select_ids,
)
from benchmark.corpora import (
    BUNDLED_CORPUS_DIR,
    ENGLISH_CODES,
    ISO_639_1,
    Corpus,
    english_code,
    language_name,
    list_corpus_languages,
    load_corpus,
)
from benchmark.errors import BenchmarkError
from benchmark.results import Results, ResultRow, RunRecord
from benchmark.timing import YARDSTICK_CHUNK_TEXTS, machine_info, measure_throughput

QUICK_SENTENCES = 200  # --quick: lines per language, for training and for measuring
QUICK_VOCAB_SIZES = (1024, 4096)
DEFAULT_REPEATS = 3
# Above this share of a language's measured lines found word for word in the training text, a run
# with trained tokenizers is refused: that is measuring on training data. Below it (a few common
# lines such as "Yes." in two unrelated corpora) the report gives the count.
MAX_SHARE_MEASURED_IN_TRAINING = 0.05
EXAMPLE_MIN_CHARS = 40  # the example sentence: the shortest reference line at least this long
# Timed in turns with every tokenizer: tiktoken has no cache, loads offline, and is the
# production encoder most readers know.
YARDSTICK_ID = "tiktoken/cl100k_base"
# The process's CPU time, as `benchmark.speed` uses: every encoder runs on one thread, so on an idle
# machine it equals the wall time, and on a busy one it leaves out the time the OS gave to other
# processes, which stretched a long pass more than a short one (benchmark/speed/ratios.py). Not on
# Windows, whose process times move in steps of 15.6 ms, several times a turn of tiktoken's.
RUN_CLOCK, RUN_CLOCK_NAME = ((time.perf_counter, "wall clock (time.perf_counter)") if sys.platform == "win32"
                             else (time.process_time, "CPU time of the process (time.process_time)"))

SUITE_PACKAGE = "tokencost-benchmark"  # this suite's own distribution name (pyproject.toml)
PACKAGES = (SUITE_PACKAGE, "tiktoken", "bpe-openai", "sentencepiece", "tokenizers", "regex", "numpy", "rich",
            "pandas", "matplotlib", "seaborn")


@dataclass(frozen=True)
class RunConfig:
    """Everything that decides the numbers of a run (the CLI's options, unpacked)."""

    languages: tuple[str, ...] | None = None  # None: every language of the corpus
    reference: str | None = None  # None: the corpus's English code
    vocab_sizes: tuple[int, ...] = DEFAULT_VOCAB_SIZES
    tokenizers: tuple[str, ...] | None = None  # ids or patterns; None: all
    tokenizer_files: tuple[Path, ...] = ()
    tokenizer_file_pattern: str = "cl100k"  # pre-tokeniser regex for bare tiktoken rank files
    corpus_dir: Path | None = None  # None: the bundled FLORES-200
    train_corpus_dir: Path | None = None  # None: the bundled FLORES-200
    max_sentences: int | None = None  # cap on lines per language (training and measuring)
    repeats: int = DEFAULT_REPEATS
    cache_dir: Path | None = None  # None: default_cache_dir()
    retrain: bool = False
    quick: bool = False
    train_only: bool = False  # `train`: the corpus is only trained on, never measured

    @classmethod
    def quick_defaults(cls, **overrides: Any) -> RunConfig:
        values = {"vocab_sizes": QUICK_VOCAB_SIZES, "max_sentences": QUICK_SENTENCES, "quick": True}
        values.update({k: v for k, v in overrides.items() if v is not None})
        return cls(**values)


@dataclass
class Measurement:
    """One tokenizer on one language, before the premium (which needs the reference's counts)."""

    tokens_per_line: list[int]
    n_unk: int
    n_byte_fallback: int
    n_roundtrip: int
    vocab_utilisation: float | None
    throughput_mb_s: float | None
    tokens_per_second: float | None
    repeat_seconds: tuple[float, ...] = ()
    throughput_x_tiktoken: float | None = None


@dataclass(frozen=True)
class Plan:
    """What a run will do, resolved from the config: corpora, languages, texts, tokenizer ids."""

    corpus: Corpus
    train_corpus: Corpus
    languages: tuple[str, ...]
    reference: str | None  # None only for `train` on a corpus without English (no premium)
    train_languages: tuple[str, ...]
    train_language_of: dict[str, str]  # measured language -> its counterpart in the training corpus
    measure_texts: dict[str, tuple[str, ...]]
    warm_texts: dict[str, tuple[str, ...]]
    warm_source: dict[str, str]  # language -> where its warm-up text comes from (for the record)
    training: TrainingText
    tokenizer_ids: tuple[str, ...]
    # measured language -> how many of its measured lines occur, word for word, in the training text
    n_measured_in_training: dict[str, int]


# ---------------------------------------------------------------- planning


def _corpus_root(path: Path | None) -> Path:
    return Path(path) if path is not None else BUNDLED_CORPUS_DIR


def _display_path(path: Path) -> str:
    """The bundled corpus as a repository path (same on every machine), a user's as given."""
    try:
        return str(Path(path).resolve().relative_to(BUNDLED_CORPUS_DIR.parent.parent))
    except ValueError:
        return str(path)


def resolve_languages(root: Path, languages: Sequence[str] | None, reference: str | None, *,
                      need_reference: bool = True) -> tuple[tuple[str, ...] | None, str | None]:
    """The languages to load (the reference is always measured: the premium needs it).

    `need_reference=False` (training only: no premium) makes a corpus without English fine; the
    reference is then the English code if there is one, else None."""
    available = list_corpus_languages(root)  # a folder it cannot load raises load_corpus's own error
    if reference is None and not need_reference:
        try:
            reference = english_code(available)
        except BenchmarkError:
            reference = None  # en.txt beside EN.txt: no premium is computed here, so no choice is needed
        return (tuple(dict.fromkeys(languages)) if languages is not None else None), reference
    if reference is None:
        reference = english_code(available)
        if reference is None:
            raise BenchmarkError(
                f"{root}: no English file ({', '.join(ENGLISH_CODES)}, in any case) to measure the premium "
                f"against; pick one of {', '.join(available) or '(none found)'} with --reference CODE"
            )
    elif reference not in available:
        raise BenchmarkError(
            f"{root}: unknown reference language {reference!r}; this corpus has {', '.join(available)}"
        )
    if languages is None:
        return None, reference
    selected = list(dict.fromkeys(languages))
    if reference not in selected:
        selected.insert(0, reference)
    return tuple(selected), reference


def plan_run(config: RunConfig) -> Plan:
    root = _corpus_root(config.corpus_dir)
    load_languages, reference = resolve_languages(root, config.languages, config.reference,
                                                  need_reference=not config.train_only)
    corpus = load_corpus(root, load_languages)
    languages = corpus.languages

    train_root = _corpus_root(config.train_corpus_dir)
    same_corpus = train_root.resolve() == root.resolve()
    if same_corpus:
        train_corpus = corpus
        counterpart = {code: code for code in languages}
    else:
        # Learn the measured languages where the training corpus has them, under their own code
        # or one it starts (a user's `eng` is FLORES's `eng_Latn`); a user corpus of codes FLORES
        # does not know at all (e.g. `hin`) trains on all of FLORES's languages instead.
        counterpart = match_languages(languages, list_corpus_languages(train_root))
        wanted = list(dict.fromkeys(counterpart.values())) or None
        train_corpus = load_corpus(train_root, wanted)
    # Only tokenizers this run trains must not be measured on their training text.
    trains = not config.train_only and needs_training(config)
    if same_corpus and trains and corpus.train_split == corpus.measure_split:
        raise BenchmarkError(
            f"{root}: has no dev/ and devtest/ subfolders, so training on it would measure on "
            "training text; add the subfolders or train elsewhere with --train-corpus DIR"
        )
    train_languages = tuple(dict.fromkeys(counterpart.values())) or train_corpus.languages

    limit = config.max_sentences
    measure_texts = {code: corpus.lines(corpus.measure_split, code)[:limit] for code in languages}
    train_split = train_corpus.train_split
    # Equal share: the same number of lines from every language (parallel lines: same content).
    n_train = min(len(train_corpus.lines(train_split, code)) for code in train_languages)
    if limit is not None:
        n_train = min(n_train, limit)
    training = TrainingText.of(
        line for code in train_languages for line in train_corpus.lines(train_split, code)[:n_train]
    )

    # Warm-up before timing (the "unseen text" protocol): the language's own dev split; a corpus
    # without one borrows the training corpus's lines of the same language (as many as are
    # measured); a language the training corpus lacks warms up on nothing, i.e. is timed cold
    # (warming a Korean encoder on English would fill its cache with the wrong words).
    warm_texts: dict[str, tuple[str, ...]] = {}
    warm_source: dict[str, str] = {}
    for code in languages:
        if "dev" in corpus.splits:
            warm_texts[code] = corpus.lines("dev", code)[:limit]
            warm_source[code] = f"dev split of {corpus.name}"
        elif code in counterpart:
            source = counterpart[code]
            warm_texts[code] = train_corpus.lines(train_split, source)[: len(measure_texts[code])]
            warm_source[code] = f"{train_split} split of {train_corpus.name} ({source})"
        else:
            warm_texts[code] = ()
            warm_source[code] = ("none: timed cold (no dev split here and no counterpart in "
                                 f"{train_corpus.name})")

    # The report says no measurement sees training text: check it line by line, whatever the
    # folders are called (another folder can hold the same text).
    training_lines = set(training.texts)
    n_measured_in_training = {code: sum(line in training_lines for line in measure_texts[code])
                              for code in languages}
    if trains:
        for code in languages:
            share = n_measured_in_training[code] / max(1, len(measure_texts[code]))
            if share > MAX_SHARE_MEASURED_IN_TRAINING:
                raise BenchmarkError(
                    f"{corpus.root}: {n_measured_in_training[code]} of the {len(measure_texts[code])} {code} lines "
                    f"measured are also training text in {train_corpus.root} ({train_split} split); measure "
                    "on text the trained tokenizers have not seen (a corpus with dev/ and devtest/ "
                    "trains on dev and measures devtest)"
                )

    # Seconds, not minutes: a missing or unreadable tokenizer file fails before any training.
    check_tokenizer_files(config.tokenizer_files, pattern=config.tokenizer_file_pattern)
    ids = select_ids(config.tokenizers, config.vocab_sizes, [file_id(p) for p in config.tokenizer_files])
    return Plan(
        corpus=corpus, train_corpus=train_corpus, languages=languages, reference=reference,
        train_languages=train_languages, train_language_of=counterpart, measure_texts=measure_texts, warm_texts=warm_texts,
        warm_source=warm_source, training=training, tokenizer_ids=tuple(ids),
        n_measured_in_training=n_measured_in_training,
    )


def match_languages(codes: Sequence[str], available: Sequence[str]) -> dict[str, str]:
    """Each code's counterpart among `available`: the same code, else the one code with the same
    language part, the part before "_" in any case, a two-letter code read as its three-letter one
    (`eng` -> `eng_Latn`, `eng_Latf` -> `eng_Latn`, `ru` -> `rus_Cyrl`). A code with no
    counterpart, or with several (`zho` -> `zho_Hans`, `zho_Hant`), is left out.

    >>> match_languages(["eng", "ru", "hin"], ["eng_Latn", "rus_Cyrl"])
    {'eng': 'eng_Latn', 'ru': 'rus_Cyrl'}
    """

    def language_part(code: str) -> str:
        part = code.split("_")[0].lower()
        return ISO_639_1.get(part, part)

    matched = {}
    for code in codes:
        if code in available:
            matched[code] = code
            continue
        base = language_part(code)
        candidates = [other for other in available if language_part(other) == base]
        if len(candidates) == 1:
            matched[code] = candidates[0]
    return matched


def needs_training(config: RunConfig) -> bool:
    """Whether the run has tokenizers trained by this program (not pretrained, not from a file)."""
    ids = select_ids(config.tokenizers, config.vocab_sizes, [file_id(p) for p in config.tokenizer_files])
    return any(i not in PRETRAINED and not i.startswith("file/") for i in ids)


# ---------------------------------------------------------------- measuring


def measure_language(adapter: Adapter, texts: Sequence[str], warm_texts: Sequence[str], *,
                     repeats: int, yardstick: Adapter | None = None) -> Measurement:
    """Time, and count from the last timed pass (the ids do not depend on the cache).

    `yardstick` (an adapter without a cache) is timed in turns with the adapter in every repeat."""
    reset = adapter.reset_cache if adapter.has_cache else None
    restorer = getattr(adapter, "cache_restorer", None)
    if reset is not None and restorer is not None:
        # Same protocol, cheaper: warm up once, then restore that warm cache before each repeat.
        adapter.reset_cache()
        for text in warm_texts:
            adapter.encode(text)
        reset = restorer()
        if reset is not None:
            warm_texts = ()
        else:
            reset = adapter.reset_cache
    if yardstick is not None and yardstick.has_cache:
        raise ValueError(f"the yardstick {yardstick.id} keeps a cache: it would be timed on text it has seen")
    timing = measure_throughput(adapter.encode, warm_texts, texts, repeats=repeats, keep_ids=True, reset=reset,
                                clock=RUN_CLOCK, yardstick=yardstick.encode if yardstick is not None else None)
    ids_per_line = list(timing.ids)
    n_roundtrip = sum(1 for text, ids in zip(texts, ids_per_line) if adapter.decode(ids) == text)
    unk = frozenset() if adapter.unk_id is None else frozenset({adapter.unk_id})
    return Measurement(
        tokens_per_line=[len(ids) for ids in ids_per_line],
        n_unk=metrics.count_in(ids_per_line, unk),
        n_byte_fallback=metrics.count_in(ids_per_line, adapter.byte_fallback_ids),
        n_roundtrip=n_roundtrip,
        vocab_utilisation=metrics.vocab_utilisation(ids_per_line, adapter.vocab_size),
        throughput_mb_s=timing.throughput_mb_s,
        tokens_per_second=timing.tokens_per_second,
        repeat_seconds=timing.repeat_seconds,
        throughput_x_tiktoken=timing.x_yardstick,
    )


def build_row(adapter: Adapter, language: str, texts: Sequence[str], m: Measurement,
              reference: Measurement) -> ResultRow:
    n_tokens = sum(m.tokens_per_line)
    n_bytes = sum(len(t.encode("utf-8")) for t in texts)
    n_chars = sum(len(t) for t in texts)
    ci = metrics.premium_ci(m.tokens_per_line, reference.tokens_per_line)
    return ResultRow(
        tokenizer=adapter.id,
        family=adapter.family,
        vocab_size=adapter.vocab_size,
        language=language,
        n_sentences=len(texts),
        n_tokens=n_tokens,
        n_bytes=n_bytes,
        n_chars=n_chars,
        bytes_per_token=metrics.bytes_per_token(n_bytes=n_bytes, n_tokens=n_tokens),
        chars_per_token=metrics.chars_per_token(n_chars=n_chars, n_tokens=n_tokens),
        tokens_per_sentence=metrics.tokens_per_sentence(n_tokens=n_tokens, n_sentences=len(texts)),
        premium=metrics.premium(m.tokens_per_line, reference.tokens_per_line),
        premium_ci_low=ci[0] if ci else None,
        premium_ci_high=ci[1] if ci else None,
        # None, not 0.0, when the model has no unknown token (as byte_fallback_rate without byte pieces).
        unk_rate=metrics.share(m.n_unk, n_tokens) if adapter.unk_id is not None else None,
        byte_fallback_rate=metrics.share(m.n_byte_fallback, n_tokens) if adapter.byte_fallback_ids else None,
        roundtrip_rate=metrics.share(m.n_roundtrip, len(texts)),
        vocab_utilisation=m.vocab_utilisation,
        train_seconds=adapter.train_seconds,
        throughput_mb_s=m.throughput_mb_s,
        tokens_per_second=m.tokens_per_second,
        throughput_x_tiktoken=m.throughput_x_tiktoken,
        embedding_params=metrics.embedding_params(adapter.vocab_size),
        status="ok",
    )


def skipped_row(skipped: Skipped, language: str, texts: Sequence[str]) -> ResultRow:
    return ResultRow(
        tokenizer=skipped.id, family=skipped.family, vocab_size=skipped.vocab_size, language=language,
        n_sentences=len(texts), n_tokens=0, n_bytes=sum(len(t.encode("utf-8")) for t in texts),
        n_chars=sum(len(t) for t in texts), bytes_per_token=None, chars_per_token=None,
        tokens_per_sentence=None, premium=None, premium_ci_low=None, premium_ci_high=None,
        unk_rate=None, byte_fallback_rate=None, roundtrip_rate=None, vocab_utilisation=None,
        train_seconds=None, throughput_mb_s=None, tokens_per_second=None, throughput_x_tiktoken=None,
        embedding_params=metrics.embedding_params(skipped.vocab_size), status=f"skipped: {skipped.reason}",
    )


def _short_of_target(adapter: Adapter, requested: int | None) -> Skipped | None:
    """A trained model that stopped below the size asked for (no pair left occurring twice) is
    not a model of that size: report it as skipped instead of a duplicate of a smaller one."""
    if requested is None or adapter.train_seconds is None or adapter.vocab_size >= requested:
        return None
    return Skipped(adapter.id, adapter.family, requested,
                   f"training text supports only {adapter.vocab_size} tokens (no pair left occurring twice)")


def choose_example_line(reference_texts: Sequence[str]) -> int:
    """The shortest reference sentence with at least EXAMPLE_MIN_CHARS characters (else the first)."""
    candidates = [(len(t), i) for i, t in enumerate(reference_texts) if len(t) >= EXAMPLE_MIN_CHARS]
    return min(candidates)[1] if candidates else 0


def run_benchmark(config: RunConfig, *, show_progress: bool = False) -> Results:
    """The whole job: plan, train (or read the cache), measure, and return the results."""
    plan = plan_run(config)
    cache = TrainingCache(Path(config.cache_dir) if config.cache_dir else default_cache_dir(),
                          enabled=not config.retrain)
    with _progress(show_progress) as progress:
        step = progress.task("training and loading tokenizers", total=None)
        # The user's files first: a damaged one fails before minutes of training.
        files = {file_id(p): Path(p) for p in config.tokenizer_files}
        from_files: list[Adapter | Skipped] = []
        for tokenizer_id in plan.tokenizer_ids:
            if tokenizer_id in files:
                progress.update(step, f"loading {files[tokenizer_id]}")
                from_files.append(load_tokenizer_file(files[tokenizer_id], pattern=config.tokenizer_file_pattern))
        trained_or_pretrained = [i for i in plan.tokenizer_ids if i not in files]
        tokenizers: list[Adapter | Skipped] = []
        if trained_or_pretrained:
            tokenizers = build_tokenizers(trained_or_pretrained, plan.training, cache,
                                          on_step=lambda label: progress.update(step, label))
        tokenizers += from_files

        requested = {i: int(i.rsplit("-", 1)[1]) for i in plan.tokenizer_ids if i.rsplit("-", 1)[-1].isdigit()}
        tokenizers = [(_short_of_target(t, requested.get(t.id)) or t) if isinstance(t, Adapter) else t
                      for t in tokenizers]

        ok = [t for t in tokenizers if isinstance(t, Adapter)]
        yardstick = _yardstick(ok, lambda label: progress.update(step, label)) if ok else None
        progress.update(step, f"{len(tokenizers)} tokenizers ready")
        progress.finish(step)
        measure_task = progress.task("measuring", total=len(ok) * len(plan.languages))
        rows: list[ResultRow] = []
        for tokenizer in tokenizers:
            if isinstance(tokenizer, Skipped):
                rows.extend(skipped_row(tokenizer, code, plan.measure_texts[code]) for code in plan.languages)
                continue
            measured: dict[str, Measurement] = {}
            for code in plan.languages:
                progress.update(measure_task, f"measuring {tokenizer.id} on {code}")
                measured[code] = measure_language(tokenizer, plan.measure_texts[code], plan.warm_texts[code],
                                                  repeats=config.repeats, yardstick=yardstick)
                progress.advance(measure_task)
            for code in plan.languages:
                rows.append(build_row(tokenizer, code, plan.measure_texts[code], measured[code],
                                      measured[plan.reference]))
        progress.update(measure_task, "measured")
        progress.finish(measure_task)

    record = _run_record(config, plan, tokenizers)
    return Results(rows=tuple(rows), record=record)


def _yardstick(tokenizers: Sequence[Adapter], on_step) -> Adapter:
    """tiktoken's cl100k_base: the run's own if it measures it. No warm-up here: it warms up
    before each of its timed turns (`benchmark.timing`)."""
    yardstick = next((t for t in tokenizers if t.id == YARDSTICK_ID), None)
    if yardstick is None:
        on_step(f"loading {YARDSTICK_ID}, the throughput yardstick")
        yardstick = PRETRAINED[YARDSTICK_ID]()
    return yardstick


# ---------------------------------------------------------------- the run record


def _run_record(config: RunConfig, plan: Plan, tokenizers: Sequence[Adapter | Skipped]) -> RunRecord:
    example_index = choose_example_line(plan.measure_texts[plan.reference])
    example_sentences = {code: plan.measure_texts[code][example_index] for code in plan.languages}
    examples: dict[str, dict[str, list[str]]] = {code: {} for code in plan.languages}
    described: dict[str, dict[str, Any]] = {}
    for tokenizer in tokenizers:
        if isinstance(tokenizer, Skipped):
            described[tokenizer.id] = {
                "family": tokenizer.family, "vocab_size": tokenizer.vocab_size, "fingerprint": None,
                "train_seconds": None, "settings": tokenizer.settings, "status": f"skipped: {tokenizer.reason}",
            }
            continue
        described[tokenizer.id] = tokenizer.describe()
        for code in plan.languages:
            examples[code][tokenizer.id] = tokenizer.token_strings(example_sentences[code])

    checksums = dict(plan.corpus.checksums)
    if plan.train_corpus is not plan.corpus:
        prefix = "" if plan.train_corpus.root.resolve() == BUNDLED_CORPUS_DIR.resolve() else f"{plan.train_corpus.name}:"
        for key, digest in plan.train_corpus.checksums.items():
            if key.startswith(f"{plan.train_corpus.train_split}/"):
                checksums[f"{prefix}{key}"] = digest

    settings = {
        "quick": config.quick,
        "languages": list(plan.languages),
        "reference": plan.reference,
        "vocab_sizes": list(config.vocab_sizes),
        "tokenizers": list(plan.tokenizer_ids),
        "tokenizer_files": [str(p) for p in config.tokenizer_files],
        "corpus": plan.corpus.name,
        "corpus_dir": _display_path(plan.corpus.root),
        "measure_split": plan.corpus.measure_split,
        "n_sentences": {code: len(plan.measure_texts[code]) for code in plan.languages},
        "train_corpus_dir": _display_path(plan.train_corpus.root),
        "train_split": plan.train_corpus.train_split,
        "train_languages": list(plan.train_languages),
        "train_language_of": {code: plan.train_language_of.get(code) for code in plan.languages},
        "n_measured_lines_in_training": dict(plan.n_measured_in_training),
        "max_share_measured_in_training": MAX_SHARE_MEASURED_IN_TRAINING,
        "train_share": "equal number of lines per language (parallel lines: the same content in each)",
        "n_train_lines_per_language": len(plan.training.texts) // max(1, len(plan.train_languages)),
        "training_text_sha256": plan.training.sha256,
        "max_sentences": config.max_sentences,
        "encode": "each sentence on its own, plain text: no BOS/EOS, no special tokens, no truncation",
        "timing": {
            "repeats": config.repeats,
            "statistic": "median of repeats",
            "threads": 1,
            "protocol": ("per repeat: reset the encoder's cache, encode the warm-up text, then time "
                         "every measured sentence encoded on its own (unseen text), in turns with the "
                         "yardstick"),
            "clock": RUN_CLOCK_NAME,
            "yardstick": YARDSTICK_ID,
            "throughput_x_tiktoken": ("median over repeats of (yardstick seconds / tokenizer seconds), the "
                                      "yardstick encoding the same sentences in each repeat, the two taking "
                                      f"turns every {YARDSTICK_CHUNK_TEXTS} sentences"),
            "warm_up": dict(plan.warm_source),
            "megabyte": "10^6 bytes of UTF-8",
        },
        "train_seconds": ("wall seconds of training; for bpe/* the time the single training run "
                          "to the largest size took to reach that size (merges are a prefix); "
                          "a cached model reports the seconds of the run that trained it"),
        "premium": {"reference": plan.reference, "ci": "95% percentile bootstrap over sentences (paired)",
                    "n_resamples": metrics.BOOTSTRAP_RESAMPLES, "seed": metrics.BOOTSTRAP_SEED},
        "embedding_dim": metrics.EMBEDDING_DIM,
        "example_line": example_index + 1,
        # Which version of this suite made the record: a checkout's commit says more than a version.
        "suite": {"package": SUITE_PACKAGE, "version": package_versions()[SUITE_PACKAGE],
                  "git_commit": git_commit()},
    }
    return RunRecord(
        date=_dt.datetime.now(_dt.timezone.utc).replace(microsecond=0).isoformat(),
        settings=settings,
        package_versions=package_versions(),
        machine=machine_info(),
        corpus_checksums=checksums,
        tokenizers=described,
        examples=examples,
        example_sentences=example_sentences,
        # The training languages too: the report names them, and some are not measured.
        language_names={code: language_name(code) for code in (*plan.languages, *plan.train_languages)},
    )


def package_versions() -> dict[str, str]:
    versions = {"python": platform.python_version()}
    for name in PACKAGES:
        try:
            versions[name] = _metadata.version(name)
        except _metadata.PackageNotFoundError:
            versions[name] = "not installed"
    return versions


def git_commit(folder: Path = Path(__file__).resolve().parent) -> str | None:
    """`git rev-parse HEAD` of the repository holding this package; None for an installed copy
    outside git, or without git (never an error: the record just says less)."""
    import subprocess

    try:
        done = subprocess.run(["git", "rev-parse", "HEAD"], cwd=folder, capture_output=True, text=True,
                              timeout=10, check=False)
    except (OSError, subprocess.SubprocessError):
        return None
    commit = done.stdout.strip()
    return commit if done.returncode == 0 and len(commit) in (40, 64) else None


# ---------------------------------------------------------------- progress


def progress_enabled() -> bool:
    """Bars on a terminal; quiet in CI (CI=true) or when stderr is piped."""
    if os.environ.get("CI", "").lower() in ("1", "true", "yes"):
        return False
    return sys.stderr.isatty()


class _Quiet:
    def task(self, description: str, total: int | None) -> int:
        return 0

    def update(self, task: int, description: str) -> None:
        pass

    def advance(self, task: int) -> None:
        pass

    def finish(self, task: int) -> None:
        pass


class _RichProgress(_Quiet):
    def __init__(self, progress) -> None:
        self.progress = progress

    def task(self, description: str, total: int | None) -> int:
        return self.progress.add_task(description, total=total)

    def update(self, task: int, description: str) -> None:
        self.progress.update(task, description=description)

    def advance(self, task: int) -> None:
        self.progress.advance(task)

    def finish(self, task: int) -> None:
        total = self.progress.tasks[task].total
        self.progress.update(task, completed=total if total is not None else 1, total=total or 1)


@contextmanager
def _progress(enabled: bool) -> Iterator[_Quiet]:
    if not enabled:
        yield _Quiet()
        return
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    with Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                  console=Console(stderr=True), transient=False) as progress:
        yield _RichProgress(progress)

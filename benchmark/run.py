"""One run, start to end: a plan -> tokenizers (trained, cached or loaded) -> rows -> `Results`.

    plan = plan_run(RunConfig())
    results = run_benchmark(plan, RunConfig())

The steps live elsewhere (plan.py decides, adapters/ builds, measure.py counts and times); this
module puts them in order and writes down what produced the rows, the run record.
"""

from __future__ import annotations

import datetime as _dt
import platform
import subprocess
from importlib import metadata as _metadata
from pathlib import Path
from typing import Sequence

from benchmark import metrics
from benchmark.adapters import (
    PRETRAINED,
    Adapter,
    Skipped,
    TrainingCache,
    build_tokenizers,
    default_cache_dir,
    file_id,
    load_tokenizer_file,
    requested_size,
)
from benchmark.corpora import BUNDLED_CORPUS_DIR, language_name
from benchmark.errors import one_line
from benchmark.measure import Counts, build_row, choose_example_line, count_texts, skipped_row, time_language, unmeasured_row
from benchmark.plan import MAX_SHARE_MEASURED_IN_TRAINING, Plan, RunConfig, display_path
from benchmark.progress import Progress, progress_display
from benchmark.record import MachineInfo, PremiumSettings, RunRecord, RunSettings, SuiteInfo, TimingSettings, TokenizerEntry
from benchmark.results import ResultRow, Results
from benchmark.timing import RUN_CLOCK_NAME, YARDSTICK_CHUNK_TEXTS, machine_info

# Timed in turns with every tokenizer: tiktoken has no cache, loads offline, and is the
# production encoder most readers know.
YARDSTICK_ID = "tiktoken/cl100k_base"
SUITE_PACKAGE = "tokencost-benchmark"  # this suite's own distribution name (pyproject.toml)
PACKAGES = (SUITE_PACKAGE, "tiktoken", "bpe-openai", "sentencepiece", "tokenizers", "regex", "numpy", "rich",
            "pandas", "matplotlib", "seaborn")


def run_benchmark(plan: Plan, config: RunConfig, *, show_progress: bool = False) -> Results:
    """Train (or read the cache), build, measure every tokenizer on every language, and record."""
    cache = TrainingCache(Path(config.cache_dir) if config.cache_dir else default_cache_dir(),
                          enabled=not config.retrain)
    with progress_display(show_progress) as progress:
        tokenizers = _build(plan, config, cache, progress)
        ready = [t for t in tokenizers if isinstance(t, Adapter)]
        step = progress.task("measuring", total=len(ready) * len(plan.languages))
        yardstick = _yardstick(ready, lambda label: progress.update(step, label)) if ready else None
        rows: list[ResultRow] = []
        for tokenizer in tokenizers:
            if isinstance(tokenizer, Skipped):
                rows.extend(skipped_row(tokenizer, code, plan.measure_texts[code]) for code in plan.languages)
                continue
            rows.extend(_measure_tokenizer(tokenizer, plan, config.repeats, yardstick, progress, step))
        progress.update(step, "measured")
        progress.finish(step)
    return Results(rows=tuple(rows), record=_run_record(config, plan, tokenizers))


def _build(plan: Plan, config: RunConfig, cache: TrainingCache, progress: Progress) -> list[Adapter | Skipped]:
    """The plan's tokenizers in its order: the user's files first (a damaged one fails before
    minutes of training), then the trained and the pretrained ones."""
    step = progress.task("training and loading tokenizers", total=None)
    files = {file_id(p): Path(p) for p in config.tokenizer_files}
    from_files: dict[str, Adapter] = {}
    for tokenizer_id, path in files.items():
        progress.update(step, f"loading {path}")
        from_files[tokenizer_id] = load_tokenizer_file(path, pattern=config.tokenizer_file_pattern)
    others = [i for i in plan.tokenizer_ids if i not in files]
    built = dict(zip(others, build_tokenizers(others, plan.training, cache,
                                              on_step=lambda label: progress.update(step, label))))
    built.update(from_files)
    progress.update(step, f"{len(built)} tokenizers ready")
    progress.finish(step)
    return [_short_of_target(built[i]) for i in plan.tokenizer_ids]


def _short_of_target(tokenizer: Adapter | Skipped) -> Adapter | Skipped:
    """A trained model that stopped below the size asked for (no pair left occurring twice) is
    not a model of that size: report it as skipped instead of a duplicate of a smaller one."""
    requested = requested_size(tokenizer.id)
    if (not isinstance(tokenizer, Adapter) or requested is None or tokenizer.train_seconds is None
            or tokenizer.vocab_size >= requested):
        return tokenizer
    return Skipped(tokenizer.id, tokenizer.family, requested,
                   f"training text supports only {tokenizer.vocab_size} tokens (no pair left occurring twice)")


def _measure_tokenizer(tokenizer: Adapter, plan: Plan, repeats: int, yardstick: Adapter | None,
                       progress: Progress, step: int) -> list[ResultRow]:
    """One tokenizer on every language; a language it raises on is a `failed:` row."""
    counts: dict[str, Counts] = {}
    timings = {}
    failures: dict[str, str] = {}
    for code in plan.languages:
        progress.update(step, f"measuring {tokenizer.id} on {code}")
        try:
            counts[code] = count_texts(tokenizer, plan.measure_texts[code])
            timings[code] = time_language(tokenizer, plan.measure_texts[code], plan.warm_texts[code],
                                          repeats=repeats, yardstick=yardstick)
        except Exception as exc:  # this tokenizer on this language: the rest of the run goes on
            failures[code] = one_line(exc)
            counts.pop(code, None)
        progress.advance(step)
    reference = counts.get(plan.reference)
    rows = []
    for code in plan.languages:
        texts = plan.measure_texts[code]
        if code in failures:
            rows.append(unmeasured_row(tokenizer.id, tokenizer.family, tokenizer.vocab_size, code, texts,
                                       f"failed: {failures[code]}"))
        else:
            rows.append(build_row(tokenizer, code, texts, counts[code], timings[code], reference))
    return rows


def _yardstick(tokenizers: Sequence[Adapter], on_step) -> Adapter | None:
    """tiktoken's cl100k_base: the run's own if it measures it. No warm-up here: it warms up
    before each of its timed turns (`benchmark.timing`). None when it cannot be loaded."""
    yardstick = next((t for t in tokenizers if t.id == YARDSTICK_ID), None)
    if yardstick is None:
        on_step(f"loading {YARDSTICK_ID}, the throughput yardstick")
        try:
            yardstick = PRETRAINED[YARDSTICK_ID]()
        except Exception:
            return None  # no ratio to tiktoken then; MB/s is still measured
    return yardstick


# ---------------------------------------------------------------- the run record


def _run_record(config: RunConfig, plan: Plan, tokenizers: Sequence[Adapter | Skipped]) -> RunRecord:
    example_index = choose_example_line(plan.measure_texts[plan.reference])
    example_sentences = {code: plan.measure_texts[code][example_index] for code in plan.languages}
    examples: dict[str, dict[str, tuple[str, ...]]] = {code: {} for code in plan.languages}
    described: dict[str, TokenizerEntry] = {}
    for tokenizer in tokenizers:
        if isinstance(tokenizer, Skipped):
            described[tokenizer.id] = TokenizerEntry(family=tokenizer.family, vocab_size=tokenizer.vocab_size,
                                                     fingerprint=None, status=tokenizer.status,
                                                     settings=tokenizer.settings)
            continue
        described[tokenizer.id] = TokenizerEntry(**tokenizer.describe())
        for code in plan.languages:
            try:
                examples[code][tokenizer.id] = tuple(tokenizer.token_strings(example_sentences[code]))
            except Exception:
                pass  # a tokenizer that fails on the example is a failed row already
    checksums = dict(plan.corpus.checksums)
    if plan.train_corpus is not plan.corpus:
        prefix = "" if plan.train_corpus.root.resolve() == BUNDLED_CORPUS_DIR.resolve() else f"{plan.train_corpus.name}:"
        for key, digest in plan.train_corpus.checksums.items():
            if key.startswith(f"{plan.train_corpus.train_split}/"):
                checksums[f"{prefix}{key}"] = digest
    versions = package_versions()
    settings = RunSettings(
        quick=config.quick,
        languages=plan.languages,
        reference=plan.reference,
        vocab_sizes=tuple(config.vocab_sizes),
        tokenizers=plan.tokenizer_ids,
        tokenizer_files=tuple(str(p) for p in config.tokenizer_files),
        corpus=plan.corpus.name,
        corpus_dir=display_path(plan.corpus.root),
        measure_split=plan.corpus.measure_split,
        n_sentences={code: len(plan.measure_texts[code]) for code in plan.languages},
        train_corpus_dir=display_path(plan.train_corpus.root),
        train_split=plan.train_corpus.train_split,
        train_languages=plan.train_languages,
        train_language_of=dict(plan.train_language_of),
        n_measured_lines_in_training=dict(plan.n_measured_in_training),
        max_share_measured_in_training=MAX_SHARE_MEASURED_IN_TRAINING,
        train_share="equal number of lines per language (parallel lines: the same content in each)",
        n_train_lines_per_language=len(plan.training.texts) // max(1, len(plan.train_languages)),
        training_text_sha256=plan.training.sha256,
        max_sentences=config.max_sentences,
        encode="each sentence on its own, plain text: no BOS/EOS, no special tokens, no truncation",
        timing=_timing_settings(config, plan),
        train_seconds=("wall seconds of training; for bpe/* the time the single training run "
                       "to the largest size took to reach that size (merges are a prefix); "
                       "a cached model reports the seconds of the run that trained it"),
        premium=PremiumSettings(reference=plan.reference, ci="95% percentile bootstrap over sentences (paired)",
                                n_resamples=metrics.BOOTSTRAP_RESAMPLES, seed=metrics.BOOTSTRAP_SEED),
        embedding_dim=metrics.EMBEDDING_DIM,
        example_line=example_index + 1,
        suite=SuiteInfo(package=SUITE_PACKAGE, version=versions[SUITE_PACKAGE], git_commit=git_commit()),
    )
    return RunRecord(
        date=_dt.datetime.now(_dt.timezone.utc).replace(microsecond=0).isoformat(),
        settings=settings,
        package_versions=versions,
        machine=MachineInfo(**machine_info()),
        corpus_checksums=checksums,
        tokenizers=described,
        examples=examples,
        example_sentences=example_sentences,
        # The training languages too: the report names them, and some are not measured.
        language_names={code: language_name(code) for code in (*plan.languages, *plan.train_languages)},
    )


def _timing_settings(config: RunConfig, plan: Plan) -> TimingSettings:
    return TimingSettings(
        repeats=config.repeats,
        clock=RUN_CLOCK_NAME,
        yardstick=YARDSTICK_ID,
        turn_sentences=YARDSTICK_CHUNK_TEXTS,
        warm_up=dict(plan.warm_source),
        protocol=("per repeat: reset the encoder's cache, encode the warm-up text, then time every measured "
                  "sentence encoded on its own (unseen text), in turns with the yardstick"),
        throughput_x_tiktoken=("median over repeats of (yardstick seconds / tokenizer seconds), the yardstick "
                               "encoding the same sentences in each repeat, the two taking turns every "
                               f"{YARDSTICK_CHUNK_TEXTS} sentences"),
    )


def n_failed_tokenizers(results: Results) -> int:
    """Tokenizers with at least one `failed:` row."""
    return len({row.tokenizer for row in results.rows if row.failed})


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
    try:
        done = subprocess.run(["git", "rev-parse", "HEAD"], cwd=folder, capture_output=True, text=True,
                              timeout=10, check=False)
    except (OSError, subprocess.SubprocessError):
        return None
    commit = done.stdout.strip()
    return commit if done.returncode == 0 and len(commit) in (40, 64) else None

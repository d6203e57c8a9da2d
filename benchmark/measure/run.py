"""One run, start to end: a plan -> tokenizers (trained, cached or loaded) -> rows -> `Results`.

    plan = plan_run(RunConfig())
    results = run_benchmark(plan)

The steps live elsewhere (plan.py decides, benchmark/adapters/ builds, counting.py counts,
timing.py times, describe.py writes the record); this module puts them in order.
"""

from __future__ import annotations

import dataclasses
import time
from pathlib import Path
from typing import Callable, Sequence

from benchmark.measure import peak_memory
from benchmark.adapters import (
    PRETRAINED, Adapter, NotBuilt, Skipped, TrainingCache, build_tokenizers, cache_root, is_trained, file_id,
    load_tokenizer_file, run_train_task, train_tasks,
)
from benchmark.measure.calibration import (
    NO_FIT, FitTask, FitWork, describe_fit, fit_lines, run_calibration, run_fit_task, start_fit_counts,
)
from benchmark.measure.cells import CELL_BUDGET_SECONDS, timed_cells
from benchmark.measure.describe import YARDSTICK_ID, describe_run
from benchmark.plumbing.errors import one_line
from benchmark.measure.executors import (
    TASK_LINES,
    Executor,
    count_slices,
    count_tasks,
    merge_results,
    merged_vocabulary,
    run_count_task,
    share_adapters,
    start_counting,
)
from benchmark.adapters.families import families_of_kind
from benchmark.adapters.registry import TrainTask, trained_in
from benchmark.adapters.table import TrainedId
from benchmark.measure.counting import (Counts, build_row, row_intervals, skipped_row, split_examples, time_language,
                                       unmeasured_row)
from benchmark.measure.floor import n_compressed_bytes
from benchmark.measure.pairwise import pairwise_ratios
from benchmark.measure.plan import Plan
from benchmark.measure.rare_entries import rare_shares
from benchmark.measure.results_cache import ResultsCache, tokenizer_identity, words_from_cache
from benchmark.measure.vocabulary import VocabularyHealth
from benchmark.plumbing.progress import Progress, progress_display
from benchmark.results.rows import ResultRow, Results
from benchmark.words.segmenters import LanguageWords, SegmentTask, merge_segments, run_segment_task, segment_tasks
from benchmark.measure.summaries import build_summaries
from benchmark.measure.group_summaries import build_group_summaries
from benchmark.measure.timing import ThroughputResult
from benchmark.measure.timing_reuse import reuse_or_time
from benchmark.measure.bases import run_base_premiums
from benchmark.measure.domain_premiums import domain_premiums
from benchmark.measure.code_sample import code_costs

def run_benchmark(plan: Plan, *, executor: Executor | None = None, show_progress: bool = False,
                  while_counting: Callable[[], None] | None = None) -> Results:
    """Train (or read the cache), build, count every tokenizer on every language (on `executor`,
    in this process by default; what the results cache holds is not counted again), time each on
    its sample (here, alone), and record. `while_counting`: work for this process while the
    workers count (the command line: loading what the report draws with)."""
    cache = TrainingCache(cache_root(plan.cache_dir),
                          enabled=not plan.retrain)
    stored = (ResultsCache(Path(cache.root) / "results", read=not plan.retrain) if plan.results_cache
              else ResultsCache.off())
    executor = executor or Executor()
    clock = _PhaseClock()
    with progress_display(show_progress) as progress:
        # The user's files first: a damaged one fails in seconds, before minutes of training.
        from_files = _load_files(plan, progress)
        training = []
        if executor.n_workers > 1 and executor.same_machine:
            # The families train side by side, into the cache; the build below reads them from it.
            counts = _pretoken_counts(plan, cache, executor)
            training = train_tasks(plan.tokenizer_ids, plan.training, cache, plan.families, counts)
        # The words and the information floor need no tokenizer: the workers find them (after the
        # training) while this process loads the vendors' tokenizers (serial: when taken, below).
        texts = {code: plan.measure_texts[code] for code in plan.languages}
        missing, complete_words = words_from_cache(texts, stored)
        segmenting = segment_tasks(missing)
        floor = [tuple(lines) for lines in texts.values()]
        prepared = executor.start(_before_counting, [*training, *floor, *segmenting])
        try:
            busy = f" while {executor.n_workers} workers train" if training else ""
            step = progress.task(f"loading the vendors' tokenizers{busy}", total=None)
            from_files.update(_build_vendors(plan, from_files, progress, step))
            found = prepared.results()[len(training):]
            progress.finish(step)
            if training:
                cache = dataclasses.replace(cache, enabled=True)  # with --retrain, the models just trained
            tokenizers = _build(plan, cache, from_files, progress)
        except BaseException:
            prepared.cancel()
            raise
        clock.lap("training and loading")
        compressed = dict(zip(plan.languages, found[:len(floor)]))
        words = complete_words(merge_segments(segmenting, found[len(floor):]))
        clock.lap("words and information floor")
        ready = [t for t in tokenizers if isinstance(t, Adapter)]
        fitted = fit_lines(plan.corpus, plan.languages, plan.max_sentences)
        fit = start_fit_counts(ready, fitted, executor, stored)  # the calibration's dev counts: on the same workers
        counted, vocabularies, fitted_counts = _count_all(ready, plan, words, executor, progress, stored,
                                                          while_counting, fit)
        rare = {} if plan.quick else rare_shares(ready, plan.training, executor, progress, stored)  # --quick: none (record)
        clock.lap("counting")
        fit_counts = fit.finish(fitted_counts)
        executor.close()  # nothing of ours runs beside the timed passes
        stored.prune()
        clock.lap("calibration")
        cells = timed_cells(ready, tuple(plan.timed_texts), plan.reference, quick=plan.quick, is_trained=is_trained)
        timed, reused = reuse_or_time([t for t in ready if t.id in cells], plan, counted, stored,
                                      lambda todo: _time_all(todo, plan, cells, counted, progress), cells=cells)
        clock.lap("timing")
        examples = split_examples(ready, plan)
    rows = _rows(tokenizers, plan, counted, timed, words, compressed)
    summaries = build_summaries(tokenizers, plan.languages, plan.reference, counted, vocabularies, rare)
    production = families_of_kind("production")  # a vendor's fixed vocabulary: compared pairwise
    pairwise = pairwise_ratios([t for t in ready if t.family in production], plan.languages, counted)
    calibration, calibration_domains = run_calibration(ready, plan, fitted, counted, fit_counts)
    record = describe_run(plan, tokenizers, executor, words, examples, reused_timing=reused,
                          calibration=describe_fit(plan.corpus, fitted),
                          timed_cells={tokenizer: {code: t.n_texts for code, t in languages.items()}
                                       for tokenizer, languages in timed.items() if languages})
    clock.lap("rows and record")
    bases = run_base_premiums(ready, plan, counted)  # premiums over --bases: measured apart (docs/measurements)
    clock.lap("base premiums")
    by_domain = domain_premiums(ready, plan.languages, plan.reference, plan.measure_domains, counted)
    clock.lap("domain premiums")
    groups = build_group_summaries([t.id for t in ready], plan.languages, plan.reference, counted)
    clock.lap("group summaries")
    code = code_costs(ready)  # tokens per byte and line of source code: its own table, no premium
    clock.lap("code sample")
    return Results(rows=tuple(rows), record=dataclasses.replace(record, phase_seconds=clock.seconds,
                                                                  phase_peak_mb=clock.peak_mb),
                   summaries=summaries, pairwise=pairwise, calibration=calibration, bases=bases,
                   domain_premiums=by_domain, groups=groups, code=code, calibration_domains=calibration_domains)


def _before_counting(task: TrainTask | SegmentTask | tuple[str, ...]):
    """A worker's task before counting: a family's training, a slice of a language's words, or a
    language's text compressed (the information floor)."""
    if isinstance(task, TrainTask):
        return run_train_task(task)
    return run_segment_task(task) if isinstance(task, SegmentTask) else n_compressed_bytes(task)


class _PhaseClock:
    """Wall seconds and peak memory of each phase of the run, for the record (where a run's time
    and memory go, without a profiler)."""

    def __init__(self) -> None:
        self.seconds: dict[str, float] = {}
        self.peak_mb: dict[str, float] = {}
        self._last = time.perf_counter()
        self._children_mb = peak_memory.children_mb()
        peak_memory.reset_own()

    def lap(self, phase: str) -> None:
        now = time.perf_counter()
        self.seconds[phase] = round(now - self._last, 3)
        self._last = now
        peak = peak_memory.own_mb()
        children = peak_memory.children_mb()
        if children > self._children_mb:  # a worker of this phase outgrew every earlier one
            peak = max(peak, children)
            self._children_mb = children
        self.peak_mb[phase] = round(peak, 1)
        peak_memory.reset_own()


def _pretoken_counts(plan: Plan, cache: TrainingCache, executor: Executor) -> dict[str, dict[bytes, int]] | None:
    """Our BPE's pre-token counts per training language, counted in the workers, one task per
    slice of a language and added up per language (addition of counts does not depend on their
    order, so the merges equal the serial trainer's); None when every mix is cached."""
    from benchmark.adapters import inhouse
    from benchmark.bpe.train import add_counts

    needed = [f for f, sizes in trained_in(plan.tokenizer_ids, plan.families).items() if f.mix is not None
              and (not cache.enabled or not inhouse.is_cached(plan.training, f.mix, sizes, cache))]
    if not needed:
        return None
    slices = [{code: lines[start:start + TASK_LINES]} for code, lines in plan.training.lines.items()
              for start in range(0, len(lines), TASK_LINES)]
    parts: dict[str, list[dict[bytes, int]]] = {}
    for part in executor.map(inhouse.count_pretokens_by_language, slices):
        for code, table in part.items():
            parts.setdefault(code, []).append(table)
    return {code: add_counts(tables) for code, tables in parts.items()}


def _load_files(plan: Plan, progress: Progress) -> dict[str, Adapter]:
    """The user's tokenizer files (`--tokenizer-file`), by id."""
    loaded = {}
    for path in plan.tokenizer_files:
        progress.update(progress.task(f"loading {path}", total=None), f"loading {path}")
        loaded[file_id(path)] = load_tokenizer_file(Path(path), pattern=plan.tokenizer_file_pattern)
    return loaded


def _build(plan: Plan, cache: TrainingCache, from_files: dict[str, Adapter],
           progress: Progress) -> list[Adapter | NotBuilt]:
    """The plan's tokenizers in its order: the trained (or cached) and pretrained ones, and the
    user's files loaded before."""
    step = progress.task("training and loading tokenizers", total=None)
    others = [i for i in plan.tokenizer_ids if i not in from_files]
    built = dict(zip(others, build_tokenizers(others, plan.training, cache, families=plan.families,
                                              on_step=lambda label: progress.update(step, label))))
    built.update(from_files)
    progress.update(step, f"{len(built)} tokenizers ready")
    progress.finish(step)
    return [_short_of_target(built[i], plan.trained.get(i)) for i in plan.tokenizer_ids]


def _build_vendors(plan: Plan, from_files: dict[str, Adapter], progress: Progress, step: int) -> dict[str, Adapter | NotBuilt]:
    """The vendors' tokenizers of the plan (every tokenizer needing no training), by id."""
    ids = [i for i in plan.tokenizer_ids if i in PRETRAINED and i not in from_files]
    return dict(zip(ids, build_tokenizers(ids, None, None, families=plan.families,
                                          on_step=lambda label: progress.update(step, label))))


def _short_of_target(tokenizer: Adapter | NotBuilt, trained: TrainedId | None) -> Adapter | NotBuilt:
    """A trained model that stopped below the size asked for (no pair left occurring twice) is
    not a model of that size: report it as skipped instead of a duplicate of a smaller one."""
    if not isinstance(tokenizer, Adapter) or trained is None or tokenizer.vocab_size >= trained.vocab_size:
        return tokenizer
    return Skipped(tokenizer.id, tokenizer.family, trained.vocab_size,
                   f"training text supports only {tokenizer.vocab_size} tokens (no pair left occurring twice)")


def _count_all(tokenizers: Sequence[Adapter], plan: Plan, words: dict[str, LanguageWords], executor: Executor,
               progress: Progress, stored: ResultsCache | None = None,
               while_counting: Callable[[], None] | None = None, fit: FitWork | None = None):
    """tokenizer id -> (counts per language, reason per language it failed on), tokenizer id ->
    its vocabulary check, and the results of `fit`'s tasks (run on the same workers). What `stored`
    holds is taken from it; the rest is counted: tokenizers with a recipe on the executor, one
    without (a test's stand-in) here. Every task carries its sentences' word spans, found once."""
    fit = fit or NO_FIT
    stored = stored or ResultsCache.off()
    texts = {code: plan.measure_texts[code] for code in plan.languages}
    spans = {code: words[code].spans for code in plan.languages}
    known, todo = {}, {}  # tokenizer id -> (cached counts, cached vocabulary); -> (languages, check?)
    keys = {}
    for tokenizer in tokenizers:
        identity = tokenizer_identity(tokenizer)
        keys[tokenizer.id] = {code: stored.counts_key(identity, texts[code], spans[code]) if identity else None
                              for code in texts}
        vocabulary_key = stored.vocabulary_key(identity) if identity else None
        keys[tokenizer.id][None] = vocabulary_key
        counts = {code: stored.get(keys[tokenizer.id][code], Counts) for code in texts}
        counts = {code: c for code, c in counts.items() if c is not None}
        vocabulary = stored.get(vocabulary_key, VocabularyHealth)
        known[tokenizer.id] = (counts, vocabulary)
        missing = [code for code in texts if code not in counts]
        check = vocabulary is None and not plan.quick  # --quick checks no vocabulary the cache lacks (record)
        if missing or check:
            todo[tokenizer.id] = (missing, check)
    to_count = [t for t in tokenizers if t.id in todo]
    pooled = executor.n_workers > 1
    shipped = [t for t in to_count if pooled and (executor.shares_memory or t.recipe is not None)]
    share_adapters([*shipped, *fit.shared])
    tasks = {t.id: count_tasks(t.id, None if executor.shares_memory else t.recipe,
                               {code: texts[code] for code in todo[t.id][0]}, spans,
                               check_vocabulary=todo[t.id][1], renyi_interval=wants_renyi_interval(t),
                               apart=executor.shares_memory)
             for t in shipped}
    where = f"{executor.name}, {executor.n_workers} worker{'s' * (executor.n_workers > 1)}" if pooled else "this process"
    step = progress.task(f"counting ({where})", total=sum(map(len, tasks.values())) + len(fit.tasks)
                         + sum(t.id not in tasks for t in to_count))
    flat = [task for tokenizer_tasks in tasks.values() for task in tokenizer_tasks]
    pending = start_counting(executor, [*flat, *fit.tasks], {t.id: t.vocab_size for t in shipped},
                             function=_count_or_fit)
    if while_counting is not None:
        try:
            while_counting()
        except BaseException:
            pending.cancel()
            raise
    done_tasks = pending.results(on_done=lambda: progress.advance(step))
    results, fitted_counts = iter(done_tasks[:len(flat)]), done_tasks[len(flat):]
    counted, vocabularies = {}, {}
    for tokenizer in tokenizers:
        cached_counts, cached_vocabulary = known[tokenizer.id]
        done = []
        if tokenizer.id in tasks:
            done = [next(results) for _ in tasks[tokenizer.id]]
        elif tokenizer.id in todo:
            progress.update(step, f"counting {tokenizer.id}")
            languages, check = todo[tokenizer.id]
            done = [count_slices(tokenizer, [(code, texts[code], spans[code]) for code in languages],
                                 check_vocabulary=check, renyi_interval=wants_renyi_interval(tokenizer))]
            progress.advance(step)
        fresh, failures = merge_results(done)
        for code, counts in fresh.items():
            stored.put(keys[tokenizer.id][code], counts)
        vocabulary = cached_vocabulary or merged_vocabulary(done)
        if cached_vocabulary is None and isinstance(vocabulary, VocabularyHealth):
            stored.put(keys[tokenizer.id][None], vocabulary)
        merged = {**cached_counts, **fresh}
        counted[tokenizer.id] = ({code: merged[code] for code in texts if code in merged}, failures)
        vocabularies[tokenizer.id] = vocabulary
    progress.finish(step)
    return counted, vocabularies, fitted_counts


def _count_or_fit(task):
    """A counting task or a calibration one (`FitTask`), on the same workers."""
    return run_fit_task(task) if isinstance(task, FitTask) else run_count_task(task)


def wants_renyi_interval(tokenizer: Adapter) -> bool:
    """Whose rows get the Rényi efficiency's interval: the production tokenizers'. It costs about
    what counting a fast tokenizer's row does (docs/measurements/2026-12-01-renyi-interval.md)."""
    return not is_trained(tokenizer.family)


def _time_all(tokenizers: Sequence[Adapter], plan: Plan, cells: dict[str, tuple[str, ...]], counted,
              progress: Progress):
    """tokenizer id -> language -> its timing on the plan's sample, one tokenizer at a time on its
    `cells` (measure/cells.py), in this process (or, for an encoder whose reset keeps memory, in a
    child that takes it along)."""
    from benchmark.measure.isolated import in_child

    step = progress.task("timing (one thread)", total=len(tokenizers))
    yardstick = _yardstick(tokenizers, lambda label: progress.update(step, label)) if tokenizers else None
    timed: dict[str, dict[str, ThroughputResult]] = {}
    for tokenizer in tokenizers:
        _, failures = counted[tokenizer.id]
        progress.update(step, f"timing {tokenizer.id}")
        if tokenizer.reset_keeps_memory:
            try:
                timed[tokenizer.id], failed = in_child(_time_tokenizer, tokenizer, plan, cells[tokenizer.id], yardstick,
                                                       failures)
            except RuntimeError as exc:
                timed[tokenizer.id], failed = {}, {code: str(exc) for code in cells[tokenizer.id] if code not in failures}
        else:
            timed[tokenizer.id], failed = _time_tokenizer(tokenizer, plan, cells[tokenizer.id], yardstick, failures)
            tokenizer.reset_cache()  # its warm cache is not used again: the next tokenizers' reuse its memory
        failures.update(failed)
        progress.advance(step)
    progress.finish(step)
    return timed


def _time_tokenizer(tokenizer: Adapter, plan: Plan, languages: Sequence[str], yardstick: Adapter | None,
                    failures: dict[str, str]) -> tuple[dict[str, ThroughputResult], dict[str, str]]:
    """One tokenizer's timing on each of `languages` it counted (in run order), within the cell's
    budget (measure/cells.py), and the languages it raised on while timed."""
    timed, failed = {}, {}
    for code in languages:
        if code not in failures:
            try:
                timed[code] = time_language(tokenizer, plan.timed_texts[code], plan.warm_texts[code],
                                            repeats=plan.repeats, yardstick=yardstick,
                                            budget_seconds=CELL_BUDGET_SECONDS)
            except Exception as exc:  # it counted this text, yet raised on a timed pass
                failed[code] = one_line(exc)
    return timed, failed


def _rows(tokenizers: Sequence[Adapter | NotBuilt], plan: Plan, counted, timed,
          words: dict[str, LanguageWords], compressed: dict[str, int]) -> list[ResultRow]:
    """Every row; the intervals in one batch (the same resamples for every row)."""
    cells, owners = [], []
    for tokenizer in tokenizers:
        if isinstance(tokenizer, Adapter):
            counts, failures = counted[tokenizer.id]
            reference = counts.get(plan.reference) if plan.reference not in failures else None
            for code in plan.languages:
                if code in counts and code not in failures:
                    cells.append((counts[code], reference))
                    owners.append((tokenizer.id, code))
    intervals = dict(zip(owners, row_intervals(cells)))
    reference_texts = plan.measure_texts[plan.reference]
    rows = []
    for tokenizer in tokenizers:
        for code in plan.languages:
            texts = plan.measure_texts[code]
            known = {"n_words": words[code].n_words, "n_compressed_bytes": compressed[code]}
            if isinstance(tokenizer, NotBuilt):
                rows.append(skipped_row(tokenizer, code, texts, **known))
                continue
            counts, failures = counted[tokenizer.id]
            if code in failures:
                rows.append(unmeasured_row(tokenizer.id, tokenizer.family, tokenizer.vocab_size, code, texts,
                                           f"failed: {failures[code]}", **known))
                continue
            reference = counts.get(plan.reference) if plan.reference not in failures else None
            rows.append(build_row(tokenizer, code, texts, counts[code], timed.get(tokenizer.id, {}).get(code), reference,
                                  reference_texts=reference_texts,
                                  compressed=(compressed[code], compressed[plan.reference]),
                                  intervals=intervals[(tokenizer.id, code)]))
    return rows


def _yardstick(tokenizers: Sequence[Adapter], on_step) -> Adapter | None:
    """tiktoken's cl100k_base: the run's own if it measures it. No warm-up here: it warms up
    before each of its timed turns (`benchmark.measure.timing`). None when it cannot be loaded."""
    yardstick = next((t for t in tokenizers if t.id == YARDSTICK_ID), None)
    if yardstick is None:
        on_step(f"loading {YARDSTICK_ID}, the throughput yardstick")
        try:
            yardstick = PRETRAINED[YARDSTICK_ID]()
        except Exception:
            return None  # no ratio to tiktoken then; MB/s is still measured
    return yardstick


# ---------------------------------------------------------------- the run record


def n_failed_tokenizers(results: Results) -> int:
    """Tokenizers with at least one `failed:` row."""
    return len({row.tokenizer for row in results.rows if row.failed})

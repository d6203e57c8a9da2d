"""Where counting runs: in this process, in worker processes on every core, or on a Dask cluster.

Counting (encode, decode, compare, count every sentence) is embarrassingly parallel; timing is
not, and never runs here (measure.time_language runs alone, on one thread, after counting). A
task is plain data, a tokenizer's `Recipe` and a slice of sentences per language, so it pickles
to a worker process or a cluster node; its results are merged in task order, so every executor
gives exactly the rows of counting everything in this process.

- `serial`: one process (`--workers 1`).
- `processes`: a pool of `--workers N` processes for each batch of tasks. On Linux, when this
  process runs no other thread (so no lock can be inherited held), the workers are forked and
  find the tokenizers already built; otherwise they start fresh ("spawn") and each builds a
  tokenizer once from its recipe, keeping the last few it built.
- `dask`: the same tasks on a `dask.distributed` cluster: `--scheduler HOST:PORT`, or a local
  cluster of `--workers N` processes (dask_cluster.py: every wait bounded, refusals in one line). Only the tasks travel: each holds the sentences it counts
  and the tokenizer's recipe (a trained model's file as bytes; a vendor's vocabulary by name, so
  every node needs this package and its dependencies installed). See docs/cluster.md.
"""

from __future__ import annotations

import os
import signal
from array import array
from collections import OrderedDict
from dataclasses import dataclass
from typing import Callable, Iterable, Sequence

from benchmark.adapters.base import Adapter, Recipe
from benchmark.plumbing.children import Pending, die_with_parent, usable_cores
from benchmark.plumbing.children import fork_is_safe as _fork_is_safe  # a name the tests replace
from benchmark.plumbing.errors import BenchmarkError, one_line
from benchmark.measure.counting import Counts, count_texts
from benchmark.measure.twins import proven_twin
from benchmark.measure.vocabulary import VocabularyHealth, vocabulary_health

EXECUTORS = ("processes", "dask", "serial")
TASK_LINES = 20_000  # sentences per task at most: big corpora are split, FLORES is one task per tokenizer
_BUILT_PER_WORKER = 4  # tokenizers a worker keeps built (tasks come grouped by tokenizer)


@dataclass(frozen=True)
class CountTask:
    """Count one tokenizer over consecutive slices of some languages' sentences."""

    tokenizer: str  # its id: a forked worker finds it built (`share_adapters`)
    recipe: Recipe | None  # how any other worker builds it; None when every worker is forked
    # (language, its sentences, their word spans or None), in text order; the words were found
    # once for the run (benchmark.words.segmenters) and travel with the sentences
    slices: tuple[tuple[str, tuple[str, ...], tuple[array, ...] | None], ...]
    check_vocabulary: bool = False  # also `vocabulary_health` (one task per tokenizer does)
    renyi_interval: bool = False  # also the Rényi efficiency's interval of each slice (count_texts)

    @property
    def n_lines(self) -> int:
        return sum(len(texts) for _, texts, _ in self.slices)


@dataclass(frozen=True)
class CountResult:
    counts: tuple[tuple[str, Counts], ...]  # (language, counts of that slice)
    failures: tuple[tuple[str, str], ...] = ()  # (language, one-line reason): the rows say `failed:`
    vocabulary: VocabularyHealth | str | None = None  # str: why the check raised


_built: OrderedDict[str, Adapter] = OrderedDict()  # recipe key -> the adapter this process built
_shared: dict[str, Adapter] = {}  # tokenizer id -> adapter, set before workers are forked


def share_adapters(adapters: Iterable[Adapter]) -> None:
    """Adapters that forked workers inherit, by id (no recipe, no rebuilding)."""
    _shared.clear()
    _shared.update((adapter.id, adapter) for adapter in adapters)


def adapter_of(task: CountTask) -> Adapter:
    """The adapter a task names: inherited by a forked worker, else built from its recipe once."""
    if task.recipe is None:
        return _shared[task.tokenizer]
    key = task.recipe.key
    recipe = task.recipe
    adapter = _built.get(key)
    if adapter is None:
        adapter = _built[key] = recipe.build()
        while len(_built) > _BUILT_PER_WORKER:
            _built.popitem(last=False)
    _built.move_to_end(key)
    return adapter


def count_slices(adapter: Adapter, slices: Iterable[tuple[str, Sequence[str], Sequence[array] | None]], *,
                 check_vocabulary: bool = False, renyi_interval: bool = False) -> CountResult:
    """Count `adapter` over each (language, sentences, word spans) slice; a slice it raises on is
    a failure of that language, and the other slices are counted all the same."""
    done, failures = [], []
    for language, texts, words in slices:
        try:
            counter = proven_twin(adapter, texts)  # our BPE: tiktoken's engine, once it gave our ids on these texts
            done.append((language, count_texts(counter, texts, words, renyi_interval=renyi_interval)))
        except Exception as exc:
            failures.append((language, one_line(exc)))
    vocabulary = None
    if check_vocabulary:
        try:
            vocabulary = vocabulary_health(adapter)
        except Exception as exc:
            vocabulary = one_line(exc)
    if not adapter.reset_keeps_memory:
        # A worker keeps every model it counts, and our encoder's cache, filled by the twin's checks
        # and the vocabulary's, grew by 41 MB a model over 204 languages: emptied, the next reuses it.
        adapter.reset_cache()
    return CountResult(tuple(done), tuple(failures), vocabulary)


def run_count_task(task: CountTask) -> CountResult:
    """A task's counts, in a worker or here (the adapter built once per process from its recipe)."""
    try:
        adapter = adapter_of(task)
    except Exception as exc:
        return CountResult((), tuple((language, one_line(exc)) for language, *_ in task.slices))
    return count_slices(adapter, task.slices, check_vocabulary=task.check_vocabulary,
                        renyi_interval=task.renyi_interval)


def count_tasks(tokenizer: str, recipe: Recipe | None, texts_by_language: dict[str, Sequence[str]],
                words_by_language: dict[str, Sequence[array] | None] | None = None, *,
                task_lines: int = TASK_LINES, check_vocabulary: bool = True,
                renyi_interval: bool = False, apart: bool = False) -> list[CountTask]:
    """One tokenizer's counting, in tasks of at most `task_lines` sentences, in text order; the
    first task also checks the vocabulary (with `check_vocabulary`; one task does only that when
    there are no texts). `apart`: the vocabulary check is a task of its own, first (for workers
    that find the tokenizer built, where a task costs nothing to start: the checks, the longest
    tasks, are handed out first and the counts fill in after them, `heaviest_first`)."""
    words_by_language = words_by_language or {}
    tasks, current, size = [], [], 0
    if apart and check_vocabulary:
        tasks.append(CountTask(tokenizer, recipe, (), check_vocabulary=True, renyi_interval=renyi_interval))
    for language, texts in texts_by_language.items():
        words = words_by_language.get(language)
        for start in range(0, max(len(texts), 1), task_lines):
            piece = tuple(texts[start:start + task_lines])
            if size + len(piece) > task_lines and current:
                tasks.append(CountTask(tokenizer, recipe, tuple(current), check_vocabulary=check_vocabulary and not tasks,
                                       renyi_interval=renyi_interval))
                current, size = [], 0
            current.append((language, piece, None if words is None else tuple(words[start:start + task_lines])))
            size += len(piece)
    if current or (check_vocabulary and not tasks):
        tasks.append(CountTask(tokenizer, recipe, tuple(current), check_vocabulary=check_vocabulary and not tasks,
                               renyi_interval=renyi_interval))
    return tasks


def start_counting(executor: Executor, tasks: Sequence, vocab_sizes: dict[str, int], *,
                   function: Callable = run_count_task) -> Pending:
    """`function` (`run_count_task`) of each task begun on `executor`, handed out heaviest first
    (`heaviest_first`); `results()` gives them in the tasks' order."""
    order = heaviest_first(tasks, vocab_sizes)
    pending = executor.start(function, [tasks[k] for k in order])

    def finish(on_done: Callable[[], None] | None = None) -> list[CountResult]:
        in_order: list = [None] * len(tasks)
        for k, result in zip(order, pending.results(on_done)):
            in_order[k] = result
        return in_order

    return Pending(finish, pending.cancel)


def heaviest_first(tasks: Sequence, vocab_sizes: dict[str, int]) -> list[int]:
    """The tasks' indices (each with a `tokenizer` and `n_lines`), the longest first as far as can
    be told before running them (a vocabulary check by its entries, the others by their
    sentences): two workers given the long ones first end together, where a long one left for
    last keeps one core busy alone."""
    def weight(index: int) -> tuple[int, int]:
        task = tasks[index]
        if getattr(task, "check_vocabulary", False) and not task.n_lines:
            return 1, vocab_sizes.get(task.tokenizer, 0)
        return 0, task.n_lines

    return sorted(range(len(tasks)), key=weight, reverse=True)


def merge_results(results: Iterable[CountResult]) -> tuple[dict[str, Counts], dict[str, str]]:
    """Per language: the merged counts of its slices, in order; and the languages a tokenizer
    failed on, with the reason (a language with one failed slice has no counts)."""
    counts: dict[str, Counts] = {}
    failures: dict[str, str] = {}
    for result in results:
        for language, part in result.counts:
            counts[language] = counts[language].merge(part) if language in counts else part
        for language, reason in result.failures:
            failures.setdefault(language, reason)
    for language in failures:
        counts.pop(language, None)
    return counts, failures


def merged_vocabulary(results: Iterable[CountResult]) -> VocabularyHealth | str | None:
    """The vocabulary check among a tokenizer's results (one task made it)."""
    return next((result.vocabulary for result in results if result.vocabulary is not None), None)


class Executor:
    """Runs `run_count_task` over tasks, results in task order. Serial: in this process."""

    name = "serial"
    n_workers = 1
    shares_memory = True  # its workers see this process's adapters (no recipe needed)
    same_machine = True  # its workers see this machine's files (the training cache)

    def map(self, function: Callable, tasks: Sequence, on_done: Callable[[], None] | None = None) -> list:
        """`function` of each task, in task order, calling `on_done` after each."""
        return self.start(function, tasks).results(on_done)

    def start(self, function: Callable, tasks: Sequence) -> Pending:
        """`map` begun now and taken later (`Pending.results`), so this process can work meanwhile;
        here, in this process, the tasks run when the results are taken."""
        def finish(on_done: Callable[[], None] | None = None) -> list:
            results = []
            for task in tasks:
                results.append(function(task))
                if on_done:
                    on_done()
            return results

        return Pending(finish)

    def close(self) -> None:
        pass

    def __enter__(self) -> Executor:
        return self

    def __exit__(self, *exc_info) -> None:
        self.close()


def _results_in_order(futures: Sequence, on_done: Callable[[], None] | None) -> list:
    """Each future's result, in the futures' order, calling `on_done` after each."""
    results = []
    for future in futures:
        results.append(future.result())
        if on_done:
            on_done()
    return results


def _worker_start(parent_pid: int) -> None:
    """In each worker: die with the run (a worker of a killed run must not live on), one thread."""
    os.environ.setdefault("RAYON_NUM_THREADS", "1")
    os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
    die_with_parent(parent_pid, signal.SIGTERM)


class ProcessExecutor(Executor):
    """A fresh pool for each `map`: forked workers then see the adapters built just before."""

    name = "processes"

    def __init__(self, n_workers: int) -> None:
        self.n_workers = n_workers

    @property
    def shares_memory(self) -> bool:
        return _fork_is_safe()

    def start(self, function: Callable, tasks: Sequence) -> Pending:
        """The tasks on a pool forked now. Until `results()` returns, this process runs the pool's
        thread: it forks nothing else meanwhile (`fork_is_safe` would refuse)."""
        import multiprocessing
        from concurrent.futures import ProcessPoolExecutor

        if not tasks:
            return Pending(lambda on_done=None: [])
        context = multiprocessing.get_context("fork" if _fork_is_safe() else "spawn")
        pool = ProcessPoolExecutor(max_workers=min(self.n_workers, len(tasks)), mp_context=context,
                                   initializer=_worker_start, initargs=(os.getpid(),))
        futures = [pool.submit(function, task) for task in tasks]

        def finish(on_done: Callable[[], None] | None = None) -> list:
            with pool:
                return _results_in_order(futures, on_done)

        return Pending(finish, lambda: pool.shutdown(wait=True, cancel_futures=True))


class DaskExecutor(Executor):
    """The tasks on a Dask cluster: the scheduler at `scheduler`, or a local one (dask_cluster.py
    connects, bounds each wait, and refuses what cannot serve in one line)."""

    name = "dask"
    shares_memory = False

    def __init__(self, n_workers: int, scheduler: str | None = None) -> None:
        try:
            import distributed  # noqa: F401
        except ImportError:
            raise BenchmarkError("--executor dask needs dask.distributed: pip install 'tokencost-benchmark[cluster]'") from None
        from benchmark.measure import dask_cluster

        self._cluster = None
        if scheduler is None:
            self._where = "the local Dask cluster"
            self._cluster, self._client = dask_cluster.local_cluster(n_workers)
        else:
            self._where = f"the Dask scheduler at {scheduler}"
            self.same_machine = False
            self._client = dask_cluster.connect(scheduler)
        self.n_workers = dask_cluster.n_workers(self._client) or n_workers

    def start(self, function: Callable, tasks: Sequence) -> Pending:
        from benchmark.measure.dask_cluster import result_while_workers

        futures = self._client.map(function, tasks, pure=False)

        def finish(on_done: Callable[[], None] | None = None) -> list:
            results = []
            for future in futures:
                results.append(result_while_workers(self._client, future, self._where))
                if on_done:
                    on_done()
            return results

        return Pending(finish, lambda: self._client.cancel(futures))

    def close(self) -> None:
        self._client.close()
        if self._cluster is not None:
            self._cluster.close()


def default_workers() -> int:
    """Every core this process may use."""
    return usable_cores()


def make_executor(kind: str = "processes", workers: int | None = None, scheduler: str | None = None) -> Executor:
    """The executor `--executor`, `--workers` and `--scheduler` ask for; one worker is serial."""
    if kind not in EXECUTORS:
        raise BenchmarkError(f"unknown executor {kind!r}; use one of {', '.join(EXECUTORS)}")
    n_workers = workers or default_workers()
    if scheduler is not None and kind != "dask":
        raise BenchmarkError("--scheduler is the address of a Dask scheduler: add --executor dask")
    if kind == "dask":
        return DaskExecutor(n_workers, scheduler)
    if kind == "serial" or n_workers == 1:
        return Executor()
    return ProcessExecutor(n_workers)

"""Counting on every core or on a cluster gives exactly the rows of counting in one process.

The executors only move work: the rows (all but the timing columns) must be identical whether the
sentences are counted here, by forked or fresh worker processes, or by the workers of a real Dask
scheduler started on loopback.
"""

from __future__ import annotations

import dataclasses
import json
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from benchmark.measure import executors
from benchmark.measure import run as run_module
from benchmark.measure.executors import (
    CountTask,
    count_tasks,
    make_executor,
    merge_results,
    merged_vocabulary,
    run_count_task,
)
from benchmark.measure.plan import RunConfig, plan_run
from benchmark.measure.run import run_benchmark
from tests.support.dask_processes import stop_workers_then_scheduler
from tests.support.rows import rows_without_timing

TOKENIZERS = ("bpe/*", "sentencepiece/*", "hf/*", "tiktoken/*")


@pytest.fixture(scope="module")
def config(tmp_path_factory) -> RunConfig:
    cache = tmp_path_factory.mktemp("cache")
    return RunConfig(languages=("eng_Latn", "jpn_Jpan", "kor_Hang"), vocab_sizes=(1024, 3000), max_sentences=60,
                     tokenizers=TOKENIZERS, repeats=1, cache_dir=cache)


@pytest.fixture(scope="module")
def serial(config):
    return run_benchmark(plan_run(config))


@pytest.fixture
def pooled(config, monkeypatch):
    """config without the results cache, which `serial` filled (its counts would be read back and
    no worker would count), and the number of count tasks each pooled run shipped. quick: no
    vocabulary check or rare entries, which the rows compared do not hold (the same rows:
    test_quick_cuts.py)."""
    shipped = []
    real = run_module.count_tasks

    def spy(*args, **kwargs):
        tasks = real(*args, **kwargs)
        shipped.append(len(tasks))
        return tasks

    monkeypatch.setattr(run_module, "count_tasks", spy)
    return dataclasses.replace(config, results_cache=False, quick=True), shipped


def test_worker_processes_count_exactly_what_one_process_counts(serial, pooled, monkeypatch):
    config, shipped = pooled
    forked = run_benchmark(plan_run(config), executor=make_executor("processes", 2))
    assert forked.record.settings.counting.n_workers == 2 and forked.record.settings.counting.executor == "processes"
    assert len(shipped) == len(serial.record.tokenizers) - n_skipped(serial)  # every tokenizer counted on the pool
    assert rows_without_timing(forked.rows) == rows_without_timing(serial.rows)
    assert any(row.ok and row.family == "bpe-balanced" for row in forked.rows)
    # Workers started fresh (no fork) build every tokenizer from its recipe: the same rows.
    monkeypatch.setattr(executors, "_fork_is_safe", lambda: False)
    shipped.clear()
    fresh = run_benchmark(plan_run(config), executor=make_executor("processes", 2))
    assert len(shipped) == len(serial.record.tokenizers) - n_skipped(serial)
    assert rows_without_timing(fresh.rows) == rows_without_timing(serial.rows)


def n_skipped(results) -> int:
    return sum(entry.status.startswith("skipped") for entry in results.record.tokenizers.values())


def test_tasks_split_a_long_text_and_merge_back_in_order(serial):
    from benchmark.adapters import PRETRAINED

    from benchmark.words.segmenters import segment_language

    adapter = PRETRAINED["tiktoken/cl100k_base"]()
    texts = {"a": [f"sentence {i}" for i in range(25)], "b": ["x"] * 3, "c": [f"{i} y" for i in range(9)]}
    words = {code: segment_language("eng", lines).spans for code, lines in texts.items()}
    tasks = count_tasks(adapter.id, adapter.recipe, texts, words, task_lines=10)
    assert [sum(len(t) for _, t, _ in task.slices) for task in tasks] == [10, 10, 8, 9]
    assert [task.check_vocabulary for task in tasks] == [True, False, False, False]  # once per tokenizer
    # Each slice carries its own sentences' words.
    assert all(len(spans) == len(lines) for task in tasks for _, lines, spans in task.slices)
    results = list(map(run_count_task, tasks))
    counts, failures = merge_results(results)
    assert not failures
    whole, _ = merge_results([run_count_task(CountTask(adapter.id, adapter.recipe, tuple(
        (code, tuple(t), words[code]) for code, t in texts.items())))])
    assert counts == whole
    assert counts["a"].n_words == 50 and counts["c"].n_words == 18
    assert merged_vocabulary(results).n_unreachable == 0


def test_a_tokenizer_that_raises_in_a_worker_fails_its_language_only():
    from benchmark.adapters.base import Recipe

    task = CountTask("broken", Recipe("benchmark.adapters.openai_tiktoken:load", ("no_such_encoding",)),
                     (("eng", ("a",), None), ("jpn", ("b",), None)))
    result = run_count_task(task)
    assert result.counts == () and [code for code, _ in result.failures] == ["eng", "jpn"]
    assert "unknown OpenAI encoding 'no_such_encoding'" in result.failures[0][1]


@pytest.fixture
def dask_cluster(tmp_path):
    """A real scheduler and two workers, separate processes on loopback, as on a cluster."""
    pytest.importorskip("distributed")
    dask = shutil.which("dask", path=str(Path(sys.executable).parent))
    assert dask, "the dask command comes with dask[distributed]"
    scheduler_file = tmp_path / "scheduler.json"
    processes = [subprocess.Popen([dask, "scheduler", "--host", "127.0.0.1", "--port", "0", "--no-dashboard",
                                   "--scheduler-file", str(scheduler_file)],
                                  stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)]
    try:
        deadline = time.monotonic() + 60
        while not scheduler_file.exists() and time.monotonic() < deadline:
            time.sleep(0.2)
        address = json.loads(scheduler_file.read_text())["address"]
        for _ in range(2):
            processes.append(subprocess.Popen([dask, "worker", address, "--nworkers", "1", "--nthreads", "1",
                                               "--no-dashboard", "--local-directory", str(tmp_path)],
                                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
        from distributed import Client

        with Client(address, timeout=60) as client:
            client.wait_for_workers(2, timeout=60)
        yield address
    finally:
        stop_workers_then_scheduler(processes)


def test_a_dask_cluster_counts_exactly_what_one_process_counts(serial, pooled, dask_cluster):
    assert dask_cluster.startswith("tcp://127.0.0.1:")
    config, shipped = pooled
    on_cluster = run_benchmark(plan_run(config), executor=make_executor("dask", scheduler=dask_cluster))
    assert on_cluster.record.settings.counting.executor == "dask"
    assert on_cluster.record.settings.counting.n_workers == 2
    assert len(shipped) == len(serial.record.tokenizers) - n_skipped(serial)
    assert rows_without_timing(on_cluster.rows) == rows_without_timing(serial.rows)


def test_executor_options_are_checked():
    from benchmark.plumbing.errors import BenchmarkError

    with pytest.raises(BenchmarkError, match="unknown executor 'threads'"):
        make_executor("threads")
    with pytest.raises(BenchmarkError, match="--scheduler is the address of a Dask scheduler: add --executor dask"):
        make_executor("processes", scheduler="tcp://127.0.0.1:8786")
    assert make_executor("processes", 1).name == "serial"


def test_without_workers_a_two_core_machine_counts_on_both_cores(monkeypatch):
    from benchmark.measure import executors

    monkeypatch.setattr(executors, "default_workers", lambda: 2)
    default = executors.make_executor()
    assert default.name == "processes" and default.n_workers == 2  # counting, training and words on both
    monkeypatch.setattr(executors, "default_workers", lambda: 1)
    assert executors.make_executor().name == "serial"  # one core: no pool to pay for


def test_apart_the_vocabulary_check_is_a_task_of_its_own_with_the_same_results():
    from benchmark.adapters import PRETRAINED

    from benchmark.words.segmenters import segment_language

    adapter = PRETRAINED["tiktoken/o200k_base"]()  # 12 unreachable entries
    texts = {"a": [f"sentence {i}" for i in range(25)], "b": ["x"] * 3, "c": [f"{i} y" for i in range(9)]}
    words = {code: segment_language("eng", lines).spans for code, lines in texts.items()}
    together = count_tasks(adapter.id, adapter.recipe, texts, words, task_lines=10)
    apart = count_tasks(adapter.id, adapter.recipe, texts, words, task_lines=10, apart=True)
    assert [(task.check_vocabulary, [code for code, *_ in task.slices]) for task in apart] == [
        (True, []), (False, ["a"]), (False, ["a"]), (False, ["a", "b"]), (False, ["c"])]
    assert [sum(len(t) for _, t, _ in task.slices) for task in apart] == [0, 10, 10, 8, 9]
    assert [task.slices for task in apart[1:]] == [task.slices for task in together]
    # Handed out heaviest first on two forked workers, taken back in task order: the same counts
    # and the same vocabulary check as the tasks of the default split, counted here.
    order = executors.heaviest_first(apart, {adapter.id: adapter.vocab_size})
    assert order == [0, 1, 2, 4, 3]  # the check first, then by sentences
    on_pool = executors.start_counting(make_executor("processes", 2), apart, {adapter.id: adapter.vocab_size}).results()
    here = list(map(run_count_task, together))
    assert merge_results(on_pool) == merge_results(here)
    assert merged_vocabulary(on_pool) == merged_vocabulary(here) and merged_vocabulary(here).n_unreachable == 12


def test_started_tasks_give_their_results_in_order_whatever_runs_meanwhile():
    for executor in (make_executor("serial"), make_executor("processes", 2)):
        started = executor.start(abs, [-3, -1, -2, 5])
        meanwhile = sum(range(10_000))  # this process works while the workers do
        done = []
        assert started.results(on_done=lambda: done.append(1)) == [3, 1, 2, 5] and len(done) == 4
        assert meanwhile == 49_995_000
        assert executor.start(abs, []).results() == []
    # A run that fails meanwhile drops the tasks not yet begun, and the pool is shut down.
    from concurrent.futures import CancelledError

    pending = make_executor("processes", 2).start(time.sleep, [0.05] * 40)
    pending.cancel()
    with pytest.raises(CancelledError):
        pending.results()


def test_the_slow_families_are_handed_to_a_worker_first():
    from benchmark.adapters.registry import train_tasks, trained_in

    plan = plan_run(RunConfig(vocab_sizes=(1024,), max_sentences=10))
    order = [task.family.family for task in train_tasks(plan.tokenizer_ids, plan.training, None, plan.families)]
    in_plan = [family.family for family in trained_in(plan.tokenizer_ids, plan.families)]
    slow = {"hf-parity", "sentencepiece-unigram"}  # 13 s and 6 s against under 1 s (adapters/table.py)
    assert slow < set(in_plan) and in_plan.index("hf-parity") > in_plan.index("bpe-balanced")
    assert order == [f for f in in_plan if f in slow] + [f for f in in_plan if f not in slow]

"""Test-wide settings: tests write nothing into the working directory, nor into the user's cache.

- The caches a run keeps (trained models, counts, price listings) go to a temporary folder made
  for each test process (`XDG_CACHE_HOME`, which subprocesses inherit), not `~/.cache/tokencost`:
  a test that runs `benchmark run` without `--cache-dir` counts from scratch, as on a fresh
  machine, instead of reading what an earlier run left there.

- Hypothesis keeps no example database, and its other files (a cache of constants it found in the
  code) go to a temporary folder instead of `.hypothesis/` in the current folder.
- pytest-benchmark creates its storage folder (`./.benchmarks`) at start-up even when benchmarks are
  disabled; unless a run asks for stored results (`--benchmark-autosave`, `--benchmark-save`,
  `--benchmark-compare`, `--benchmark-histogram`, or an explicit `--benchmark-storage`), its storage
  goes to a temporary folder instead.
"""

from __future__ import annotations

import atexit
import os
import shutil
import tempfile

import pytest
from hypothesis import settings
from hypothesis.configuration import set_hypothesis_home_dir

settings.register_profile("no-database", database=None)
settings.load_profile("no-database")
set_hypothesis_home_dir(tempfile.mkdtemp(prefix="tokencost-hypothesis-"))
os.environ["XDG_CACHE_HOME"] = _CACHE_HOME = tempfile.mkdtemp(prefix="tokencost-cache-")
atexit.register(shutil.rmtree, _CACHE_HOME, ignore_errors=True)  # its models and counts are this run's alone

DEFAULT_BENCHMARK_STORAGE = "file://./.benchmarks"


@pytest.hookimpl(tryfirst=True)
def pytest_configure(config: pytest.Config) -> None:
    option = config.option
    if getattr(option, "benchmark_storage", None) != DEFAULT_BENCHMARK_STORAGE:
        return  # no pytest-benchmark, or the user chose a storage
    wants_storage = (
        option.benchmark_autosave
        or option.benchmark_save
        or option.benchmark_compare
        or option.benchmark_histogram
    )
    if not wants_storage:
        option.benchmark_storage = "file://" + tempfile.mkdtemp(prefix="tokencost-benchmarks-")

"""tokencost: what the same sentence costs in tokens, language by language.

    python -m benchmark run          # everything: train, measure, write reports/
    python -m benchmark --help

The public names, re-exported here, are light: the tokenizer libraries, numpy and the plotting
stack are imported only by the code that uses them (a test checks it).
"""

from benchmark.plumbing.errors import BenchmarkError
from benchmark.results import ROW_FIELDS, Results, ResultRow, RunRecord, load_results, save_results

__all__ = [
    "BenchmarkError",
    "ROW_FIELDS",
    "ResultRow",
    "Results",
    "RunRecord",
    "load_results",
    "save_results",
    "run_benchmark",
    "plan_run",
    "RunConfig",
    "measure_throughput",
    "ThroughputResult",
]


def __getattr__(name: str):
    # Lazy: `import benchmark` must not pull in the measuring modules' imports until they are used.
    if name == "RunConfig":
        from benchmark.measure.plan import RunConfig

        return RunConfig
    if name in ("run_benchmark", "plan_run"):
        from benchmark.measure import plan
        from benchmark.measure import run

        return getattr(run if name == "run_benchmark" else plan, name)
    if name in ("measure_throughput", "ThroughputResult"):
        from benchmark.measure import timing

        return getattr(timing, name)
    raise AttributeError(f"module 'benchmark' has no attribute {name!r}")

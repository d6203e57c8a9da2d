"""tokencost: what the same sentence costs in tokens, language by language.

    python -m benchmark run          # everything: train, measure, write reports/
    python -m benchmark --help

The public names, re-exported here, are light: the tokenizer libraries, numpy and the plotting
stack are imported only by the code that uses them (a test checks it).
"""

from benchmark.errors import BenchmarkError
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
    "RunConfig",
    "measure_throughput",
    "ThroughputResult",
]


def __getattr__(name: str):
    # Lazy: `import benchmark` must not pull in measure.py's imports until they are used.
    if name in ("run_benchmark", "RunConfig"):
        from benchmark import measure

        return getattr(measure, name)
    if name in ("measure_throughput", "ThroughputResult"):
        from benchmark import timing

        return getattr(timing, name)
    raise AttributeError(f"module 'benchmark' has no attribute {name!r}")

"""Our BPE trainer before (the train.py of an earlier source tree) and now, beside HF's BpeTrainer,
in turns in one process pinned to one core:

    python docs/measurements/trainer_speed.py --before /work/baseline/b98865f --repeats 5

Each round trains once with each of the three, in a rotating order, on the six FLORES-200 dev
files (what `speed --training` trains on): ours is `count_pretokens` with the cl100k pattern then
`train_merges` (as `benchmark.speed.training.train_ours`), HF is `speed.training.train_hf` on one
rayon thread. Prints the median wall seconds, the ratios, the one-minute load average seen during
the rounds, and checks that before and now make the same merges, merge for merge.
"""

import argparse
import importlib.util
import os
import statistics
import time
from pathlib import Path

from benchmark.speed.training import dev_texts, set_hf_threads, train_hf


def load_trainer(tree: Path):
    """The train.py of a source tree as a module of its own, with the modules of that tree it
    imports (patterns.py, progress.py, and pairs.py where it has one) in place of this tree's."""
    import sys

    folder = tree / "benchmark" / "bpe"
    names = [name for name in ("patterns", "progress", "pairs", "train") if (folder / f"{name}.py").exists()]
    saved = {name: sys.modules.get(f"benchmark.bpe.{name}") for name in names}
    try:
        for name in names:
            spec = importlib.util.spec_from_file_location(f"benchmark.bpe.{name}", folder / f"{name}.py")
            module = importlib.util.module_from_spec(spec)
            sys.modules[f"benchmark.bpe.{name}"] = module
            spec.loader.exec_module(module)
        return module  # train.py, the last
    finally:
        for name, module in saved.items():
            if module is None:
                sys.modules.pop(f"benchmark.bpe.{name}", None)
            else:
                sys.modules[f"benchmark.bpe.{name}"] = module


def train_with(module, texts, vocab_size):
    pattern = module.compile_pattern(module.resolve_pattern("cl100k")[1])
    started = time.perf_counter()
    merges, _ = module.train_merges(module.count_pretokens(texts, pattern), vocab_size - 256)
    return time.perf_counter() - started, merges


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--before", type=Path, required=True, help="a source tree, e.g. /work/baseline/b98865f")
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--vocab-sizes", default="4096,16384")
    parser.add_argument("--cpu", type=int, default=0, help="the core every run is pinned to")
    args = parser.parse_args()
    os.sched_setaffinity(0, {args.cpu})
    set_hf_threads(1)
    from benchmark.bpe import train as now  # first: the other tree's modules are swapped in only while it loads
    from benchmark.corpora import FLORES_LANGUAGES
    from benchmark.speed.ratios import load_texts

    before = load_trainer(args.before)
    texts = dev_texts(load_texts(FLORES_LANGUAGES)[0])
    print(f"{len(texts):,} lines, {sum(map(len, texts)):,} characters; one core (cpu {args.cpu}), "
          f"medians of {args.repeats} rounds\n")
    print("| vocab | before | now | HF | now / HF | before / HF | now / before | load (1 min) | merges |")
    print("|---:|---:|---:|---:|---:|---:|---:|---|---|")
    for vocab_size in [int(size) for size in args.vocab_sizes.split(",")]:
        seconds = {"before": [], "now": [], "hf": []}
        loads, same = [], True
        runs = {"before": lambda: train_with(before, texts, vocab_size),
                "now": lambda: train_with(now, texts, vocab_size),
                "hf": lambda: (train_hf(texts, vocab_size)["seconds"], None)}
        names = list(runs)
        for repeat in range(args.repeats):
            merges = {}
            for name in names[repeat % 3:] + names[:repeat % 3]:
                loads.append(os.getloadavg()[0])
                run_seconds, merges[name] = runs[name]()
                seconds[name].append(run_seconds)
            same = same and merges["before"] == merges["now"]
        median = {name: statistics.median(values) for name, values in seconds.items()}
        print(f"| {vocab_size:,} | {median['before']:.3f} s | {median['now']:.3f} s | {median['hf']:.3f} s | "
              f"**{median['now'] / median['hf']:.2f}x** | {median['before'] / median['hf']:.2f}x | "
              f"{median['now'] / median['before']:.2f}x | {min(loads):.1f}-{max(loads):.1f} | "
              f"{'identical' if same else 'DIFFERENT'} |", flush=True)


if __name__ == "__main__":
    main()

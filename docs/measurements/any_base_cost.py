"""What `run --bases` adds to the 204-language run, without running it again: seconds and bytes.

    python docs/measurements/any_base_cost.py [reports/all-languages/results.json]

Counts every FLORES-200 devtest sentence of the run's languages with tiktoken's o200k_base and
cl100k_base (real counts), gives each of the run's production tokenizers one of the two (the
phase's work depends on the shapes, tokenizers x languages x lines x bases, not on the values),
then times the run's own phase (`measure.bases.base_premiums`, the default bases) and writes the
results file with and without it to count the bytes it adds. It also checks, on the two real
tokenizers, that over English the phase gives the committed rows' intervals exactly.
"""

from __future__ import annotations

import dataclasses
import statistics
import sys
import tempfile
import time
from pathlib import Path

from benchmark.adapters import PRETRAINED
from benchmark.measure.bases import base_premiums, default_bases, premium_intervals
from benchmark.measure.counting import count_texts
from benchmark.measure.plan import RunConfig, plan_run
from benchmark.results.rows import load_results, save_results

REAL = ("tiktoken/o200k_base", "tiktoken/cl100k_base")


def main(path: str) -> None:
    results = load_results(path)
    languages = tuple(results.record.settings.languages)
    reference = results.record.settings.reference
    tokenizers = list(dict.fromkeys(row.tokenizer for row in results.rows))
    plan = plan_run(RunConfig(languages=languages, tokenizers=REAL, quick=False))
    started = time.perf_counter()
    counted = {t: {code: count_texts(PRETRAINED[t](), plan.measure_texts[code]).tokens_per_line for code in languages}
               for t in REAL}
    print(f"counted {len(languages)} languages x {len(REAL)} tokenizers in {time.perf_counter() - started:.1f} s")

    rows = {(r.tokenizer, r.language): r for r in results.rows}
    over_reference, _ = premium_intervals(REAL, languages, [reference], counted)
    differ = [(t, code) for t in REAL for code in languages
              if over_reference[reference][t][code] != (rows[t, code].premium_ci_low, rows[t, code].premium_ci_high)]
    print(f"over {reference}: {len(REAL) * len(languages) - len(differ)} of {len(REAL) * len(languages)} intervals "
          f"equal the committed rows' exactly; differing: {differ[:5]}")

    lines = {t: counted[REAL[k % len(REAL)]] for k, t in enumerate(tokenizers)}
    bases = default_bases(languages, reference)
    seconds = []
    for _ in range(3):
        started = time.perf_counter()
        found = base_premiums(tokenizers, languages, bases, reference, lines)
        seconds.append(time.perf_counter() - started)
    n_intervals = sum(len(by_language) for by_tokenizer in found.premium_ci.values()
                      for by_language in by_tokenizer.values())
    print(f"bases {', '.join(bases)}: {len(tokenizers)} tokenizers x {len(languages)} languages, {n_intervals} "
          f"intervals; seconds {', '.join(f'{s:.2f}' for s in seconds)} (median {statistics.median(seconds):.2f})")

    with tempfile.TemporaryDirectory() as folder:
        before, after = Path(folder, "before.json"), Path(folder, "after.json")
        save_results(dataclasses.replace(results, bases=dataclasses.replace(found, premium_ci={}, mean_premium={},
                                                                            bases=())), before)
        save_results(dataclasses.replace(results, bases=found), after)
        size_before, size_after = before.stat().st_size, after.stat().st_size
    print(f"results.json: {size_before:,} bytes without the intervals, {size_after:,} with them "
          f"(+{size_after - size_before:,}, +{(size_after - size_before) / size_before:.1%})")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "reports/all-languages/results.json")

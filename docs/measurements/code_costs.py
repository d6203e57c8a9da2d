"""What source code costs on each production tokenizer: bytes per token of the pinned code sample
(corpora/code/) per programming language, the cheapest and dearest tokenizer of each, beside the
committed run's English FLORES-200 prose, without a full run.

    python docs/measurements/code_costs.py [reports/results.json]

Encodes each language's sample file whole with every production tokenizer (the run's own step,
`measure.code_sample.code_costs`), times it, and prints a Markdown table: bytes per token per
language, English prose's bytes per token from the results file's eng_Latn rows, and each language's
ratio to prose (bytes per token of prose over code's: how many times prose's tokens per byte a
kilobyte of code costs; not a premium, the texts say different things).
"""

from __future__ import annotations

import sys
import time

from benchmark.adapters import PRETRAINED
from benchmark.adapters.families import is_production
from benchmark.measure.code_sample import code_costs
from benchmark.results.rows import load_results


def main(path: str) -> None:
    results = load_results(path)
    prose = {row.tokenizer: row.bytes_per_token for row in results.rows if row.language == "eng_Latn" and row.ok}
    adapters = [adapter for make in PRETRAINED.values() if is_production((adapter := make()).family)]
    started = time.perf_counter()
    costs = code_costs(adapters)
    print(f"{len(adapters)} production tokenizers x {len(costs.languages)} languages in "
          f"{time.perf_counter() - started:.2f} s\n")
    found = {(e.tokenizer, e.language): e for e in costs.entries}
    sizes = {e.language: e for e in costs.entries}
    print("| tokenizer | " + " | ".join(f"{lang} ({sizes[lang].n_bytes:,} B, {sizes[lang].n_lines:,} lines)"
                                        for lang in costs.languages) + " | English prose (FLORES devtest) |")
    print("|---" * (2 + len(costs.languages)) + "|")
    for adapter in adapters:
        cells = [f"{found[(adapter.id, lang)].bytes_per_token:.2f}" for lang in costs.languages]
        english = prose.get(adapter.id)
        print(f"| {adapter.id} | " + " | ".join(cells) + f" | {'' if english is None else f'{english:.2f}'} |")
    print()
    for lang in costs.languages:
        entries = sorted((e for e in costs.entries if e.language == lang), key=lambda e: e.n_tokens)
        low, high = entries[0], entries[-1]
        ratios = sorted(prose[e.tokenizer] / e.bytes_per_token for e in entries if e.tokenizer in prose)
        print(f"{lang}: cheapest {low.tokenizer} {low.bytes_per_token:.2f} B/token ({low.tokens_per_kb:.1f} tokens/kB, "
              f"{low.tokens_per_line:.2f}/line); dearest {high.tokenizer} {high.bytes_per_token:.2f} "
              f"({high.tokens_per_kb:.1f}/kB, {high.tokens_per_line:.2f}/line), {high.n_tokens / low.n_tokens:.2f}x; "
              f"tokens per kB over English prose's: {ratios[0]:.2f} to {ratios[-1]:.2f}, median "
              f"{ratios[len(ratios) // 2]:.2f}")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "reports/results.json")

"""A prices file the tool accepts is answered in about linear time (issue 53): the largest file the
size bound allows (8 MiB, about 220,000 models) took 128 s in `cost`, 21 of every 26 s in a linear
scan of the pairwise ratios made once per model. Real files, a real process; the time limit is a
guard against a hang, not a speed target (docs/measurements/ has the timings).
"""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from benchmark.pricing.language.answer import answer_data
from benchmark.pricing.prices.user_prices import MAX_PRICES_BYTES
from benchmark.results import pairwise
from benchmark.results.pairwise import PairwiseRatios, ratio_between
from benchmark.results.rows import load_results
from tests.support.paths import DATA, REPO

FIXTURE = DATA / "results_cost.json"  # six languages, twelve production tokenizers, 396 pairwise ratios
TOKENIZERS = ("tiktoken/o200k_base", "llama/llama4", "qwen/qwen", "google/gemma4", "deepseek/v4")


def prices_file(path, *, max_bytes: int):
    lines, size = ["model,input_usd_per_mtok,context_window,tokenizer,provider\n"], 0
    while size < max_bytes - 100:
        n = len(lines)
        line = f"model-{n},{0.001 + n % 97 / 1000:.3f},{128_000 + n},{TOKENIZERS[n % len(TOKENIZERS)]},host {n % 13}\n"
        lines.append(line)
        size += len(line)
    path.write_text("".join(lines), encoding="utf-8")
    return path, len(lines) - 1


def scanned(entries, language, tokenizer, other):
    """The lookup as it was: a scan of every ratio, the first entry of the pair in either orientation."""
    for entry in entries:
        if entry.language == language and (entry.tokenizer, entry.other) == (tokenizer, other):
            return entry.ratio, entry.ratio_ci_low, entry.ratio_ci_high
        if entry.language == language and (entry.tokenizer, entry.other) == (other, tokenizer):
            return 1 / entry.ratio, 1 / entry.ratio_ci_high, 1 / entry.ratio_ci_low
    return None


def test_the_pairwise_lookup_is_the_scan_it_replaces():
    results = load_results(FIXTURE)
    assert isinstance(results.pairwise, PairwiseRatios) and len(results.pairwise) == 396
    languages = {entry.language for entry in results.pairwise} | {"xxx_Xxxx"}
    tokenizers = {entry.tokenizer for entry in results.pairwise} | {entry.other for entry in results.pairwise}
    for language in languages:
        for first in tokenizers:
            for second in tokenizers | {"nobody/measured"}:
                expected = scanned(results.pairwise, language, first, second)
                assert ratio_between(results.pairwise, language, first, second) == expected
                assert ratio_between(list(results.pairwise), language, first, second) == expected


def test_a_priced_answer_builds_the_pairwise_lookup_once_whatever_the_models(tmp_path, monkeypatch):
    built = []
    real = pairwise._by_pair
    monkeypatch.setattr(pairwise, "_by_pair", lambda entries: built.append(len(entries)) or real(entries))
    path, n_models = prices_file(tmp_path / "prices.csv", max_bytes=250_000)
    answer = answer_data("hin", FIXTURE, prices=path)
    assert n_models > 5_000 and built == [396]
    assert answer.languages[0].cheapest is not None


def test_the_largest_prices_file_the_bound_allows_is_answered(tmp_path):
    path, n_models = prices_file(tmp_path / "prices.csv", max_bytes=MAX_PRICES_BYTES)
    assert n_models > 180_000
    done = subprocess.run([sys.executable, "-m", "benchmark", "cost", "hin", "--results", str(FIXTURE), "--prices",
                           str(path)], capture_output=True, text=True, timeout=90, cwd=tmp_path,
                          env={**os.environ, "PYTHONPATH": str(REPO)})
    assert done.returncode == 0, done.stderr
    assert "Cheapest overall: model-" in done.stdout


if __name__ == "__main__":  # pragma: no cover
    sys.exit(pytest.main([__file__]))

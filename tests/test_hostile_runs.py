"""Runs on tiny or odd inputs give right answers or one-line errors (issue #26, cases 6, 8, 9, 13, 14,
17, 18, 19): real runs of the CLI on real files."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from benchmark.cli.parser import main
from benchmark.results.rows import load_results

REPO = Path(__file__).resolve().parents[1]
DATA = Path(__file__).parent / "data"
TINY = ["--corpus", str(DATA / "tiny_corpus"), "--repeats", "1"]


def test_a_two_sentence_corpus_draws_every_plot_and_each_interval_holds_its_estimate(tmp_path):
    from benchmark.measure.metrics import containing

    assert containing((0.18577075098814233, 0.19), 0.1857707509881423) == (0.1857707509881423, 0.19)
    output = tmp_path / "out"
    assert main(["run", *TINY, "--max-sentences", "2", "--tokenizers", "tiktoken/*", "--output", str(output)]) == 0
    results = load_results(output / "results.json")
    for summary in results.summaries:
        for name in ("gini", "worst_to_best", "mean_premium"):
            low, high, value = (getattr(summary, f"{name}_ci_low"), getattr(summary, f"{name}_ci_high"),
                                getattr(summary, name))
            if value is not None:
                assert low <= value <= high, (summary.tokenizer, name)
    for row in results.rows:
        if row.premium is not None:
            assert row.premium_ci_low <= row.premium <= row.premium_ci_high
    assert (output / "plots" / "fairness.png").is_file()


def test_a_tokenizer_file_named_like_mathtext_is_drawn_as_its_name(tmp_path):
    from benchmark.bpe import ByteLevelBPE

    model = tmp_path / "a|b$x^$.json"
    ByteLevelBPE.train(["Once upon a time there was a cat."] * 10, vocab_size=280, pattern="gpt2").save(model)
    output = tmp_path / "out"
    assert main(["run", *TINY, "--tokenizers", "tiktoken/cl100k_base,file/*", "--tokenizer-file", str(model),
                 "--output", str(output)]) == 0
    svg = (output / "plots" / "fairness.svg").read_text(encoding="utf-8")
    assert "file/a|b$x^$.json" in json.dumps(load_results(output / "results.json").to_dict())
    assert svg.startswith("<?xml")

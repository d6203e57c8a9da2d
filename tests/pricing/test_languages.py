"""`cost hin,ben,eng` (and with --models) on the committed 204-language results: one answer per
language, each the answer `cost` gives for that language alone, then a comparison per model of its
cost in each language relative to English (its tokenizer's premium with its interval)."""

from __future__ import annotations

import io

import pytest

from benchmark.cli.commands import cmd_cost
from benchmark.cli.parser import main
from benchmark.results.rows import load_results
from tests.support.paths import REPO

COMMITTED = REPO / "reports" / "all-languages" / "results.json"


pytestmark = pytest.mark.usefixtures("module_cache")  # tests/pricing/conftest.py


@pytest.fixture(scope="module")
def rows():
    return {(row.tokenizer, row.language): row for row in load_results(COMMITTED).rows}


def cost_text(languages: str, models: list[str] | None = None) -> str:
    out = io.StringIO()
    assert cmd_cost(languages, results_path=COMMITTED, models=models, out=out) == 0
    return out.getvalue()


def comparison_table(text: str) -> list[list[str]]:
    block = text.split("\nCompared with English: ", 1)[1].splitlines()[1:]
    return [line[2:].split("  ") for line in block if line.startswith("  ")]


@pytest.mark.parametrize("models", [None, ["gpt-5", "gemini-2.5-flash", "llama-4-maverick"]])
def test_each_language_is_answered_as_alone_then_compared(rows, models):
    text = cost_text("hin,Bengali,eng,hin_Deva", models)  # codes or names; a language named twice once
    alone = [cost_text(code, models) for code in ("hin", "ben", "eng")]
    assert text.startswith("\n".join(alone) + "\nCompared with English: ")
    table = comparison_table(text)
    header = [cell.strip() for cell in table[0] if cell.strip()]
    assert header[1:] == ["hin_Deva", "ben_Beng", "eng_Latn"]
    for line in table[1:]:
        label, *cells = [cell.strip() for cell in line if cell.strip()]
        tokenizer = label.split("[")[1].rstrip("]") if models else label.split(" (")[0]
        for language, cell in zip(header[1:], cells):
            row = rows[tokenizer, language]
            shown = f"{row.premium:.2f}x" + ("" if row.premium_ci_low == row.premium_ci_high else
                                            f" ({row.premium_ci_low:.2f}-{row.premium_ci_high:.2f})")
            assert cell == shown
    labels = [line[0].strip() for line in table[1:]]
    if models:
        assert labels[0] == "gpt-5 [tiktoken/o200k_base]" and "gemini-2.5-flash [google/gemma4]" in labels
        assert len(labels) == 5  # gpt-5, gemini-2.5-flash and llama-4-maverick's three models
    else:
        measured = {tokenizer for tokenizer, _ in rows}  # the production tokenizers of the committed run
        assert labels[0].startswith("tiktoken/cl100k_base (") and {label.split(" (")[0] for label in labels} == measured
        assert len(labels) == len(measured) == 15
    assert "\nCheapest overall per language: hin_Deva " in text


def test_one_unknown_language_among_several_is_one_line(capsys):
    assert main(["cost", "hin,Hindu", "--results", str(COMMITTED)]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and "unknown language code 'Hindu'" in captured.err and captured.err.count("\n") == 1
    assert main(["cost", "hin,,eng", "--results", str(COMMITTED)]) == 2
    assert "an empty name between commas" in capsys.readouterr().err

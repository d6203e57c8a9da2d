"""`cost --models a,b,c` (pricing/language/shortlist.py) on the committed 204-language results
(reports/all-languages/results.json): the answer restricted to a shortlist, its ties and intervals
as the whole answer's, a family name taken with its models named, a brand or an unknown name
refused with close matches, and a model without a count or a price named with why."""

from __future__ import annotations

import io

import pytest

from benchmark.cli.commands import cmd_cost
from benchmark.cli.parser import main
from benchmark.pricing.language import decision
from benchmark.pricing.language.answer import answer_data
from benchmark.pricing.language.text import cost_phrase, room_phrase
from tests.support.paths import REPO

COMMITTED = REPO / "reports" / "all-languages" / "results.json"
SHORTLIST = ["gpt-5", "gemini-2.5-flash", "llama-4-maverick"]


pytestmark = pytest.mark.usefixtures("module_cache")  # tests/pricing/conftest.py


@pytest.fixture(scope="module")
def whole():
    return answer_data("hin", COMMITTED)


@pytest.fixture(scope="module")
def short():
    return answer_data("hin", COMMITTED, models=SHORTLIST)


def cost_text(*args: str) -> str:
    out = io.StringIO()
    language, *rest = args
    models = rest[0].split(",") if rest else None
    assert cmd_cost(language, results_path=COMMITTED, models=models, out=out) == 0
    return out.getvalue()


def test_the_shortlist_names_exist_in_the_models_file_and_the_price_database(whole):
    from benchmark.adapters.models import find_models

    assert [m.model for m in find_models("gpt-5")] == ["gpt-5"]
    assert [m.model for m in find_models("gemini-2.5-flash")] == ["gemini-2.5-flash"]
    assert {m.tokenizer for m in find_models("llama-4-maverick")} == {"llama/llama4"}
    for model in ("gpt-5", "gemini-2.5-flash", "llama-4-maverick-17b-128e-instruct"):
        assert whole.book.listings[model].priced


def test_the_answer_is_the_whole_answer_restricted_to_the_shortlist(whole, short):
    (hindi,) = short.languages
    picked = {"gpt-5", "gemini-2.5-flash", "llama-4-maverick-17b-128e", "llama-4-maverick-17b-128e-instruct",
              "llama-4-maverick-17b-128e-instruct-fp8"}
    assert {t.tokenizer for t in hindi.tokenizers} == {"tiktoken/o200k_base", "google/gemma4", "llama/llama4"}
    assert {m for t in hindi.tokenizers for m in t.models} == picked
    everything = {f.model: f for f in whole.languages[0].figures}
    mine = hindi.figures
    assert {f.model for f in mine} == {"gpt-5", "gemini-2.5-flash", "llama-4-maverick-17b-128e-instruct"}
    # gemini-2.5-flash is on google/gemma4 by today's models.csv; the committed record may predate it.
    for f in mine:
        if f.model in everything:
            assert f == everything[f.model]
    # The leaders and their ties are the decision's over the shortlist's figures, with the paired intervals.
    pairwise = short.results.pairwise
    assert hindi.cheapest == decision.cheapest(mine, pairwise)
    assert hindi.roomiest == decision.roomiest(mine, pairwise)
    assert short.unpriced == {"llama-4-maverick-17b-128e": "base weights: no API sells them",
                              "llama-4-maverick-17b-128e-instruct-fp8":
                                  "quantised weights: priced under the full-precision model"}


def test_the_text_prints_the_shortlist_with_the_family_name_caveat(short):
    text = cost_text("hin", ",".join(SHORTLIST))
    (hindi,) = short.languages
    assert "\nShortlist: gpt-5, gemini-2.5-flash, llama-4-maverick\n" in text
    assert ("\n  llama-4-maverick: stands for 3 models on llama/llama4 (models.csv): llama-4-maverick-17b-128e, "
            "llama-4-maverick-17b-128e-instruct, llama-4-maverick-17b-128e-instruct-fp8\n") in text
    sections = {block.split(":")[0]: block for block in text.split("\n\n")}
    assert set(sections) >= {"tiktoken/o200k_base", "google/gemma4", "llama/llama4"}
    assert "tiktoken/cl100k_base" not in sections and "anthropic/claude-legacy" not in text
    assert "\n  models: gpt-5\n" in sections["tiktoken/o200k_base"]
    best = hindi.cheapest
    line = f"Cheapest overall: {cost_phrase(best.best, 'English')} [{best.best.tokenizer}]"
    assert line in text.splitlines()
    room = hindi.roomiest
    assert f"Roomiest overall: {room_phrase(room.best, 'English')} [{room.best.tokenizer}]" in text.splitlines()
    if best.tied:
        assert "  tied with " + ", ".join(f"{t.model} [{t.tokenizer}]" for t in best.tied) in text.splitlines()
    # Gemini's figure says which file was counted.
    assert "  note: Gemini: counted with MaxText's Gemma 4 file" in sections["google/gemma4"]


@pytest.mark.parametrize("typed, said", [
    ("claude", "'claude' stands for models whose tokenizer is not published (claude-3-haiku, claude-3-5-sonnet, "),
    ("grok", "'grok' stands for models whose tokenizer is not published (grok-2-1212, grok-4.7); name one of the "
             "others: grok-1"),
    ("gpt-4-o", "'gpt-4-o' is no model of models.csv, the price database or your prices; close: gpt-4o, gpt-4,"),
    ("gpt-5,gemni-2.5-flash", "'gemni-2.5-flash' is no model of models.csv, the price database or your prices; "
                              "close: gemini-2.5-flash"),
])
def test_a_brand_or_an_unknown_name_is_refused_in_one_line_with_close_matches(capsys, typed, said):
    assert main(["cost", "hin", "--results", str(COMMITTED), "--models", typed]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.startswith("error: --models: ") and said in captured.err and captured.err.count("\n") == 1


def test_a_snapshot_or_the_start_of_one_model_name_is_taken_with_a_caveat():
    text = cost_text("hin", "gpt-4o-2024-08-06,qwen3-235b")
    assert "\n  gpt-4o-2024-08-06: a snapshot of gpt-4o: counted and priced as gpt-4o\n" in text
    assert "\n  qwen3-235b: taken as qwen3-235b-a22b, the one listed model whose name starts so\n" in text
    assert "\n  models: gpt-4o\n" in text and "\n  models: qwen3-235b-a22b\n" in text


def test_a_model_without_a_count_or_a_price_is_named_with_why():
    text = cost_text("hin", "gpt-5,gemini-3.6-flash,claude-sonnet-4,grok-1")
    lines = text.splitlines()
    not_counted = lines[lines.index("Not counted:") + 1:]
    assert any(line.startswith("  gemini-3.6-flash: tokenizer not published (") for line in not_counted)
    assert any(line.startswith("  claude-sonnet-4-0: tokenizer not published (Anthropic publishes no tokenizer for "
                               "Claude 3 or later") for line in not_counted)
    assert any(line.startswith("  claude-sonnet-4-5: tokenizer not published (") for line in not_counted)
    assert any(line.startswith("  claude-fable-5: the price database lists it (Anthropic (claude-fable-5)")
               and "models.csv pairs no tokenizer with it" in line for line in cost_text("hin", "claude-fable-5")
               .splitlines())
    assert "  open weights only: no API sells Grok-1: grok-1" in lines  # counted, not priced
    assert "\n  models: grok-1\n" in text

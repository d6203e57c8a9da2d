"""`cost hin --models gpt-5,gemini-2.5-flash,llama-4-maverick --json` on the committed 204-language
results: the JSON parses, names its sources, and every figure in it is the text answer's figure."""

from __future__ import annotations

import io
import json

import pytest

from benchmark.cli.commands import cmd_cost
from benchmark.cli.parser import main
from benchmark.pricing.formats import fmt_count, fmt_interval, fmt_usd, fmt_window
from tests.support.paths import REPO

COMMITTED = REPO / "reports" / "all-languages" / "results.json"
# the day the committed results were made, which the answer prices them at
RUN_DATE = json.loads(COMMITTED.read_text(encoding="utf-8"))["record"]["date"][:10]
ARGS = ["cost", "hin", "--models", "gpt-5,gemini-2.5-flash,llama-4-maverick", "--results", str(COMMITTED)]


pytestmark = pytest.mark.usefixtures("module_cache")  # tests/pricing/conftest.py


def printed(argv: list[str]) -> str:
    import contextlib

    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert main(argv) == 0
    return out.getvalue()


@pytest.fixture(scope="module")
def answers():
    raw = printed(ARGS + ["--json"])
    return raw, json.loads(raw), printed(ARGS)


def test_the_json_parses_in_a_stable_order_and_names_its_sources(answers):
    raw, document, _ = answers
    assert raw.isascii() and raw == printed(ARGS + ["--json"])  # deterministic, byte for byte
    assert list(document) == ["schema", "version", "results", "prices", "shortlist", "tie_rule", "languages",
                              "not_priced", "not_counted", "compared_with_reference"]
    assert document["results"] == {"path": str(COMMITTED), "run_date": RUN_DATE, "corpus": "flores200",
                                   "split": "devtest", "reference": {"code": "eng_Latn", "name": "English"}}
    database = document["prices"]["database"]
    assert (database["name"], database["version"], database["price_date"]) == ("genai-prices", "0.2.3", RUN_DATE)
    assert document["prices"]["user_file"] is None
    assert [pick["typed"] for pick in document["shortlist"]] == ["gpt-5", "gemini-2.5-flash", "llama-4-maverick"]
    models = [m for t in document["languages"][0]["tokenizers"] for m in t["models"]]
    assert len(models) == 5 and all(m["tokenizer_source"].startswith("models.csv: ") for m in models)
    assert document["not_priced"] == {"llama-4-maverick-17b-128e": "base weights: no API sells them",
                                      "llama-4-maverick-17b-128e-instruct-fp8":
                                          "quantised weights: priced under the full-precision model"}


def _cost(model: dict, figures: dict, sentences: int) -> str:
    price = model["price"]
    return (f"{model['model']} ({price['seller']}, {fmt_usd(price['input_usd_per_mtok'])}/M input tokens): "
            f"{fmt_usd(figures['devtest_usd'])} for the {sentences:,} sentences, "
            f"{fmt_usd(figures['usd_per_million_reference_words'])} per million English-equivalent words")


def _room(model: dict, figures: dict) -> str:
    return (f"{model['model']} ({model['price']['seller']}, {fmt_window(model['price']['context_window'])}): "
            f"{fmt_count(figures['context_sentences'])} sentences, {fmt_count(figures['context_reference_words'])} "
            "English-equivalent words")


def test_every_figure_of_the_json_is_the_text_answer_figure(answers):
    _, document, text = answers
    lines = text.splitlines()
    (hindi,) = document["languages"]
    assert lines[0].startswith("Hindi (hin_Deva): tokens of flores200 devtest text against English (eng_Latn)")
    assert lines[0].endswith(f"from {document['results']['path']} (run of {document['results']['run_date']})")
    assert lines[1] == "Prices and windows: " + "; ".join(document["prices"]["sources"])
    by_model = {}
    for tokenizer in hindi["tokenizers"]:
        premium = tokenizer["premium"]
        assert (f"{tokenizer['id']}: {tokenizer['tokens_per_sentence']:.1f} tokens per sentence, "
                f"{fmt_interval(premium['value'], premium['ci_low'], premium['ci_high'])} English") in lines
        for model in tokenizer["models"]:
            by_model[model["model"]] = model
        cheapest = by_model[tokenizer["cheapest"]["model"]]
        assert cheapest["figures"]["devtest_usd"] == tokenizer["cheapest"]["devtest_usd"]
        assert f"  cheapest: {_cost(cheapest, cheapest['figures'], tokenizer['n_sentences'])}" in lines
        roomiest = by_model[tokenizer["roomiest"]["model"]]
        assert f"  roomiest: {_room(roomiest, roomiest['figures'])}" in lines
    best = hindi["cheapest"]
    model = by_model[best["model"]]
    line = f"Cheapest overall: {_cost(model, model['figures'], 1012)} [{best['tokenizer']}]"
    assert line in lines
    after = lines[lines.index(line) + 1:]
    if best["tied"]:
        assert after.pop(0) == "  tied with " + ", ".join(f"{t['model']} [{t['tokenizer']}]" for t in best["tied"])
    lead = best["next"]["lead"]
    assert after[0] == (f"  next: {best['next']['model']} [{best['next']['tokenizer']}], {lead['value']:.2f}x the "
                        f"leader's cost (95% CI {lead['ci_low']:.2f}-{lead['ci_high']:.2f})")
    room = hindi["roomiest"]
    model = by_model[room["model"]]
    line = f"Roomiest overall: {_room(model, model['figures'])} [{room['tokenizer']}]"
    lead = room["next"]["lead"]
    assert lines[lines.index(line) + 1] == (f"  next: {room['next']['model']} [{room['next']['tokenizer']}], the "
                                            f"leader holds {lead['value']:.2f}x as much (95% CI {lead['ci_low']:.2f}-"
                                            f"{lead['ci_high']:.2f})")
    assert lines[-1] == document["tie_rule"][0].upper() + document["tie_rule"][1:] + "."


def test_several_languages_carry_the_comparison(tmp_path):
    out = io.StringIO()
    assert cmd_cost("hin,eng", results_path=COMMITTED, models=["gpt-5"], as_json=True, out=out) == 0
    document = json.loads(out.getvalue())
    assert [part["code"] for part in document["languages"]] == ["hin_Deva", "eng_Latn"]
    (gpt5,) = document["compared_with_reference"]
    hindi = document["languages"][0]["tokenizers"][0]["premium"]
    assert gpt5["model"] == "gpt-5" and gpt5["relative_cost"][0] == {"language": "hin_Deva", **hindi}
    assert gpt5["relative_cost"][1]["value"] == 1.0

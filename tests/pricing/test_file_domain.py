"""`cost --file --domain NAME`: the estimate without a tokenizer by one domain's calibration (a real
run's, FLORES-200 on tiktoken's two vocabularies), the answer and its JSON naming the domain used;
the whole corpus's entry by default; an unknown domain one line listing the known ones."""

from __future__ import annotations

import io
import json

import pytest

from benchmark.cli.commands import cmd_cost_file
from benchmark.cli.parser import main
from benchmark.measure.plan import RunConfig, plan_run
from benchmark.measure.run import run_benchmark
from benchmark.plumbing.errors import BenchmarkError
from benchmark.results.rows import save_results
from tests.support.vendor_code import devtest_lines

TOKENIZERS = ("tiktoken/cl100k_base", "tiktoken/o200k_base")
MODELS = ["gpt-4", "gpt-4o"]  # one model of each: the answer counts these two tokenizers only


@pytest.fixture(autouse=True)
def own_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))


@pytest.fixture(scope="module")
def saved(tmp_path_factory):
    folder = tmp_path_factory.mktemp("domains")
    config = RunConfig(languages=("eng_Latn", "jpn_Jpan"), tokenizers=TOKENIZERS, repeats=1, quick=True,
                       cache_dir=folder / "cache")
    results = run_benchmark(plan_run(config))
    save_results(results, folder / "results.json")
    text = folder / "guide.txt"
    text.write_text("\n".join(devtest_lines("jpn_Jpan")[:40]) + "\n", encoding="utf-8")
    return results, folder / "results.json", text


def answer(saved, **options) -> str:
    _, results_path, text = saved
    out = io.StringIO()
    assert cmd_cost_file([text], results_path=results_path, models=MODELS, out=out, **options) == 0
    return out.getvalue()


def test_the_domain_named_and_its_ratio_used(saved):
    results, _, text = saved
    n_chars = len(text.read_text(encoding="utf-8"))
    shown = answer(saved, domain="wikivoyage", language="jpn")
    assert "fitted on the domain 'wikivoyage' of flores200" in shown
    assert "domains: wikibooks, wikinews, wikivoyage (--domain NAME)" in shown
    for tokenizer in TOKENIZERS:
        (entry,) = [e for e in results.calibration_domains
                    if (e.tokenizer, e.domain, e.group) == (tokenizer, "wikivoyage", "jpn_Jpan")]
        block = shown.split(f"\n{tokenizer}: ", 1)[1].split("\n\n", 1)[0]
        assert (f"estimate (domain 'wikivoyage', jpn_Jpan): about {entry.tokens_per_char * n_chars:,.0f} tokens at "
                f"{entry.tokens_per_char:.4f} per character") in block
    document = json.loads(answer(saved, domain="wikivoyage", language="jpn", as_json=True))
    assert document["version"] == 2 and document["estimates"]["domain"] == "wikivoyage"
    for item in document["tokenizers"]:
        (entry,) = [e for e in results.calibration_domains
                    if (e.tokenizer, e.domain, e.group) == (item["id"], "wikivoyage", "jpn_Jpan")]
        assert item["estimate"]["domain"] == "wikivoyage" and item["estimate"]["group"] == "jpn_Jpan"
        assert item["estimate"]["n_tokens"] == entry.tokens_per_char * n_chars
        assert item["estimate"]["off_count"] == pytest.approx(entry.tokens_per_char * n_chars / item["n_tokens"] - 1)


def test_without_a_domain_the_whole_corpus_entry(saved):
    results, _, text = saved
    shown = answer(saved, language="jpn")
    assert "fitted on the whole corpus of flores200" in shown
    entry = next(e for e in results.calibration if (e.tokenizer, e.group) == ("tiktoken/o200k_base", "jpn_Jpan"))
    assert f"estimate (whole corpus, jpn_Jpan): about {entry.tokens_per_char * len(text.read_text('utf-8')):,.0f}" in shown
    document = json.loads(answer(saved, as_json=True, domain="wikinews"))
    assert {t["estimate"]["group"] for t in document["tokenizers"]} == {"all"}  # no language: all languages
    assert json.loads(answer(saved, as_json=True))["estimates"] is None  # neither asked: no results read


def test_an_unknown_domain_is_one_line_naming_the_known_ones(saved, capsys):
    with pytest.raises(BenchmarkError) as caught:
        answer(saved, domain="legal")
    assert str(caught.value).endswith("not a calibration domain of " + str(saved[1]) +
                                      "; its domains: wikibooks, wikinews, wikivoyage")
    _, results_path, text = saved
    assert main(["cost", "--file", str(text), "--results", str(results_path), "--domain", "legal"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "its domains: wikibooks, wikinews, wikivoyage" in err
    assert main(["cost", "hin", "--domain", "wikinews"]) == 2
    assert "cost --file PATH --domain wikinews" in capsys.readouterr().err

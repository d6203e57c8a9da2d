"""`report --base`, `cost --base` and `run --bases` through the command line, on a real small run's
saved results (four FLORES-200 languages under two tiktoken vocabularies)."""

from __future__ import annotations

import json
import re

import pytest

from benchmark.cli.parser import main
from benchmark.measure.plan import RunConfig, plan_run
from benchmark.measure.run import run_benchmark
from benchmark.report.view import premiums_by_base
from benchmark.results.rows import save_results

LANGUAGES = ("eng_Latn", "hin_Deva", "zho_Hans", "arb_Arab")


@pytest.fixture(scope="module")
def results(tmp_path_factory):
    config = RunConfig(languages=LANGUAGES, max_sentences=120, repeats=1, quick=True, bases=("hin", "zho_Hans"),
                       tokenizers=("tiktoken/o200k_base", "tiktoken/cl100k_base"),
                       cache_dir=tmp_path_factory.mktemp("cache"))
    return run_benchmark(plan_run(config))


@pytest.fixture(scope="module")
def saved(results, tmp_path_factory):
    path = tmp_path_factory.mktemp("run") / "results.json"
    save_results(results, path)
    return path


def test_cost_over_a_base_shows_the_runs_premium_over_it(results, saved, capsys):
    assert main(["cost", "arb", "--base", "hin", "--results", str(saved)]) == 0
    out = capsys.readouterr().out
    premium, low, high = premiums_by_base(results)["hin_Deva"]["tiktoken/o200k_base"]["arb_Arab"]
    assert "against Hindi (hin_Deva) on the same lines" in out
    assert f"{premium:.2f}x (95% CI {low:.2f}-{high:.2f}) Hindi" in out
    assert "English" not in out


def test_cost_as_json_over_a_base_names_it_as_the_reference(results, saved, capsys):
    assert main(["cost", "arb", "--base", "zho", "--json", "--results", str(saved)]) == 0
    answer = json.loads(capsys.readouterr().out)
    assert answer["results"]["reference"] == {"code": "zho_Hans", "name": "Chinese (Simplified)"}
    table = premiums_by_base(results)["zho_Hans"]
    found = {t["id"]: t["premium"] for t in answer["languages"][0]["tokenizers"]}
    assert found == {tokenizer: dict(zip(("value", "ci_low", "ci_high"), table[tokenizer]["arb_Arab"]))
                     for tokenizer in ("tiktoken/o200k_base", "tiktoken/cl100k_base")}


def test_report_over_a_base_says_over_it_in_the_premium_table(results, saved, tmp_path, capsys):
    assert main(["report", "--base", "hin_Deva", "--results", str(saved), "--output", str(tmp_path / "out"),
                 "--no-plots"]) == 0
    readme = (tmp_path / "out" / "README.md").read_text(encoding="utf-8")
    assert "### The premium over Hindi on today's models (95% CI)" in readme
    assert "1.00 = as many tokens as Hindi under the same tokenizer" in readme
    assert "over English" not in readme and "relative to English" not in readme
    premium, low, high = premiums_by_base(results)["hin_Deva"]["tiktoken/cl100k_base"]["eng_Latn"]
    table = readme.split("### The premium over Hindi on today's models")[1]
    row = next(line for line in table.splitlines() if line.startswith("| tiktoken/cl100k_base (GPT-4"))
    assert row.split(" | ")[1:3] == ["1.00", f"{premium:.2f} ({low:.2f}-{high:.2f})"]  # Hindi first, then English
    # the results file is the run's, copied as it was
    assert (tmp_path / "out" / "results.json").read_bytes() == saved.read_bytes()


@pytest.mark.parametrize("verb", [["cost", "arb"], ["report", "--no-plots"]])
def test_a_base_the_results_lack_is_one_line_naming_what_they_carry(saved, tmp_path, capsys, verb):
    argv = [*verb, "--base", "arb", "--results", str(saved)]
    if verb[0] == "report":
        argv += ["--output", str(tmp_path / "never")]
    assert main(argv) == 2
    err = capsys.readouterr().err.strip()
    assert "\n" not in err
    assert re.search(r"no premiums over arb_Arab: these results carry premiums over eng_Latn, hin_Deva, zho_Hans; "
                     r"rerun .* --bases arb_Arab", err), err
    assert not (tmp_path / "never").exists()


def test_run_refuses_a_base_it_does_not_measure(tmp_path, capsys):
    code = main(["run", "--quick", "--languages", "eng,hin", "--bases", "tlh", "--tokenizers", "tiktoken/o200k_base",
                 "--output", str(tmp_path / "out"), "--cache-dir", str(tmp_path / "cache"), "--no-plots"])
    assert code == 2
    err = capsys.readouterr().err
    assert "--bases" in err and "'tlh'" in err and len(err.strip().splitlines()) == 1

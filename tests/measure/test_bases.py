"""Premiums over any base language (measure/bases.py, results/bases.py, results/rebase.py) on a
real small run: four FLORES-200 languages in four scripts under two tiktoken vocabularies."""

from __future__ import annotations

import dataclasses
import json

import pytest

from benchmark.adapters import PRETRAINED
from benchmark.measure.bases import DEFAULT_BASES, default_bases, premium_intervals
from benchmark.measure.counting import count_texts
from benchmark.measure.plan import RunConfig, plan_run
from benchmark.measure.run import run_benchmark
from benchmark.plumbing.errors import BenchmarkError
from benchmark.report.view import premiums_by_base
from benchmark.results.bases import BasePremiums
from benchmark.results.rebase import rebased
from benchmark.results.rows import load_results, save_results

LANGUAGES = ("eng_Latn", "hin_Deva", "zho_Hans", "arb_Arab")
TOKENIZERS = ("tiktoken/o200k_base", "tiktoken/cl100k_base")


@pytest.fixture(scope="module")
def config(tmp_path_factory) -> RunConfig:
    return RunConfig(languages=LANGUAGES, max_sentences=120, repeats=1, quick=True, tokenizers=TOKENIZERS,
                     cache_dir=tmp_path_factory.mktemp("cache"))


@pytest.fixture(scope="module")
def plan(config):
    return plan_run(config)


@pytest.fixture(scope="module")
def results(plan):
    return run_benchmark(plan)


@pytest.fixture(scope="module")
def lines(plan):
    """Each tokenizer's tokens per line on each language, counted again here."""
    return {t: {code: count_texts(PRETRAINED[t](), plan.measure_texts[code]).tokens_per_line for code in LANGUAGES}
            for t in TOKENIZERS}


def test_a_small_run_takes_every_language_as_a_base(plan, results):
    assert plan.bases == LANGUAGES  # the reference first, then the run's order
    assert results.bases.bases == LANGUAGES
    assert set(results.bases.premium_ci) == set(LANGUAGES[1:])  # the reference's intervals are the rows'


def test_premium_over_a_base_is_the_ratio_of_the_rows_token_counts(results):
    rows = {(r.tokenizer, r.language): r for r in results.rows}
    table = premiums_by_base(results)
    assert list(table) == list(LANGUAGES)
    for base in LANGUAGES:
        for t in TOKENIZERS:
            assert set(table[base][t]) == set(LANGUAGES)
            for code, (premium, low, high) in table[base][t].items():
                assert premium == rows[t, code].n_tokens / rows[t, base].n_tokens
                assert low <= premium <= high
    # Hindi costs o200k about 1.6 times English: over Hindi, English is below 1 and its interval too.
    premium, low, high = table["hin_Deva"]["tiktoken/o200k_base"]["eng_Latn"]
    assert high < 1 and premium == pytest.approx(1 / table["eng_Latn"]["tiktoken/o200k_base"]["hin_Deva"][0])


def test_over_english_the_new_computation_gives_the_rows_intervals_exactly(results, lines):
    intervals, means = premium_intervals(TOKENIZERS, LANGUAGES, ["eng_Latn"], lines)
    rows = {(r.tokenizer, r.language): r for r in results.rows}
    for t in TOKENIZERS:
        assert set(intervals["eng_Latn"][t]) == set(LANGUAGES)
        for code, bounds in intervals["eng_Latn"][t].items():
            assert bounds == (rows[t, code].premium_ci_low, rows[t, code].premium_ci_high)
    summaries = {s.tokenizer: s for s in results.summaries}
    for t in TOKENIZERS:
        s = summaries[t]
        assert means["eng_Latn"][t] == (s.mean_premium, s.mean_premium_ci_low, s.mean_premium_ci_high)


def test_the_stored_intervals_are_the_ones_computed_from_the_counts(results, lines):
    intervals, means = premium_intervals(TOKENIZERS, LANGUAGES, LANGUAGES[1:], lines)
    assert intervals == results.bases.premium_ci
    assert means == results.bases.mean_premium


def test_a_base_over_itself_is_one_with_a_zero_width_interval(results):
    table = premiums_by_base(results)
    for base in LANGUAGES:
        for t in TOKENIZERS:
            assert table[base][t][base] == [1.0, 1.0, 1.0]


def test_intervals_are_deterministic_and_do_not_depend_on_the_other_bases(config, results, tmp_path):
    again = run_benchmark(plan_run(dataclasses.replace(config, bases=("hin",))))
    assert again.bases.bases == ("eng_Latn", "hin_Deva")
    assert again.bases.premium_ci == {"hin_Deva": results.bases.premium_ci["hin_Deva"]}
    assert again.bases.mean_premium == {"hin_Deva": results.bases.mean_premium["hin_Deva"]}
    save_results(results, tmp_path / "results.json")
    read = load_results(tmp_path / "results.json")
    assert read.bases == results.bases and premiums_by_base(read) == premiums_by_base(results)
    # a base the run did not compute: one line naming it, the bases it has, and the rerun
    with pytest.raises(BenchmarkError) as error:
        rebased(again, "zho")
    message = str(error.value)
    assert "\n" not in message and "zho_Hans" in message and "eng_Latn, hin_Deva" in message
    assert "--bases zho_Hans" in message
    with pytest.raises(BenchmarkError, match=r"'xx_Yyyy'.*xx_Yyyy added to --languages and --bases xx_Yyyy"):
        rebased(again, "xx_Yyyy")


def test_rebased_results_are_over_the_base_in_every_premium_field(results):
    over = rebased(results, "hin")
    assert over.record.settings.reference == over.record.settings.premium.reference == "hin_Deva"
    rows = {(r.tokenizer, r.language): r for r in results.rows}
    table = premiums_by_base(results)["hin_Deva"]
    for row in over.rows:
        base = rows[row.tokenizer, "hin_Deva"]
        assert [row.premium, row.premium_ci_low, row.premium_ci_high] == table[row.tokenizer][row.language]
        assert row.byte_premium == row.n_bytes / base.n_bytes
        assert row.tokenizer_factor == pytest.approx(row.premium / row.byte_premium)
        assert row.n_tokens == rows[row.tokenizer, row.language].n_tokens  # the counts are the run's
    means = {s.tokenizer: (s.mean_premium, s.mean_premium_ci_low, s.mean_premium_ci_high) for s in over.summaries}
    assert means == results.bases.mean_premium["hin_Deva"]
    assert premiums_by_base(over) == {"hin_Deva": table}  # it carries its base alone
    assert rebased(results, "eng") is results


def test_default_bases_of_a_large_run_are_the_documented_set():
    many = [f"x{k:03d}_Latn" for k in range(200)] + list(reversed(DEFAULT_BASES))
    assert default_bases(many, "eng_Latn") == DEFAULT_BASES
    assert default_bases(many, "fra_Latn")[:2] == ("fra_Latn", "eng_Latn")
    assert default_bases(["spa", "eng"], "eng") == ("eng", "spa")


def test_unknown_bases_are_refused_before_anything_runs(config):
    with pytest.raises(BenchmarkError, match="--bases.*'tlh'"):
        plan_run(dataclasses.replace(config, bases=("tlh",)))


@pytest.mark.parametrize("bad, says", [
    ({"bases": ["hin_Deva"], "reference": "eng_Latn"}, "first base must be the reference"),
    ({"bases": ["eng_Latn", "hin_Deva"], "reference": "eng_Latn", "premium_ci": {"hin_Deva": {"t": {"eng": [2, 1]}}}},
     "low <= high"),
    ({"bases": ["eng_Latn"], "reference": "eng_Latn", "premium_ci": {"hin_Deva": {}}}, "not one of the bases"),
    ({"bases": ["eng_Latn"], "premium_ci": [], "extra": 1}, "expected an object"),
])
def test_a_malformed_bases_section_is_one_line_naming_it(results, tmp_path, bad, says):
    path = tmp_path / "results.json"
    save_results(results, path)
    raw = json.loads(path.read_text(encoding="utf-8"))
    raw["bases"] = bad
    path.write_text(json.dumps(raw), encoding="utf-8")
    with pytest.raises(BenchmarkError, match=says) as error:
        load_results(path)
    assert "\n" not in str(error.value) and str(path) in str(error.value)


def test_results_without_bases_carry_their_reference_only(results):
    bare = dataclasses.replace(results, bases=BasePremiums())
    assert list(premiums_by_base(bare)) == ["eng_Latn"]
    with pytest.raises(BenchmarkError, match="carry premiums over eng_Latn; rerun"):
        rebased(bare, "hin_Deva")

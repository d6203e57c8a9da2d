"""The figures papers report, end to end on the six FLORES-200 devtest files, against figures
computed independently of this code (each sentence encoded on its own with tiktoken's
encode_ordinary, the tokens' bytes checked with bytes.decode): partial-character shares, the
Gini coefficient of the languages' token counts, unreachable and partial-character entries."""

from __future__ import annotations

import pytest

from benchmark.measure.plan import RunConfig, plan_run
from benchmark.results.rows import Results, load_results, save_results, summaries_csv
from benchmark.measure.run import run_benchmark
from tests.support.paths import DATA

LANGUAGES = ("eng_Latn", "spa_Latn", "rus_Cyrl", "jpn_Jpan", "kor_Hang", "ces_Latn")


@pytest.fixture(scope="module")
def results(tmp_path_factory) -> Results:
    config = RunConfig(languages=LANGUAGES, tokenizers=("tiktoken/*",), repeats=1,
                       cache_dir=tmp_path_factory.mktemp("cache"))
    return run_benchmark(plan_run(config))


@pytest.mark.slow
def test_partial_character_shares_on_devtest(results):
    rows = {(r.tokenizer, r.language): r for r in results.rows}
    cl100k, o200k = "tiktoken/cl100k_base", "tiktoken/o200k_base"
    assert rows[cl100k, "jpn_Jpan"].partial_char_rate == pytest.approx(0.3271, abs=5e-5)
    assert rows[cl100k, "kor_Hang"].partial_char_rate == pytest.approx(0.4935, abs=5e-5)
    assert rows[o200k, "jpn_Jpan"].partial_char_rate == pytest.approx(0.0474, abs=5e-5)
    assert rows[o200k, "kor_Hang"].partial_char_rate == pytest.approx(0.0540, abs=5e-5)
    assert [rows[cl100k, code].n_tokens for code in LANGUAGES] == [27_182, 41_974, 66_928, 61_583, 64_338, 57_116]
    assert rows[cl100k, "eng_Latn"].byte_fallback_rate is None  # no byte-fallback pieces: its own column


@pytest.mark.slow
def test_word_figures_on_devtest(results):
    rows = {(r.tokenizer, r.language): r for r in results.rows}
    segmenters = results.record.settings.words.segmenters
    assert segmenters["jpn_Jpan"].segmenter.startswith("fugashi + unidic-lite")
    assert all(segmenters[code].segmenter.startswith("UAX #29") for code in LANGUAGES if code != "jpn_Jpan")
    for (tokenizer, code), row in rows.items():
        assert row.n_words and row.fertility == row.n_tokens / row.n_words
        assert row.whole_word_rate + row.continued_word_rate == pytest.approx(1.0)  # no word without a token
        assert rows["tiktoken/o200k_base", code].n_words == row.n_words  # segmented once, the same words
    english = rows["tiktoken/cl100k_base", "eng_Latn"]
    # English words are mostly one cl100k token; Korean ones mostly several.
    assert english.whole_word_rate > 0.85 and rows["tiktoken/cl100k_base", "kor_Hang"].whole_word_rate < 0.2
    assert 0 < english.renyi_efficiency < 1


@pytest.mark.slow
def test_fairness_and_vocabulary_summaries_on_devtest(results, tmp_path):
    summaries = {s.tokenizer: s for s in results.summaries}
    cl100k, o200k = summaries["tiktoken/cl100k_base"], summaries["tiktoken/o200k_base"]
    assert cl100k.gini == pytest.approx(0.1412, abs=5e-5) and o200k.gini == pytest.approx(0.0823, abs=5e-5)
    assert cl100k.gini_ci_low < cl100k.gini < cl100k.gini_ci_high
    assert o200k.gini_ci_high < cl100k.gini_ci_low  # o200k charges the six languages more evenly
    assert cl100k.worst_to_best == pytest.approx(66_928 / 27_182)
    assert (cl100k.worst_language, cl100k.best_language) == ("rus_Cyrl", "eng_Latn")
    assert cl100k.n_languages == 6 and cl100k.note is None
    # Vocabulary health: 0 and 12 unreachable entries, 773 and 1,562 partial-character ones.
    assert (cl100k.n_unreachable, cl100k.n_partial_char_entries, cl100k.n_entries_checked) == (0, 773, 99_483)
    assert (o200k.n_unreachable, o200k.n_partial_char_entries) == (12, 1562)
    assert o200k.unreachable_examples[0] == '3413 " I\'" -> 357 6'
    # Saved and read back whole; one CSV line per tokenizer.
    save_results(results, tmp_path / "results.json")
    assert load_results(tmp_path / "results.json") == results
    assert len(summaries_csv(results).splitlines()) == 1 + len(results.summaries)


def test_a_results_file_from_before_the_word_figures_reads_them_blank(tmp_path):
    import json

    from benchmark.plumbing.errors import BenchmarkError
    from benchmark.results.rows import ADDED_ROW_FIELDS

    fixture = DATA / "results_fixture.json"
    raw = json.loads(fixture.read_text(encoding="utf-8"))
    assert "summaries" not in raw and not set(ADDED_ROW_FIELDS) & set(raw["rows"][0])
    old = load_results(fixture)
    assert old.summaries == () and all(getattr(row, name) is None for row in old.rows for name in ADDED_ROW_FIELDS)
    assert old.record.settings.words.segmenters == {}
    # A summary that is not what a run writes is one clear error naming it.
    summary = {"tokenizer": "t", "family": "f", "vocab_size": 4, "n_languages": 2, "gini": 0.5, "gini_ci_low": 0.6,
               "gini_ci_high": 0.4, **dict.fromkeys(
                   ("worst_to_best", "worst_to_best_ci_low", "worst_to_best_ci_high", "worst_language",
                    "best_language", "mean_premium", "mean_premium_ci_low", "mean_premium_ci_high",
                    "renyi_efficiency", "n_partial_char_entries", "n_entries_checked", "n_unreachable"))}
    path = tmp_path / "results.json"
    path.write_text(json.dumps({**raw, "summaries": [summary]}), encoding="utf-8")
    with pytest.raises(BenchmarkError, match=r"malformed results, gini's interval \(0.6, 0.4\) is not an interval"):
        load_results(path)
    path.write_text(json.dumps({**raw, "summaries": [{**summary, "gini_ci_low": "low"}]}), encoding="utf-8")
    with pytest.raises(BenchmarkError, match=r"summaries\[0\].gini_ci_low"):
        load_results(path)

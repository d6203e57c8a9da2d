"""The calibration table on real text: ratios fitted on FLORES-200 dev by real tokenizers, checked on
devtest, each error recomputed here by plain arithmetic; the CSV made inert; results.json keeps it."""

from __future__ import annotations

import csv
import io
import statistics

import pytest

from benchmark.adapters import PRETRAINED
from benchmark.corpora import load_flores
from benchmark.results.calibration import (
    CALIBRATION_FIELDS,
    CalibrationEntry,
    LanguageCounts,
    calibration_csv,
    estimate_tokens,
    fit_calibration,
)

LANGUAGES = ("eng_Latn", "spa_Latn", "jpn_Jpan", "hin_Deva")
TOKENIZERS = ("tiktoken/o200k_base", "google/gemma4")


@pytest.fixture(scope="module")
def texts():
    flores = load_flores(languages=LANGUAGES)
    return {code: (flores.lines("dev", code), flores.lines("devtest", code)) for code in LANGUAGES}


@pytest.fixture(scope="module")
def counts(texts):
    out = {}
    for tokenizer_id in TOKENIZERS:
        adapter = PRETRAINED[tokenizer_id]()
        out[tokenizer_id] = {}
        for code, (dev, devtest) in texts.items():
            out[tokenizer_id][code] = LanguageCounts(
                len(dev), sum(len(adapter.encode(t)) for t in dev), sum(map(len, dev)),
                sum(len(t.encode("utf-8")) for t in dev),
                [len(adapter.encode(t)) for t in devtest], [len(t) for t in devtest],
                [len(t.encode("utf-8")) for t in devtest])
    return out


@pytest.fixture(scope="module")
def entries(counts):
    return fit_calibration(counts, {code: code.split("_")[1] for code in LANGUAGES})


def _entry(entries, tokenizer, group) -> CalibrationEntry:
    (found,) = [e for e in entries if e.tokenizer == tokenizer and e.group == group]
    return found


def test_every_tokenizer_gets_all_its_scripts_and_its_languages_in_order(entries):
    for tokenizer in TOKENIZERS:
        mine = [(e.level, e.group) for e in entries if e.tokenizer == tokenizer]
        assert mine == [("all", "all"), ("script", "Deva"), ("script", "Jpan"), ("script", "Latn"),
                        *(("language", code) for code in LANGUAGES)]
    assert _entry(entries, "google/gemma4", "Latn").n_languages == 2


def test_the_fitted_ratio_predicts_devtest_totals_within_the_reported_error(entries, texts):
    adapter = PRETRAINED["tiktoken/o200k_base"]()
    for code in LANGUAGES:
        entry = _entry(entries, adapter.id, code)
        devtest = texts[code][1]
        n_tokens = sum(len(adapter.encode(t)) for t in devtest)
        document = "\n".join(devtest)  # the estimate of a document is the ratio times its characters
        by_char = estimate_tokens(entries, adapter.id, document, group=code)
        by_byte = estimate_tokens(entries, adapter.id, document, group=code, per="byte")
        # The reported total error is that of the sentences' characters: the newlines add one a line.
        chars = sum(map(len, devtest))
        assert entry.char_total_error == pytest.approx(entry.tokens_per_char * chars / n_tokens - 1, abs=1e-12)
        assert by_char == pytest.approx(entry.tokens_per_char * (chars + len(devtest) - 1))
        # Fitted on other text of the same language, the whole devtest text comes within 3%.
        assert abs(entry.char_total_error) < 0.03 and abs(by_byte / n_tokens - 1) < 0.03
        assert abs(entry.chars4_total_error) > abs(entry.char_total_error)


def test_each_error_is_plain_arithmetic_on_the_sentences(entries, counts):
    tokenizer = "google/gemma4"
    for group, codes in (("Latn", ("eng_Latn", "spa_Latn")), ("hin_Deva", ("hin_Deva",)), ("all", LANGUAGES)):
        entry = _entry(entries, tokenizer, group)
        parts = [counts[tokenizer][code] for code in codes]
        ratio = sum(p.fit_n_tokens for p in parts) / sum(p.fit_n_chars for p in parts)
        assert entry.tokens_per_char == ratio
        assert entry.tokens_per_byte == sum(p.fit_n_tokens for p in parts) / sum(p.fit_n_bytes for p in parts)
        errors = [abs(ratio * c - t) / t for p in parts for c, t in zip(p.check_chars, p.check_tokens)]
        assert entry.char_sentence_error_p50 == pytest.approx(statistics.median(errors), rel=1e-12)
        assert entry.char_sentence_error_p90 == pytest.approx(
            statistics.quantiles(errors, n=10, method="inclusive")[-1], rel=1e-12)
        quarter = [abs(c / 4 - t) / t for p in parts for c, t in zip(p.check_chars, p.check_tokens)]
        assert entry.chars4_sentence_error_p50 == pytest.approx(statistics.median(quarter), rel=1e-12)
        totals = {code: sum(counts[tokenizer][code].check_chars) / 4 / sum(counts[tokenizer][code].check_tokens) - 1
                  for code in codes}
        assert entry.chars4_worst_language_error == pytest.approx(max(totals.values(), key=abs), rel=1e-12)
        assert entry.check_n_sentences == sum(len(p.check_tokens) for p in parts)


def test_chars4_undercounts_non_latin_scripts_more_than_the_fit_misses(entries):
    for tokenizer in TOKENIZERS:
        japanese, hindi = _entry(entries, tokenizer, "Jpan"), _entry(entries, tokenizer, "Deva")
        assert japanese.chars4_total_error < -0.3  # the premise, on Japanese
        for entry in (japanese, hindi):  # Hindi under Gemma 4: by 8% only, still more than the fit misses
            assert entry.chars4_total_error < 0 and abs(entry.chars4_total_error) > 2 * abs(entry.char_total_error)


def test_the_same_counts_give_the_same_table_and_bytes(counts, entries):
    again = fit_calibration(counts, {code: code.split("_")[1] for code in LANGUAGES})
    assert again == entries
    assert calibration_csv(again) == calibration_csv(entries)


def test_the_csv_has_every_field_at_full_precision_and_is_inert(entries):
    hostile = {"eng_Latn": '=HYPERLINK("http://x","click")', "Jpan": "@SUM(1)"}
    rows = list(csv.reader(io.StringIO(calibration_csv(entries, hostile))))
    assert rows[0][:4] == ["tokenizer", "level", "group", "name"] and set(CALIBRATION_FIELDS) <= set(rows[0])
    by_group = {(row[0], row[2]): row for row in rows[1:]}
    assert by_group["tiktoken/o200k_base", "eng_Latn"][3] == "'=HYPERLINK(\"http://x\",\"click\")"
    assert by_group["tiktoken/o200k_base", "Jpan"][3] == "'@SUM(1)"
    assert by_group["tiktoken/o200k_base", "spa_Latn"][3] == "spa_Latn"
    column = rows[0].index("tokens_per_char")
    assert float(by_group["google/gemma4", "all"][column]) == _entry(entries, "google/gemma4", "all").tokens_per_char


def test_results_json_keeps_the_table_and_older_files_read_without_one(entries, tmp_path):
    import dataclasses

    from benchmark.results.rows import load_results, save_results
    from tests.support.paths import DATA

    older = load_results(DATA / "results_fixture.json")
    assert older.calibration == () and older.record.settings.calibration is None
    with_table = dataclasses.replace(older, calibration=entries)
    save_results(with_table, tmp_path / "results.json")
    assert load_results(tmp_path / "results.json").calibration == entries


def test_a_bad_entry_is_refused_naming_it():
    with pytest.raises(ValueError, match="tokens_per_char"):
        CalibrationEntry("t", "all", "all", 1, 1, 1, 4, 4, float("nan"), 0.25, *([1] * 4), *([0.0] * 12))
    with pytest.raises(ValueError, match="level"):
        CalibrationEntry("t", "planet", "all", 1, 1, 1, 4, 4, 0.25, 0.25, *([1] * 4), *([0.0] * 12))

"""The calibration section and files, from a real many-language results file (tests/data/results_many.json,
14 languages in 9 scripts) given the table tiktoken's two vocabularies fit on the same FLORES-200
lines: per script at many languages, every text escaped, the files equal to the table."""

from __future__ import annotations

import csv
import dataclasses
import io
import json
from pathlib import Path

import pytest

from benchmark.adapters import PRETRAINED
from benchmark.corpora import load_flores
from benchmark.report import write_reports
from benchmark.report.tables.calibration import calibration_tables, shown_groups
from benchmark.report.view import ReportView
from benchmark.results.calibration import LanguageCounts, fit_calibration
from benchmark.results.rows import load_results
from tests.hostile.test_markup import assert_no_payload_markup
from tests.support.paths import DATA

HOSTILE = '=HYPERLINK("http://x","y")<img src=x onerror=alert(1)>'


@pytest.fixture(scope="module")
def results() -> ReportView:
    many = load_results(DATA / "results_many.json")
    languages = many.record.settings.languages
    flores = load_flores(languages=languages)
    n_lines = many.record.settings.n_sentences[languages[0]]
    counts = {}
    for tokenizer_id in ("tiktoken/cl100k_base", "tiktoken/o200k_base"):
        adapter = PRETRAINED[tokenizer_id]()
        counts[tokenizer_id] = {}
        for code in languages:
            dev, devtest = flores.lines("dev", code)[:n_lines], flores.lines("devtest", code)[:n_lines]
            counts[tokenizer_id][code] = LanguageCounts(
                len(dev), sum(len(adapter.encode(t)) for t in dev), sum(map(len, dev)),
                sum(len(t.encode("utf-8")) for t in dev), [len(adapter.encode(t)) for t in devtest],
                [len(t) for t in devtest], [len(t.encode("utf-8")) for t in devtest])
    table = fit_calibration(counts, many.record.language_scripts)
    names = {**many.record.language_names, "swh_Latn": HOSTILE}
    record = dataclasses.replace(many.record, language_names=names)
    return ReportView.of(dataclasses.replace(many, record=record, calibration=table))


def test_many_languages_show_one_row_per_script_most_undercounted_first(results):
    groups = shown_groups(results)
    assert groups[0] == ("all", "all") and {level for level, _ in groups[1:]} == {"script"}
    assert [g for _, g in groups[1:]] != sorted(g for _, g in groups[1:])  # by chars / 4, not by code
    ratio, chars4, errors = calibration_tables(results)
    assert [row[0] for row in ratio.rows][1] in {"Tamil (Taml)", "Ethiopic (Ethi)", "Thai (Thai)", "Hebrew (Hebr)",
                                                   "Devanagari (Deva)", "Hangul (Hang)", "Arabic (Arab)",
                                                   "Japanese (Han, Hiragana, Katakana)", "Han (Simplified)"}
    latin = next(row for row in chars4.rows if row[0] == "Latin (Latn)")
    assert latin[1] == "4"  # English, Spanish, Czech, Swahili
    # The first script after all languages is the one chars / 4 undercounts most: its cells are the lowest.
    first = [float(cell.rstrip("%")) for cell in chars4.rows[1][2:]]
    assert all(cell < 0 for cell in first) and max(first) <= min(float(c.rstrip("%")) for c in latin[2:])
    assert len(errors.headers) == len(errors.rows[0])


@pytest.fixture(scope="module")
def written(results, tmp_path_factory) -> Path:
    """The reports of `results` without plots, written once for the tests that read them."""
    folder = tmp_path_factory.mktemp("calibration-report")
    write_reports(results, folder, plots=False)
    return folder


def test_the_pages_show_the_section_and_link_both_files_and_escape_names(written):
    readme = (written / "README.md").read_text(encoding="utf-8")
    assert "## Estimating tokens without a tokenizer" in readme and "[calibration.json](calibration.json)" in readme
    page = (written / "index.html").read_text(encoding="utf-8")
    assert 'id="calibration"' in page and 'href="calibration.csv"' in page and "<img src=x" not in page
    assert_no_payload_markup(readme)


def test_the_files_hold_the_table_at_full_precision_with_the_hostile_name_made_inert(results, written, tmp_path):
    lines = list(csv.DictReader(io.StringIO((written / "calibration.csv").read_text(encoding="utf-8"))))
    assert len(lines) == len(results.calibration)
    for line, entry in zip(lines, results.calibration):
        assert (line["tokenizer"], line["group"]) == (entry.tokenizer, entry.group)
        assert float(line["tokens_per_byte"]) == entry.tokens_per_byte
    swahili = next(line for line in lines if line["group"] == "swh_Latn")
    assert swahili["name"] == "'" + HOSTILE
    document = json.loads((written / "calibration.json").read_text(encoding="utf-8"))
    assert document["format"] == "tokencost-calibration" and set(document["tokenizers"]) == {
        "tiktoken/cl100k_base", "tiktoken/o200k_base"}
    assert [{k: v for k, v in e.items() if k != "name"} for e in document["entries"]] == [
        e.to_dict() for e in results.calibration]
    again = tmp_path / "again"
    write_reports(results, again, plots=False)
    for name in ("calibration.csv", "calibration.json", "README.md"):
        assert (again / name).read_bytes() == (written / name).read_bytes()

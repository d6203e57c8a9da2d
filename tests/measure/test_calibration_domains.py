"""The calibration's domain level in real runs: on FLORES-200 (wikinews, wikibooks, wikivoyage) each
domain's ratio is its own dev lines' tokens over their characters and its held-out errors are those
of its own devtest lines, counted here directly; results.json and calibration.json carry it and read
back; a file without it reads, a malformed one is one line; corpora/django-ui's lines are `ui`."""

from __future__ import annotations

import json

import numpy as np
import pytest

from benchmark.adapters import PRETRAINED
from benchmark.corpora import load_flores
from benchmark.measure.plan import RunConfig, plan_run
from benchmark.measure.run import run_benchmark
from benchmark.plumbing.errors import BenchmarkError
from benchmark.report import calibration_files
from benchmark.report.view import ReportView
from benchmark.results.calibration_domains import DomainCalibrationEntry, domains_from_list
from benchmark.results.rows import load_results, save_results
from tests.support.paths import DATA, REPO

LANGUAGES = ("eng_Latn", "jpn_Jpan")
TOKENIZERS = ("tiktoken/cl100k_base", "tiktoken/o200k_base")


@pytest.fixture(scope="module")
def results(tmp_path_factory):
    config = RunConfig(languages=LANGUAGES, tokenizers=TOKENIZERS, repeats=1, quick=True,
                       cache_dir=tmp_path_factory.mktemp("cache"))
    return run_benchmark(plan_run(config))


@pytest.fixture(scope="module")
def direct():
    """tokenizer -> split -> language -> domain -> (tokens per line, chars per line), counted here."""
    flores = load_flores(languages=LANGUAGES)
    out = {}
    for tokenizer in TOKENIZERS:
        adapter = PRETRAINED[tokenizer]()
        out[tokenizer] = {split: {code: {} for code in LANGUAGES} for split in ("dev", "devtest")}
        for split in ("dev", "devtest"):
            for code in LANGUAGES:
                for line, domain in zip(flores.lines(split, code), flores.domains[split]):
                    tokens, chars = out[tokenizer][split][code].setdefault(domain, ([], []))
                    tokens.append(len(adapter.encode(line)))
                    chars.append(len(line))
    return out


def test_each_domain_gets_the_whole_ladder(results):
    found = {(e.tokenizer, e.domain, e.level, e.group) for e in results.calibration_domains}
    assert found == {(t, d, level, group) for t in TOKENIZERS for d in ("wikibooks", "wikinews", "wikivoyage")
                     for level, group in (("all", "all"), ("script", "Jpan"), ("script", "Latn"),
                                          ("language", "eng_Latn"), ("language", "jpn_Jpan"))}
    assert "the same per domain, fitted on its own dev lines" in results.record.settings.calibration


def test_a_domains_ratio_is_its_dev_lines_tokens_over_their_characters(results, direct):
    for entry in results.calibration_domains:
        codes = LANGUAGES if entry.group == "all" else [c for c in LANGUAGES if entry.group in (c, c[4:])]
        tokens = sum(sum(direct[entry.tokenizer]["dev"][c][entry.domain][0]) for c in codes)
        chars = sum(sum(direct[entry.tokenizer]["dev"][c][entry.domain][1]) for c in codes)
        assert (entry.fit_n_tokens, entry.fit_n_chars) == (tokens, chars)
        assert entry.tokens_per_char == tokens / chars
        assert entry.fit_n_sentences == sum(len(direct[entry.tokenizer]["dev"][c][entry.domain][0]) for c in codes)


def test_its_held_out_error_is_that_of_its_own_devtest_lines(results, direct):
    for entry in (e for e in results.calibration_domains if e.level == "language"):
        tokens, chars = (np.array(v, dtype=float) for v in direct[entry.tokenizer]["devtest"][entry.group][entry.domain])
        assert entry.check_n_sentences == len(tokens) and entry.check_n_chars == chars.sum()
        assert entry.char_total_error == pytest.approx(entry.tokens_per_char * chars.sum() / tokens.sum() - 1,
                                                       rel=1e-12)
        errors = np.abs(entry.tokens_per_char * chars - tokens) / tokens
        assert entry.char_sentence_error_p50 == pytest.approx(np.median(errors), rel=1e-12)
        assert entry.char_sentence_error_p90 == pytest.approx(np.percentile(errors, 90), rel=1e-12)


def test_results_json_and_calibration_json_carry_it_and_read_back(results, tmp_path):
    save_results(results, tmp_path / "results.json")
    assert load_results(tmp_path / "results.json").calibration_domains == results.calibration_domains
    files = calibration_files(ReportView.of(results))
    document = json.loads(files["calibration.json"])
    assert document["version"] == 2
    assert domains_from_list([{k: v for k, v in e.items() if k != "name"} for e in document["domains"]],
                             "domains") == results.calibration_domains
    rows = files["calibration.csv"].splitlines()
    assert rows[0].endswith(",domain") and len(rows) == 1 + len(results.calibration) + len(results.calibration_domains)
    assert sum(row.endswith(",wikivoyage") for row in rows) == len(TOKENIZERS) * 5


def test_a_file_without_the_block_reads_with_none_and_a_malformed_one_is_one_line(results, tmp_path):
    assert load_results(DATA / "results_fixture.json").calibration_domains == ()
    save_results(results, tmp_path / "results.json")
    raw = json.loads((tmp_path / "results.json").read_text(encoding="utf-8"))
    for bad, said in (({"wikinews": []}, "expected a list of domain entries, got dict"),
                      ([{**raw["calibration_domains"][0], "domain": "wiki news"}], "domain must be a domain label"),
                      ([{**raw["calibration_domains"][0], "tokens_per_char": "0.4"}], "tokens_per_char must be")):
        (tmp_path / "bad.json").write_text(json.dumps({**raw, "calibration_domains": bad}), encoding="utf-8")
        with pytest.raises(BenchmarkError) as caught:
            load_results(tmp_path / "bad.json")
        message = str(caught.value)
        assert "\n" not in message and said in message and "calibration_domains" in message
        with pytest.raises(ValueError, match=said):
            domains_from_list(bad, "calibration_domains")
    with pytest.raises(TypeError):
        DomainCalibrationEntry(**{k: v for k, v in raw["calibration_domains"][0].items() if k != "domain"})


def test_django_ui_lines_are_the_ui_domain(tmp_path):
    config = RunConfig(corpus_dir=REPO / "corpora" / "django-ui", languages=("eng_Latn", "jpn_Jpan"),
                       tokenizers=("tiktoken/o200k_base",), repeats=1, quick=True, cache_dir=tmp_path)
    results = run_benchmark(plan_run(config))
    assert {e.domain for e in results.calibration_domains} == {"ui"}
    whole = {(e.level, e.group): e.to_dict() for e in results.calibration}
    assert {(e.level, e.group): {k: v for k, v in e.to_dict().items() if k != "domain"}
            for e in results.calibration_domains} == whole  # one kind of text: the whole corpus is it


def test_the_report_shows_the_domain_rows_and_the_closest_ratio_per_kind_of_text(results, direct):
    from benchmark.report.tables.calibration_domains import domain_tables

    tables = {t.key: t for t in domain_tables(ReportView.of(results))}
    assert [row[:2] for row in tables["calibration_domains"].rows][:3] == [
        ("wikibooks", "all languages"), ("wikibooks", "English"), ("wikibooks", "Japanese")]
    closest = {(row[0], row[1]): row for row in tables["calibration_closest"].rows}
    assert len(closest) == 3 * 3  # each domain's text, all languages and each language
    misses = {}
    for domain in ("wikibooks", "wikinews", "wikivoyage"):
        ratios = [next(e for e in results.calibration_domains if (e.tokenizer, e.domain, e.group) == (t, domain, "jpn_Jpan"))
                  .tokens_per_char for t in TOKENIZERS]
        per_tokenizer = [r * sum(direct[t]["devtest"]["jpn_Jpan"]["wikinews"][1]) /
                         sum(direct[t]["devtest"]["jpn_Jpan"]["wikinews"][0]) - 1 for r, t in zip(ratios, TOKENIZERS)]
        misses[domain] = sum(per_tokenizer) / 2  # the median of two
    best = min(misses, key=lambda d: (abs(misses[d]), d))
    row = closest[("wikinews", "Japanese")]
    assert row[2] == best and row[3] == f"{100 * misses[best]:+.1f}%" and row[4] == f"{100 * misses['wikinews']:+.1f}%"

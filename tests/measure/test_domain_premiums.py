"""The premium per domain: on a domain's lines only, with the whole-corpus premium's paired
interval; kept in results.json (format 6) and refused, naming it, when an entry is broken."""

from __future__ import annotations

import dataclasses
import json
from types import SimpleNamespace

import pytest

from benchmark.measure.counting import Counts
from benchmark.measure.domain_premiums import domain_premiums
from benchmark.results import metrics
from benchmark.results.domain_premiums import DomainPremium, domain_premiums_csv, premium_spread
from benchmark.results.rows import load_results, save_results
from benchmark.plumbing.errors import BenchmarkError
from tests.support.paths import DATA

ENGLISH = [10, 12, 9, 30, 31, 28, 11, 29]
JAPANESE = [14, 17, 12, 33, 35, 30, 15, 31]  # dearer on the short lines
LABELS = ["chat", "chat", "chat", "news", "news", "news", "chat", "news"]


def _counted(**languages):
    return {"t/one": ({code: Counts(tokens_per_line=list(tokens)) for code, tokens in languages.items()}, {})}


def test_each_domain_gets_the_premium_of_its_own_lines_with_the_paired_interval():
    tokenizer = SimpleNamespace(id="t/one")
    found = domain_premiums([tokenizer], ["eng", "jpn"], "eng", LABELS, _counted(eng=ENGLISH, jpn=JAPANESE))
    assert [(e.domain, e.language) for e in found] == [("chat", "jpn"), ("news", "jpn")]  # none for the reference
    for entry in found:
        keep = [i for i, label in enumerate(LABELS) if label == entry.domain]
        tokens, reference = [JAPANESE[i] for i in keep], [ENGLISH[i] for i in keep]
        assert entry.premium == sum(tokens) / sum(reference) and entry.n_lines == len(keep)
        assert (entry.premium_ci_low, entry.premium_ci_high) == metrics.containing(
            metrics.premium_ci(tokens, reference), entry.premium)
    chat, news = found
    assert chat.premium > news.premium  # the kind of text moves it
    low, high = premium_spread(found)[("t/one", "jpn")]
    assert (low.domain, high.domain) == ("news", "chat")


def test_one_domain_is_the_whole_corpus_premium_and_no_labels_give_none():
    tokenizer = SimpleNamespace(id="t/one")
    counted = _counted(eng=ENGLISH, jpn=JAPANESE)
    (only,) = domain_premiums([tokenizer], ["eng", "jpn"], "eng", ["all"] * len(ENGLISH), counted)
    assert only.premium == metrics.premium(JAPANESE, ENGLISH)
    assert (only.premium_ci_low, only.premium_ci_high) == metrics.containing(metrics.premium_ci(JAPANESE, ENGLISH), only.premium)
    assert domain_premiums([tokenizer], ["eng", "jpn"], "eng", [], counted) == ()
    failed = {"t/one": (counted["t/one"][0], {"jpn": "failed: x"})}
    assert domain_premiums([tokenizer], ["eng", "jpn"], "eng", LABELS, failed) == ()


def test_results_json_keeps_them_and_a_broken_entry_is_one_error(tmp_path):
    older = load_results(DATA / "results_fixture.json")
    assert older.domain_premiums == ()
    entries = (DomainPremium("social", "jpn_Jpan", "t/one", 3, 40, 30, 40 / 30, 1.2, 1.5),)
    save_results(dataclasses.replace(older, domain_premiums=entries), tmp_path / "results.json")
    assert load_results(tmp_path / "results.json").domain_premiums == entries
    raw = json.loads((tmp_path / "results.json").read_text(encoding="utf-8"))
    raw["domain_premiums"][0]["premium_ci_high"] = 1.0
    (tmp_path / "results.json").write_text(json.dumps(raw), encoding="utf-8")
    with pytest.raises(BenchmarkError, match=r"domain_premiums\[0\]: \(1.2, 1.0\) is not an interval"):
        load_results(tmp_path / "results.json")
    assert domain_premiums_csv(entries).splitlines()[0].startswith("domain,language,tokenizer,n_lines")

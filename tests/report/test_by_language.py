"""The section a report leads with, what differs by language (report/pages/by_language_section.py),
on the committed 204-language results (reports/all-languages/results.json): its rows must tell a
reader what a table over all languages cannot, checked against the rows and pairwise ratios
themselves; and the default shortlist (adapters/flagships.csv) against the models file and the
price database."""

from __future__ import annotations

import csv
import datetime as dt

import pytest

from benchmark.adapters.flagships import FLAGSHIPS_FILE, flagships
from benchmark.adapters.models import all_models
from benchmark.pricing.prices.book import price_book
from benchmark.pricing.formats import fmt_usd
from benchmark.pricing.prices.listings import database_listings
from benchmark.report.pages.by_language_section import by_language
from benchmark.report.view import ReportView
from benchmark.results.rows import load_results
from tests.support.paths import REPO

ALL_LANGUAGES = REPO / "reports" / "all-languages" / "results.json"


@pytest.fixture(scope="module")
def results():
    return ReportView.of(load_results(ALL_LANGUAGES))


@pytest.fixture(scope="module")
def section(results):
    found = by_language(results, results.languages, book=price_book(results))
    assert found is not None
    return {table.key: table for table in found.tables}, found.intro


def _tokens(results):
    """vendor -> language -> n_tokens of its flagship's tokenizer, read from the rows."""
    vendor_of = {f.tokenizer: f.vendor for f in flagships()}
    found: dict[str, dict[str, int]] = {}
    for row in results.rows:
        if row.tokenizer in vendor_of and row.ok:
            found.setdefault(vendor_of[row.tokenizer], {})[row.language] = row.n_tokens
    return found


def _cells(table, header):
    at = table.headers.index(header)
    return {row[0]: row[at] for row in table.rows}


def test_the_shortlist_is_each_vendors_flagship_from_the_models_file_with_its_source():
    with open(FLAGSHIPS_FILE, encoding="utf-8", newline="") as handle:
        rows = list(csv.DictReader(handle))
    tokenizer_of = {model.model: model.tokenizer for model in all_models()}
    listings = database_listings(dt.date(2026, 12, 1))
    assert len({row["vendor"] for row in rows}) == len(rows) >= 5, "one flagship per vendor"
    for row, flagship in zip(rows, flagships(), strict=True):
        assert tokenizer_of[row["model"]] == flagship.tokenizer != ""
        assert listings[row["model"]].priced, f"{row['model']} has a list price in the database"
        assert row["source"] and dt.date.fromisoformat(row["read_on"])
    assert len({f.tokenizer for f in flagships()}) == len(rows), "each vendor on a tokenizer of its own"


def test_a_flagship_sourced_from_the_price_database_is_so_described_there():
    """A source 'genai-prices 0.2.3: provider:entry, 'words'' quotes that entry's own description."""
    import re

    from genai_prices.data import providers

    described = {f"{p.id}:{m.id}": m.description or "" for p in providers for m in p.models}
    quoted = [re.match(r"genai-prices 0\.2\.3: (\S+?), '(.+?)'(?:;|$)", f.source) for f in flagships()]
    assert sum(match is not None for match in quoted) >= 3  # OpenAI, Google, Mistral
    for match in filter(None, quoted):
        assert match[2] in described[match[1]], match[1]


def test_each_languages_row_is_its_own_fewest_most_and_spread(results, section):
    tables, _ = section
    table = tables["by_language_order"]
    tokens = _tokens(results)
    languages = set.intersection(*(set(by_language) for by_language in tokens.values()))
    assert len(table.rows) == len(languages) == 204
    labels = {row[0]: row for row in table.rows}
    pairs = {(p.language, p.tokenizer, p.other): p for p in results.pairwise}
    tokenizer_of = {f.vendor: f.tokenizer for f in flagships()}
    tokens_per_sentence = {(f.vendor, row.language): row.tokens_per_sentence for f in flagships()
                           for row in results.rows if row.tokenizer == f.tokenizer}
    for language in languages:
        counts = {vendor: tokens[vendor][language] for vendor in tokens}
        fewest, most = min(counts, key=counts.get), max(counts, key=counts.get)
        label = next(label for label in labels if label.endswith(f"({language})"))
        row = labels[label]
        per_sentence = {vendor: tokens_per_sentence[vendor, language] for vendor in counts}
        assert row[1] == f"{fewest}: {per_sentence[fewest]:.1f}" and row[2] == f"{most}: {per_sentence[most]:.1f}"
        assert row[3].startswith(f"{counts[most] / counts[fewest]:.2f}x")
        pair = pairs.get((language, tokenizer_of[most], tokenizer_of[fewest]))
        flipped = pairs.get((language, tokenizer_of[fewest], tokenizer_of[most]))
        low, high = ((pair.ratio_ci_low, pair.ratio_ci_high) if pair else (1 / flipped.ratio_ci_high,
                                                                          1 / flipped.ratio_ci_low))
        assert row[3].endswith(f"x ({low:.2f}-{high:.2f})")
    # What a global table cannot say: the leader, the spread and the order change from language to language.
    assert len({row[1] for row in table.rows}) >= 3
    assert len({row[3] for row in table.rows}) > 100
    assert len({row[4] for row in table.rows}) > 20
    spreads = [float(row[3].split("x")[0]) for row in table.rows]
    assert spreads == sorted(spreads, reverse=True), "the widest spread first"


def test_a_language_where_a_vendor_overtakes_another_is_shown_as_such(results, section):
    """The overall order is the tokens summed over every language; a language where a vendor
    behind overall takes clearly fewer tokens than one ahead shows both the moved places and the
    reversal with its paired interval, and one in the overall order shows neither."""
    tables, intro = section
    table = tables["by_language_order"]
    tokens = _tokens(results)
    overall = sorted(tokens, key=lambda vendor: sum(tokens[vendor].values()))
    assert f"they rank {', '.join(overall)} (fewest tokens first)" in intro
    order_cells, reversal_cells = _cells(table, table.headers[4]), _cells(table, table.headers[5])
    tokenizer_of = {f.vendor: f.tokenizer for f in flagships()}
    pairs = {(p.language, p.tokenizer, p.other): p for p in results.pairwise}
    n_flipped = n_kept = 0
    for label, order in order_cells.items():
        language = label.rsplit("(", 1)[1].rstrip(")")
        here = sorted(tokens, key=lambda vendor: (tokens[vendor][language], overall.index(vendor)))
        assert [part.split(" (")[0] for part in order.split(", ")] == \
            [f"{vendor} {_ordinal(at + 1)}" for at, vendor in enumerate(here)]
        moved = [vendor for at, vendor in enumerate(here) if overall.index(vendor) != at]
        assert all(f"{vendor} {_ordinal(here.index(vendor) + 1)} ({_ordinal(overall.index(vendor) + 1)})" in order
                   for vendor in moved)
        assert order.count("(") == len(moved)
        clear = []
        for ahead in here:
            for behind in here[here.index(ahead) + 1:]:
                entry = pairs.get((language, tokenizer_of[ahead], tokenizer_of[behind]))
                low, high = ((entry.ratio_ci_low, entry.ratio_ci_high) if entry else
                             (1 / pairs[language, tokenizer_of[behind], tokenizer_of[ahead]].ratio_ci_high,
                              1 / pairs[language, tokenizer_of[behind], tokenizer_of[ahead]].ratio_ci_low))
                ratio = tokens[ahead][language] / tokens[behind][language]
                if overall.index(ahead) > overall.index(behind) and ratio < 1 and high < 1:
                    digits = 2 if f"{high:.2f}" != "1.00" else 3  # a bound below 1 never reads 1.00
                    clear.append((ratio, f"{ahead} before {behind}: {ratio:.{digits}f}x ({low:.{digits}f}-"
                                         f"{high:.{digits}f})"))
        shown = "; ".join(text for _, text in sorted(clear)[:3]) + (f"; and {len(clear) - 3} more" if len(clear) > 3
                                                                    else "")
        assert reversal_cells[label] == shown, label
        n_flipped += bool(clear)
        n_kept += not moved
    assert n_flipped > 100 and n_kept >= 5
    amharic = next(label for label in order_cells if label.endswith("(amh_Ethi)"))
    assert tokens["Meta"]["amh_Ethi"] < tokens["OpenAI"]["amh_Ethi"] and overall.index("OpenAI") < overall.index("Meta")
    assert "Meta before OpenAI" in reversal_cells[amharic]


def _ordinal(place: int) -> str:
    return f"{place}{ {1: 'st', 2: 'nd', 3: 'rd'}.get(place, 'th')}"


def test_the_shortlists_cost_per_language_is_its_tokens_at_each_price(results, section):
    tables, _ = section
    table = tables["shortlist_cost"]
    listings = price_book(results).listings
    tokens = _tokens(results)
    reference = [row for row in results.rows if row.language == "eng_Latn" and row.n_words][0].n_words
    hindi = next(row for row in table.rows if row[0].endswith("(hin_Deva)"))
    costs = {}
    for flagship in flagships():
        header = next(h for h in table.headers if h.startswith(f"{flagship.model} ("))
        assert listings[flagship.model].seller in header
        usd = tokens[flagship.vendor]["hin_Deva"] / reference * listings[flagship.model].input_usd_per_mtok
        costs[flagship.vendor] = usd
        cell = hindi[table.headers.index(header)]
        assert cell == fmt_usd(usd)
    assert hindi[-2] == ", ".join(sorted(costs, key=costs.get))
    assert len({row[-2] for row in table.rows}) > 1, "the shortlist's order by cost changes by language"
    assert len(table.rows) == 204
    assert all(f"{f.vendor} {f.model} ({f.source}, read {f.read_on})" in table.note for f in flagships())


def test_readme_and_page_lead_with_what_differs_by_language(tmp_path):
    """On a small run too (tests/data/results_cost.json: six languages, every production tokenizer)."""
    from benchmark.report import write_reports
    from tests.support.paths import DATA

    write_reports(load_results(DATA / "results_cost.json"), tmp_path, plots=False)
    readme = (tmp_path / "README.md").read_text(encoding="utf-8")
    page = (tmp_path / "index.html").read_text(encoding="utf-8")
    sections = [line for line in readme.splitlines() if line.startswith("## ")]
    assert sections[:3] == ["## What differs by language", "## Which model to use for each language", "## Findings"]
    assert "### Where the vendors' current tokenizers part, language by language" in readme
    assert page.index('<h2 id="by_language">') < page.index('<h2 id="decision">') < page.index('<h2 id="findings">')
    assert 'href="#by_language"' in page

"""Prices, windows and the `cost` verb (benchmark/pricing/), on a real small run (tests/data/results_cost.json:
English, Hindi, Amharic, Yoruba, Korean and Simplified Chinese, 40 sentences, every production tokenizer)."""

from __future__ import annotations

import csv
import dataclasses
import datetime as dt
import io
import json
import re
import subprocess
import sys
from decimal import Decimal
from pathlib import Path

import pytest

from benchmark.cli.commands import cmd_cost
from benchmark.cli.parser import main
from benchmark.plumbing.errors import BenchmarkError
from benchmark.pricing.prices import database
from benchmark.pricing.language import decision
from benchmark.pricing.prices.book import price_book
from benchmark.pricing.money import model_figures
from benchmark.pricing.prices.listings import LISTINGS_FILE, database_listings
from benchmark.pricing.prices.user_prices import read_user_prices
from benchmark.results.rows import load_results
from tests.support.paths import DATA, REPO

FIXTURE = DATA / "results_cost.json"
ON = dt.date(2026, 12, 1)


def write(path: Path, text: str) -> Path:
    path.write_text(text, encoding="utf-8")
    return path


@pytest.fixture(autouse=True)
def own_cache(tmp_path, monkeypatch):
    """The listings cache in a scratch folder, not the user's."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    return tmp_path / "cache" / "tokencost" / "prices"


@pytest.fixture(scope="module")
def results():
    return load_results(FIXTURE)


@pytest.fixture()
def my_prices(tmp_path):
    """Two models of the user's own, on two tokenizers of the fixture."""
    return write(tmp_path / "prices.csv", "model,input_usd_per_mtok,context_window,tokenizer,provider\n"
                 "cheap-o200k,0.001,100000,tiktoken/o200k_base,our contract\n"
                 "roomy-llama4,1.00,100000000,llama/llama4,\n")


# ------------------------------------------------------------------ the database


def test_the_installed_database_is_the_pinned_one():
    pins = re.findall(r'"genai-prices==([^"]+)"', (REPO / "pyproject.toml").read_text())
    assert pins == [database.PINNED_VERSION]
    assert database.installed_version() == database.PINNED_VERSION
    assert database.database_label() == f"genai-prices {database.PINNED_VERSION} ({database.PINNED_RELEASE})"


def test_every_listing_resolves_and_prices_as_the_database_own_calculator():
    from genai_prices import Usage
    from genai_prices.data import providers

    listings = database_listings(ON)
    with open(LISTINGS_FILE, encoding="utf-8", newline="") as handle:
        rows = list(csv.DictReader(handle))
    assert [row["model"] for row in rows if row["provider"]] == list(listings)
    assert all(row["why"] for row in rows if not row["provider"]), "a model left unpriced says why"
    rows = [row for row in rows if row["provider"]]
    moment = dt.datetime(2026, 12, 1, 12, tzinfo=dt.timezone.utc)
    for row in rows:
        listing = listings[row["model"]]
        provider_id, _, entry = listing.listing.partition(":")
        assert provider_id == row["provider"]
        assert listing.source == f"{database.database_label()}, price of 2026-12-01"
        if not listing.priced:
            continue
        # genai-prices' own arithmetic on a request of 1,000 input tokens (below every tier's start) is
        # a thousandth of the list input price per million.
        provider = next(p for p in providers if p.id == provider_id)
        info = next(m for m in provider.models if m.id == entry)
        price = info.calc_price(Usage(input_tokens=1_000), provider, genai_request_timestamp=moment)
        assert Decimal(str(listing.input_usd_per_mtok)) == price.input_price * 1000, row["model"]


def test_listings_are_cached_by_version_file_and_date(own_cache, monkeypatch):
    first = database_listings(ON)
    [cached] = own_cache.glob("listings-*.json")
    # The second read comes from the cache alone: the database is not asked.
    monkeypatch.setattr("benchmark.pricing.prices.listings.lookup", lambda *a, **k: pytest.fail("read the database"))
    assert database_listings(ON) == first
    monkeypatch.undo()
    monkeypatch.setenv("XDG_CACHE_HOME", str(own_cache.parents[1]))
    cached.write_text("{damaged", encoding="utf-8")
    assert database_listings(ON) == first  # a damaged entry is read again from the database
    json.loads(cached.read_text(encoding="utf-8"))  # and written back whole
    later = database_listings(dt.date(2026, 6, 1))  # another date is another entry
    assert len(list(own_cache.glob("listings-*.json"))) == 2 and later["gpt-4o"].source.endswith("2026-06-01")


def test_a_listing_the_database_lacks_is_one_error_naming_it():
    with pytest.raises(BenchmarkError, match="no provider 'nobody'"):
        database.lookup("x", "nobody", on=ON)
    with pytest.raises(BenchmarkError, match="provider openai lists no 'gpt-0'"):
        database.lookup("gpt-0", "openai", on=ON)


def test_prices_are_read_as_of_a_date():
    # Anthropic's claude-2 entry is the same on both days; what changes between dates is the data's, not ours.
    early, late = (database.lookup("gpt-4o", "openai", on=day) for day in (dt.date(2024, 6, 1), ON))
    assert early.source.endswith("2024-06-01") and late.source.endswith("2026-12-01")
    assert early.listing == late.listing == "openai:gpt-4o"


# ------------------------------------------------------------------ the user's prices


def test_user_prices_add_models_and_name_their_source(results, my_prices):
    book = price_book(results, prices=my_prices)
    assert "cheap-o200k" in book.models["tiktoken/o200k_base"] and book.models["llama/llama4"][-1] == "roomy-llama4"
    mine = book.listings["cheap-o200k"]
    assert (mine.input_usd_per_mtok, mine.context_window, mine.provider) == (0.001, 100000, "our contract")
    assert mine.source.startswith("your prices (prices.csv, ")


def test_a_user_model_needs_a_known_tokenizer(results, tmp_path):
    unknown = write(tmp_path / "a.csv", "model,input_usd_per_mtok\nmy-model,1\n")
    with pytest.raises(BenchmarkError, match=r"a.csv, line 2: model 'my-model' is not in the models file"):
        price_book(results, prices=unknown)
    elsewhere = write(tmp_path / "b.csv", "model,input_usd_per_mtok,tokenizer\nmy-model,1,bpe/none\n")
    with pytest.raises(BenchmarkError, match=r"b.csv, line 2: tokenizer 'bpe/none' is not in these results"):
        price_book(results, prices=elsewhere)


# ------------------------------------------------------------------ the figures


def test_money_and_context_follow_from_the_counts(results, my_prices):
    book = price_book(results, prices=my_prices)
    rows = {(row.tokenizer, row.language): row for row in results.rows}
    english_words = rows["tiktoken/o200k_base", "eng_Latn"].n_words
    assert english_words
    figures = {(f.model, f.language): f for f in model_figures(results, book.models, book.listings)}
    for language in ("hin_Deva", "kor_Hang", "eng_Latn"):
        row = rows["tiktoken/o200k_base", language]
        mine = figures["cheap-o200k", language]
        assert mine.devtest_usd == pytest.approx(row.n_tokens * 0.001 / 1e6)
        assert mine.usd_per_million_reference_words == pytest.approx(row.n_tokens / english_words * 0.001)
        assert mine.context_sentences == pytest.approx(100000 / row.tokens_per_sentence)
        assert mine.context_reference_words == pytest.approx(100000 * english_words / row.n_tokens)
    # Hindi fits fewer sentences in the same window than English, by its premium exactly.
    hindi, english = figures["cheap-o200k", "hin_Deva"], figures["cheap-o200k", "eng_Latn"]
    assert english.context_sentences / hindi.context_sentences == pytest.approx(hindi.premium)


# ------------------------------------------------------------------ ties


def _figure(results, my_prices, model, language):
    book = price_book(results, prices=my_prices)
    return next(f for f in model_figures(results, book.models, book.listings) if f.model == model
                and f.language == language)


def test_the_same_tokenizer_at_the_same_price_is_tied_and_a_higher_price_is_not_a_rival(results, my_prices):
    base = _figure(results, my_prices, "cheap-o200k", "hin_Deva")
    twin = dataclasses.replace(base, listing=dataclasses.replace(base.listing, model="twin"))
    dearer = dataclasses.replace(base, listing=dataclasses.replace(base.listing, model="dearer"),
                                 devtest_usd=base.devtest_usd * 3)
    leader = decision.cheapest([dearer, twin, base])
    assert leader.best.model == "cheap-o200k" and [t.model for t in leader.tied] == ["twin"]
    assert leader.next_best is None and leader.lead is None


def test_without_pairwise_ratios_other_tokenizers_are_tied_when_their_intervals_overlap(results, my_prices):
    best = _figure(results, my_prices, "cheap-o200k", "hin_Deva")
    low, high = best.premium_ci_low / best.premium, best.premium_ci_high / best.premium
    assert low < 1 < high
    rival = _figure(results, my_prices, "roomy-llama4", "hin_Deva")
    r_low, r_high = rival.premium_ci_low / rival.premium, rival.premium_ci_high / rival.premium
    # Just inside the overlap, then just outside it.
    inside = best.devtest_usd * high / r_low * 0.999
    outside = best.devtest_usd * high / r_low * 1.001
    tied = decision.cheapest([best, dataclasses.replace(rival, devtest_usd=inside)], pairwise=())
    assert [t.model for t in tied.tied] == ["roomy-llama4"] and tied.next_best is None
    ahead = decision.cheapest([best, dataclasses.replace(rival, devtest_usd=outside)], pairwise=())
    assert ahead.tied == () and ahead.next_best.model == "roomy-llama4"
    value, lead_low, lead_high = ahead.lead
    assert value == pytest.approx(outside / best.devtest_usd)
    assert lead_low == pytest.approx(outside * r_low / (best.devtest_usd * high)) and lead_low > 1
    assert lead_high == pytest.approx(outside * r_high / (best.devtest_usd * low))


def test_with_pairwise_ratios_a_tie_is_the_paired_interval_including_1(results, my_prices):
    from benchmark.results.pairwise import ratio_between

    assert results.pairwise, "the fixture carries pairwise ratios (results format 4)"
    best = _figure(results, my_prices, "cheap-o200k", "kor_Hang")
    rival = _figure(results, my_prices, "roomy-llama4", "kor_Hang")
    tokens, low, high = ratio_between(results.pairwise, "kor_Hang", "llama/llama4", "tiktoken/o200k_base")
    assert low < tokens < high
    # The rival's cost over the best's is tokens x prices; pick prices that put 1 just inside, then outside.
    for factor, is_tied in ((0.999, True), (1.001, False)):
        cost = best.devtest_usd * factor * tokens / low
        found = decision.cheapest([best, dataclasses.replace(rival, devtest_usd=cost)], results.pairwise)
        assert bool(found.tied) is is_tied
        if not is_tied:
            value, lead_low, lead_high = found.lead
            assert value == pytest.approx(cost / best.devtest_usd)
            assert lead_low == pytest.approx(factor) and lead_high == pytest.approx(factor * high / low)
    # A window: the roomier model's lead over the other is the windows' ratio over the tokens' ratio.
    room = decision.roomiest([best, rival], results.pairwise)
    assert room.best.model == "roomy-llama4" and room.next_best.model == "cheap-o200k"
    value, lead_low, lead_high = room.lead
    windows = 100_000_000 / 100_000
    assert value == pytest.approx(windows / tokens)
    assert (lead_low, lead_high) == (pytest.approx(windows / high), pytest.approx(windows / low))


def test_the_roomiest_window_holds_the_most_sentences(results, my_prices):
    book = price_book(results, prices=my_prices)
    figures = [f for f in model_figures(results, book.models, book.listings) if f.language == "kor_Hang"]
    leader = decision.roomiest(figures)
    assert leader.best.context_sentences == max(f.context_sentences for f in figures if f.context_sentences)


# ------------------------------------------------------------------ the verb


@pytest.mark.parametrize("typed, code, name", [
    ("hin", "hin_Deva", "Hindi"), ("amh", "amh_Ethi", "Amharic"), ("yor", "yor_Latn", "Yoruba"),
    ("kor", "kor_Hang", "Korean"), ("zho_Hans", "zho_Hans", "Chinese (Simplified)"), ("Hindi", "hin_Deva", "Hindi"),
])
def test_cost_answers_for_each_language(results, my_prices, typed, code, name):
    out = io.StringIO()
    assert cmd_cost(typed, results_path=FIXTURE, prices=my_prices, out=out) == 0
    text = out.getvalue()
    assert text.startswith(f"{name} ({code}): ")
    rows = {row.tokenizer: row for row in results.rows if row.language == code}
    for tokenizer, row in rows.items():
        line = next(line for line in text.splitlines() if line.startswith(f"{tokenizer}: "))
        assert f"{row.tokens_per_sentence:.1f} tokens per sentence, {row.premium:.2f}x " in line
        assert f"(95% CI {row.premium_ci_low:.2f}-{row.premium_ci_high:.2f})" in line
    # A model's caveat (Claude legacy: older models only) is printed under its tokenizer.
    notes = {model.note for entry in results.record.tokenizers.values() for model in entry.models if model.note}
    assert notes and all(f"  note: {note}" in text for note in notes)
    o200k = text.split("tiktoken/o200k_base: ")[1]
    assert "  cheapest: cheap-o200k (our contract, $0.0010/M input tokens): $" in o200k.split("\n\n")[0]
    assert re.search(r"^Cheapest overall: cheap-o200k .*\[tiktoken/o200k_base\]$", text, re.M)
    assert re.search(r"^Roomiest overall: roomy-llama4 \(your contract, 100M tokens\): [\d,]+ sentences, [\d,]+ "
                     r"English-equivalent words \[llama/llama4\]$", text, re.M)
    sources = next(line for line in text.splitlines() if line.startswith("Prices and windows: "))
    assert f"{database.database_label()}, price of 2026-12-01" in sources and "; your prices (prices.csv, " in sources
    # A model the database prices names its provider beside its price.
    assert "  cheapest: deepseek-v4-flash (Deepseek, $0.15/M input tokens): $" in text


def test_cost_refuses_unknown_and_absent_languages(capsys):
    assert main(["cost", "Hindu", "--results", str(FIXTURE)]) == 2
    assert "unknown language code 'Hindu'; closest: hin_Deva" in capsys.readouterr().err
    assert main(["cost", "Tamil", "--results", str(FIXTURE)]) == 2
    err = capsys.readouterr().err
    assert "has no Tamil (tam_Taml) (6 languages); measure it with `python -m benchmark run --languages tam_Taml`" in err
    from benchmark.corpora import bundled_names

    arabic = [code for code, name in bundled_names().items() if "arabic" in name.lower().replace("(", " ").split()]
    assert main(["cost", "Arabic", "--results", str(FIXTURE)]) == 2
    assert f"FLORES-200: 'Arabic' is in the names of {len(arabic)} languages: " in capsys.readouterr().err
    # Among these results' six languages, one name has the word: Chinese (Simplified).
    assert main(["cost", "Chinese", "--results", str(FIXTURE)]) == 0
    assert capsys.readouterr().out.startswith("Chinese (Simplified) (zho_Hans): ")


def test_cost_in_a_subprocess_reads_only_saved_results(my_prices):
    done = subprocess.run([sys.executable, "-m", "benchmark", "cost", "Korean", "--results", str(FIXTURE),
                           "--prices", str(my_prices)], capture_output=True, text=True, cwd=REPO, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("Korean (kor_Hang): ") and "Cheapest overall: cheap-o200k" in done.stdout


def test_a_model_name_from_a_prices_file_cannot_drive_the_terminal(tmp_path):
    hostile = write(tmp_path / "p.csv", "model,input_usd_per_mtok,tokenizer\n"
                    "\"evil\x1b]0;owned\x07\u202e\",0.01,tiktoken/o200k_base\n")
    out = io.StringIO()
    assert cmd_cost("kor", results_path=FIXTURE, prices=hostile, out=out) == 0
    text = out.getvalue()
    assert "\x1b" not in text and "\x07" not in text and "\u202e" not in text
    assert "evil\\x1b]0;owned\\x07\\u202e" in text


def test_every_model_of_the_models_file_is_priced_or_says_why():
    from benchmark.adapters.models import all_models

    with open(LISTINGS_FILE, encoding="utf-8", newline="") as handle:
        rows = {row["model"]: row for row in csv.DictReader(handle)}
    assert list(rows) == [model.model for model in all_models()]
    assert all(row["provider"] or row["why"] for row in rows.values())


def test_the_usage_page_gives_the_command_that_makes_the_committed_results():
    from benchmark.pricing.language.answer import ALL_LANGUAGES_COMMAND

    assert ALL_LANGUAGES_COMMAND in (REPO / "docs" / "usage.md").read_text(encoding="utf-8")


def test_a_malformed_pairwise_entry_is_one_error_naming_it(tmp_path):
    document = json.loads(FIXTURE.read_text(encoding="utf-8"))
    document["pairwise"][3]["n_tokens"] = "many"
    bad = write(tmp_path / "results.json", json.dumps(document))
    with pytest.raises(BenchmarkError, match=r"malformed results, pairwise\[3\]: n_tokens must be a count, got 'many'"):
        load_results(bad)


def test_a_price_the_database_imported_from_a_reseller_names_the_reseller():
    """genai-prices files some prices it copied from OpenRouter under the vendor's entry (its note says
    so): such a listing names OpenRouter as a reseller, never the vendor, on every entry so noted."""
    from genai_prices.data import providers

    listing = database.lookup("gpt-oss-20b", "openai", on=ON)
    assert (listing.listing, listing.provider, listing.reseller, listing.seller) == \
        ("openai:gpt-oss-20b", "OpenRouter", True, "via OpenRouter")
    noted = [(p, m) for p in providers for m in p.models
             if (m.price_comments or "").startswith("Imported from OpenRouter pricing")]
    assert len(noted) >= 5, "the pinned database notes its OpenRouter imports"
    for provider, info in noted:
        found = database.lookup(info.id, provider.id, info.id, on=ON)
        assert found.seller == "via OpenRouter", (provider.id, info.id)
    own = database.lookup("gpt-4o", "openai", on=ON)
    assert (own.provider, own.reseller, own.seller) == ("OpenAI", False, "OpenAI")


def test_every_listing_names_who_sells_at_its_price():
    """No model of listings.csv is priced from an entry the database imported, and a reseller's price
    (OpenRouter's) reads 'via OpenRouter'; every other listing names the database's provider."""
    from genai_prices.data import providers

    names = {provider.id: provider.name for provider in providers}
    for model, listing in database_listings(ON).items():
        provider_id, _, _ = listing.listing.partition(":")
        if provider_id in database.RESELLERS:
            assert listing.seller == f"via {names[provider_id]}", model
        else:
            assert (listing.seller, listing.reseller) == (names[provider_id], False), model
    gpt_oss = database_listings(ON)["gpt-oss-20b"]
    assert (gpt_oss.listing, gpt_oss.seller) == ("aws:openai.gpt-oss-20b-1:0", "AWS Bedrock")


def test_the_readme_answer_for_hindi_is_what_cost_prints_on_the_committed_results():
    """README's excerpt of `cost hin` (its cheapest and roomiest lines, with their providers) is the
    answer on the committed 204-language results, line for line."""
    from benchmark.pricing.language.text import answer_for

    readme = (REPO / "README.md").read_text(encoding="utf-8")
    section = readme.split("## What your language costs on each model", 1)[1]
    excerpt = section.split("```text\n", 1)[1].split("```", 1)[0]
    answer = answer_for("hin", REPO / "reports" / "all-languages" / "results.json").splitlines()
    assert "Cheapest overall" in excerpt
    assert [line for line in excerpt.splitlines() if line not in answer] == []


def test_a_listed_model_whose_tokenizer_the_results_lack_is_named_as_such(tmp_path):
    # Issue 38: reported as "not in the models file", though models.csv lists it on google/gemma4.
    from benchmark.results.rows import load_results
    from tests.support.paths import DATA

    results = load_results(DATA / "results_cost.json")
    results = type(results)(rows=tuple(r for r in results.rows if r.tokenizer != "google/gemma4"),
                            record=results.record, summaries=results.summaries, pairwise=results.pairwise)
    results.record.tokenizers.pop("google/gemma4", None)
    prices = write(tmp_path / "g.csv", "model,input_usd_per_mtok\ngemma-3-4b-it,0.04\n")
    with pytest.raises(BenchmarkError, match=r"^.*g.csv, line 2: model 'gemma-3-4b-it' uses google/gemma4 "
                                             r"\(benchmark/adapters/models.csv\), which these results did not measure"):
        price_book(results, prices=prices)


def test_results_that_record_no_models_say_so_instead_of_no_model_is_priced(capsys):
    # Issue 38: a format-3 file (no models in its record) answered "no model of these tokenizers is priced".
    from benchmark.cli.parser import main
    from tests.support.paths import DATA

    assert main(["cost", "spa", "--results", str(DATA / "results_fixture.json")]) == 0
    assert capsys.readouterr().out.splitlines()[1] == (
        "Prices and windows: none (these results name no model of any tokenizer, as results made before format 4 "
        "do: run again, or give --prices FILE with a tokenizer column)")

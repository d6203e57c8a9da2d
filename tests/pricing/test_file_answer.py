"""`cost --file`'s answer (benchmark/pricing/file/answer.py): a real document's tokens priced on every
model from the pinned database, its window fit, the cheapest and roomiest, and with --language the
same content in English from the committed 204-language premiums."""

from __future__ import annotations

import datetime as dt
import io
import json
import re
import subprocess
import sys

import pytest

from benchmark.cli.commands import cmd_cost_file
from benchmark.cli.parser import main
from benchmark.measure.own_text import count_own_texts, read_own_texts
from benchmark.plumbing.errors import BenchmarkError
from benchmark.pricing.formats import fmt_usd
from benchmark.pricing.file.answer import render_own_cost
from benchmark.pricing.file.figures import premiums_for, price_list
from benchmark.results.rows import load_results
from tests.support.paths import REPO
from tests.support.vendor_code import devtest_lines

ON = dt.date(2026, 12, 1)
ALL_LANGUAGES = REPO / "reports" / "all-languages" / "results.json"
TOKENIZERS = ["tiktoken/cl100k_base", "tiktoken/o200k_base"]


@pytest.fixture(autouse=True)
def own_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))


@pytest.fixture(scope="module")
def spanish(tmp_path_factory):
    path = tmp_path_factory.mktemp("own") / "informe.txt"
    path.write_text("\n\n".join(devtest_lines("spa_Latn")[:300]) + "\n", encoding="utf-8")
    texts = read_own_texts([path])
    return path, texts, count_own_texts(texts, TOKENIZERS)


@pytest.fixture
def own_prices(tmp_path):
    """A prices file with one model of our own on o200k_base, cheaper and roomier than any listed."""
    prices = tmp_path / "prices.csv"
    prices.write_text("model,input_usd_per_mtok,context_window,tokenizer,provider\n"
                      "our-own,0.0001,50000000,tiktoken/o200k_base,us\n", encoding="utf-8")
    return prices


def block(answer: str, tokenizer: str) -> str:
    return answer.split(f"\n{tokenizer}: ", 1)[1].split("\n\n", 1)[0]


def test_each_tokenizers_cheapest_and_roomiest_and_the_models_too_long(spanish):
    _, texts, counts = spanish
    models, listings = price_list(ON)
    answer = render_own_cost(texts, counts, models, listings)
    for count in counts:
        n = count.n_tokens_total
        mine = [listings[m] for m in models[count.tokenizer] if m in listings]
        text = block(answer, count.tokenizer)
        assert text.startswith(f"{n:,} tokens")
        priced = [l for l in mine if l.input_usd_per_mtok is not None]
        best = min(priced, key=lambda l: (n * l.input_usd_per_mtok, l.model))
        assert f"cheapest: {best.model} ({best.seller}, " in text and f"): {fmt_usd(n * best.input_usd_per_mtok / 1e6)}\n" in text
        roomy = max((l for l in mine if l.context_window), key=lambda l: (l.context_window, l.model))
        assert f"roomiest: {roomy.model} (" in text and "fits " in text
        short = sorted(l.model for l in mine if l.context_window and l.context_window < n)
        found = re.search(r"too long for: (.*)", text)
        assert sorted(re.findall(r"([\w.-]+) \([\d,]+ tokens\)", found.group(1))) == short if found else short == []
    assert "gpt-4 (8,192 tokens)" in block(answer, "tiktoken/cl100k_base")  # 300 sentences do not fit 8k
    overall = answer.split("Cheapest overall: ", 1)[1].split("\n", 1)[0]
    cheapest = min((n * l.input_usd_per_mtok, l.model) for c in counts for m in models[c.tokenizer]
                   if (l := listings.get(m)) is not None and l.input_usd_per_mtok is not None
                   for n in [c.n_tokens_total])
    assert overall.startswith(f"{cheapest[1]} (") and fmt_usd(cheapest[0] / 1e6) in overall


def test_in_english_from_the_measured_premium(spanish):
    _, texts, counts = spanish
    models, listings = price_list(ON)
    source = premiums_for("Spanish", ALL_LANGUAGES)
    answer = render_own_cost(texts, counts, models, listings, premiums=source)
    rows = {r.tokenizer: r for r in load_results(ALL_LANGUAGES).rows if r.language == "spa_Latn"}
    for count in counts:
        row, n = rows[count.tokenizer], count.n_tokens_total
        expected = (f"in English: about {n / row.premium:,.0f} tokens (95% CI {n / row.premium_ci_high:,.0f}-"
                    f"{n / row.premium_ci_low:,.0f}), from Spanish (spa_Latn)'s premium {row.premium:.2f}x")
        assert expected in block(answer, count.tokenizer)
    assert "the tokens over Spanish (spa_Latn)'s premium on the same sentences" in answer


def test_the_users_prices_win(spanish, own_prices):
    _, texts, counts = spanish
    models, listings = price_list(ON, own_prices)
    answer = render_own_cost(texts, counts, models, listings)
    assert "Cheapest overall: our-own (us, " in answer and "Roomiest overall: our-own (us, " in answer


def test_the_cli_refuses_in_one_line(tmp_path, capsys):
    empty = tmp_path / "empty.txt"
    empty.write_bytes(b"")
    assert main(["cost", "--file", str(empty)]) == 2
    assert capsys.readouterr().err.strip() == f"error: {empty}: is empty; nothing to count"
    assert main(["cost", "hin", "--file", str(empty)]) == 2
    assert "with --file, name the files' language with --language hin" in capsys.readouterr().err
    assert main(["cost", "hin", "--language", "ben"]) == 2
    assert "--language names --file's language; for a language's answer: cost ben" in capsys.readouterr().err
    assert main(["cost"]) == 2
    assert "cost needs a language (cost hin) or your own files (cost --file PATH)" in capsys.readouterr().err


def test_the_cli_answers_for_a_file(spanish, monkeypatch):
    from benchmark.adapters import families

    monkeypatch.setattr(families, "VENDOR_VOCABULARIES", tuple(TOKENIZERS))  # the others: tests/measure/test_own_text.py
    path, _, counts = spanish
    out = io.StringIO()
    assert cmd_cost_file([path], language="spa", results_path=ALL_LANGUAGES, out=out, every_tokenizer=True) == 0
    answer = out.getvalue()
    assert answer.startswith(f"{path}: ") and answer.count("  in English: about ") == 2
    assert [f"{c.tokenizer}: {c.n_tokens_total:,} tokens" in answer for c in counts] == [True, True]
    assert "\nTokenizers: " not in answer  # every one counted: none to name


def test_without_all_the_flagships_tokenizers_are_counted_and_the_rest_named(spanish, monkeypatch, tmp_path):
    # The first screen (issue 54): the vendors' flagships' tokenizers, and any the user's prices file
    # prices a model of; --all counts every production tokenizer.
    from benchmark.adapters import families

    monkeypatch.setattr(families, "VENDOR_VOCABULARIES", tuple(TOKENIZERS))  # gpt-5's o200k is a flagship's
    path, _, counts = spanish
    n = {c.tokenizer: c.n_tokens_total for c in counts}
    out = io.StringIO()
    assert cmd_cost_file([path], out=out) == 0
    answer = out.getvalue()
    assert "\nTokenizers: the vendors' flagships' (1); --all counts the other 1 too (tiktoken/cl100k_base)\n" in answer
    assert f"\ntiktoken/o200k_base: {n['tiktoken/o200k_base']:,} tokens" in answer
    assert "\ntiktoken/cl100k_base: " not in answer
    prices = tmp_path / "prices.csv"
    prices.write_text("model,input_usd_per_mtok\ngpt-4,1.00\n", encoding="utf-8")  # a model of cl100k_base
    out = io.StringIO()
    assert cmd_cost_file([path], prices=prices, out=out) == 0
    assert f"\ntiktoken/cl100k_base: {n['tiktoken/cl100k_base']:,} tokens" in out.getvalue()
    assert "\nTokenizers: " not in out.getvalue()
    out = io.StringIO()
    assert cmd_cost_file([path], out=out, as_json=True) == 0
    assert json.loads(out.getvalue())["tokenizers_not_counted"] == ["tiktoken/cl100k_base"]


def test_a_fifo_in_a_subprocess_is_one_line_at_once(tmp_path):
    fifo = tmp_path / "pipe"
    import os

    os.mkfifo(fifo)
    done = subprocess.run([sys.executable, "-m", "benchmark", "cost", "--file", str(fifo)], capture_output=True,
                          text=True, timeout=60, cwd=REPO)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.strip().splitlines() == [f"error: {fifo}: is a FIFO (named pipe), not a text file; give a file of text"]


def test_a_shortlist_counts_its_tokenizers_only(spanish):
    path, _, counts = spanish
    out = io.StringIO()
    assert cmd_cost_file([path], models=["gpt-5", "gpt-4"], out=out) == 0
    answer = out.getvalue()
    assert [line.split(":")[0] for line in answer.splitlines() if line.startswith("tiktoken/")] == TOKENIZERS
    assert "  models: gpt-4\n" in answer and "  models: gpt-5\n" in answer and "llama/" not in answer
    n = {c.tokenizer: c.n_tokens_total for c in counts}
    assert f"tiktoken/o200k_base: {n['tiktoken/o200k_base']:,} tokens" in answer
    with pytest.raises(BenchmarkError, match="claude"):
        cmd_cost_file([path], models=["claude"], out=io.StringIO())


def test_json_holds_every_figure_of_the_text(spanish, own_prices):
    import json

    path, texts, counts = spanish
    models, listings = price_list(ON, own_prices)
    from benchmark.pricing.file.as_json import render_own_cost_json

    source = premiums_for("spa", ALL_LANGUAGES)
    from benchmark.pricing.prices.listings import listing_reasons

    text = render_own_cost_json(texts, counts, models, listings, on=ON, premiums=source, prices=own_prices,
                                reasons=listing_reasons())
    assert text.isascii()
    document = json.loads(text)
    assert (document["schema"], document["version"]) == ("tokencost/cost-file", 2)
    assert document["files"] == [{"path": str(path), "n_bytes": texts[0].n_bytes, "n_chars": texts[0].n_chars}]
    assert document["prices"]["database"]["price_date"] == "2026-12-01" and document["prices"]["user_file"] == str(own_prices)
    rows = {r.tokenizer: r for r in load_results(ALL_LANGUAGES).rows if r.language == "spa_Latn"}
    for entry, count in zip(document["tokenizers"], counts):
        n = count.n_tokens_total
        assert (entry["id"], entry["n_tokens"], entry["n_tokens_per_file"]) == (count.tokenizer, n, [n])
        assert entry["in_reference"]["n_tokens"]["value"] == pytest.approx(n / rows[count.tokenizer].premium)
        for model in entry["models"]:
            price = model["price"] and model["price"]["input_usd_per_mtok"]
            assert model["usd"] == (pytest.approx(n * price / 1e6) if price is not None else None)
            window = model["price"] and model["price"]["context_window"]
            assert model["fits"] == (pytest.approx(window / n) if window else None)
    assert document["cheapest"]["model"] == "our-own" and document["roomiest"]["model"] == "our-own"
    assert document["not_priced"]["text-embedding-3-small"] == "an embedding model: not a model one writes to"


def test_a_file_name_with_control_characters_is_shown_escaped(tmp_path):
    path = tmp_path / "notes\x1b[2J\u202e.txt"
    path.write_text("Una frase corta.\n", encoding="utf-8")
    other = tmp_path / "b.txt"
    other.write_text("Otra.\n", encoding="utf-8")
    texts = read_own_texts([path, other])
    models, listings = price_list(ON)
    counts = count_own_texts(texts, TOKENIZERS[:1])
    answer = render_own_cost(texts, counts, models, listings)
    assert "\x1b" not in answer and "\u202e" not in answer
    assert f"/notes\\x1b[2J\\u202e.txt {counts[0].n_tokens[0]:,}; " in answer

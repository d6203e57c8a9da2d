"""Issue 38 item 3: a row of the user's prices file naming the user's own tokenizer
(`my-finetune,0.0001,1000000,file/tok.json`) is used by `cost`, and the prices file named as a
source. On a real small run: 50 FLORES-200 devtest lines of English, Spanish and Hindi, a byte-level
BPE tokenizer.json trained here with HF `tokenizers`, measured beside tiktoken's cl100k_base. Before
the fix the row passed the check and was left out, gpt-3.5-turbo was "Cheapest overall" and the
prices file was not named."""

from __future__ import annotations

import io
import json

import pytest

from benchmark.cli.commands import cmd_cost
from benchmark.cli.parser import main
from benchmark.corpora.flores import read_bundled_text

LANGUAGES = ("eng_Latn", "spa_Latn", "hin_Deva")


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers, trainers

    root = tmp_path_factory.mktemp("own-tokenizer")
    corpus = root / "C"
    corpus.mkdir()
    for code in LANGUAGES:
        lines = read_bundled_text("devtest", code).decode("utf-8").splitlines()[:50]
        (corpus / f"{code}.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")
    tokenizer = Tokenizer(models.BPE())
    tokenizer.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    tokenizer.decoder = decoders.ByteLevel()
    tokenizer.train([str(corpus / f"{code}.txt") for code in LANGUAGES],
                    trainers.BpeTrainer(vocab_size=600, initial_alphabet=pre_tokenizers.ByteLevel.alphabet(),
                                        show_progress=False))
    tokenizer.save(str(root / "tok.json"))
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("XDG_CACHE_HOME", str(root / "cache"))
        assert main(["run", "--corpus", str(corpus), "--tokenizer-file", str(root / "tok.json"), "--tokenizers",
                     "file/*,tiktoken/cl100k_base", "--output", str(root / "c1"), "--no-plots", "--repeats", "1",
                     "--cache-dir", str(root / "cache" / "trained")]) == 0
        prices = root / "p.csv"
        prices.write_text("model,input_usd_per_mtok,context_window,tokenizer\n"
                          "my-finetune,0.0001,1000000,file/tok.json\n", encoding="utf-8")
        yield root / "c1" / "results.json", prices


def cost(run, **options) -> str:
    results, prices = run
    out = io.StringIO()
    assert cmd_cost("spa", results_path=results, prices=prices, out=out, **options) == 0
    return out.getvalue()


def test_a_price_for_the_users_own_tokenizer_is_used_and_its_file_named(run):
    text = cost(run)
    lines = text.splitlines()
    assert lines[1].startswith("Prices and windows: ") and "; your prices (p.csv, " in lines[1]
    own = text.split("\nfile/tok.json: ", 1)[1].split("\n\n", 1)[0].splitlines()
    assert own[1] == "  models: my-finetune"
    assert own[2].startswith("  cheapest: my-finetune (your contract, $0.00010/M input tokens): $")
    assert own[3].startswith("  roomiest: my-finetune (your contract, 1M tokens): ")
    assert any(line.startswith("Cheapest overall: my-finetune (your contract, ") and line.endswith("[file/tok.json]")
               for line in lines)
    assert any(line.startswith("Roomiest overall: my-finetune (your contract, 1M tokens): ") for line in lines)
    assert "tiktoken/cl100k_base: " in text  # the vendor's beside it, as before


def test_the_json_names_the_row_that_pairs_it(run):
    document = json.loads(cost(run, as_json=True))
    assert document["prices"]["user_file"]["path"] == str(run[1])
    assert document["prices"]["user_file"]["source"].startswith("your prices (p.csv, ")
    (own,) = [t for t in document["languages"][0]["tokenizers"] if t["id"] == "file/tok.json"]
    (model,) = own["models"]
    assert model["model"] == "my-finetune" and model["tokenizer_source"] == "your prices (p.csv, line 2)"
    assert model["price"]["input_usd_per_mtok"] == 0.0001 and model["price"]["context_window"] == 1000000
    assert model["figures"]["devtest_usd"] == pytest.approx(own["n_tokens"] * 0.0001 / 1e6)
    assert document["languages"][0]["cheapest"]["model"] == "my-finetune"


def test_a_shortlist_on_these_results_names_a_model_whose_tokenizer_they_lack(run):
    text = cost(run, models=["my-finetune", "gpt-4o"])
    assert "\n  models: my-finetune\n" in text and "tiktoken/cl100k_base: " not in text
    assert ("\nNot counted:\n  gpt-4o: its tokenizer tiktoken/o200k_base is not in these results; measure it with "
            "`python -m benchmark run --tokenizers tiktoken/o200k_base`\n") in text

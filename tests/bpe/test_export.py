"""The HuggingFace export: `tokenizers` loads the `tokenizer.json` we write and gives our ids.

HF encodes with `add_special_tokens=False` (no BOS/EOS), as the adapter contract says; it still
finds added tokens in the text, so on text holding a special token's string its ids are ours with
`allowed_special="all"`.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tokenizers import Tokenizer

from benchmark.bpe import PATTERNS, ByteLevelBPE
from benchmark.bpe.export import byte_alphabet

from tests.support.adversarial_texts import ADVERSARIAL
from tests.support.paths import FLORES

LANGUAGES = ["eng_Latn", "spa_Latn", "rus_Cyrl", "jpn_Jpan", "kor_Hang", "ces_Latn"]


def lines(language: str, split: str) -> list[str]:
    return (FLORES / split / f"{language}.{split}").read_text(encoding="utf-8").splitlines()


def exported(model: ByteLevelBPE, path: Path) -> Tokenizer:
    model.save_hf(path)
    return Tokenizer.from_file(str(path))


def hf_ids(tokenizer: Tokenizer, text: str) -> list[int]:
    return tokenizer.encode(text, add_special_tokens=False).ids


@pytest.fixture(scope="module")
def dev_model() -> ByteLevelBPE:
    """Trained on the six dev files, as the harness trains ours."""
    return ByteLevelBPE.train([text for language in LANGUAGES for text in lines(language, "dev")], 16384,
                              special_tokens=["<|endoftext|>", "<|pad|>"])


@pytest.fixture(scope="module")
def dev_hf(dev_model, tmp_path_factory) -> Tokenizer:
    return exported(dev_model, tmp_path_factory.mktemp("hf") / "tokenizer.json")


@pytest.mark.slow
@pytest.mark.parametrize("language", LANGUAGES)
def test_every_devtest_line_and_the_whole_text(dev_model, dev_hf, language):
    texts = lines(language, "devtest")
    whole = "\n".join(texts)
    mismatches = [text for text in texts if hf_ids(dev_hf, text) != dev_model.encode(text)]
    assert mismatches == []
    assert hf_ids(dev_hf, whole) == dev_model.encode(whole)


# HF finds added tokens in any text, so a special token's string is left to the test of specials.
ORDINARY = [text for text in ADVERSARIAL if "<|endoftext|>" not in text]


@pytest.mark.parametrize("text", ORDINARY, ids=range(len(ORDINARY)))
def test_adversarial_strings(dev_model, dev_hf, text):
    ids = hf_ids(dev_hf, text)
    assert ids == dev_model.encode(text)
    assert dev_hf.decode(ids) == text


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.text(st.characters(codec="utf-8"), max_size=80))
def test_random_text(dev_model, dev_hf, text):
    # subtle: hypothesis also draws the code's own string constants ("<|endoftext|>"), and HF finds
    # added tokens in any text: its ids are ours with the specials allowed, and ordinary without them.
    assert hf_ids(dev_hf, text) == dev_model.encode(text, allowed_special="all")
    if not any(special in text for special in dev_model.special_tokens):
        assert hf_ids(dev_hf, text) == dev_model.encode(text)


def test_special_tokens_are_added_tokens(dev_model, dev_hf):
    text = "end<|endoftext|>start <|pad|><|pad|> x<|endoftext"
    assert hf_ids(dev_hf, text) == dev_model.encode(text, allowed_special="all")
    assert dev_hf.token_to_id("<|endoftext|>") == dev_model.special_tokens["<|endoftext|>"] == 16382
    assert dev_hf.get_vocab_size() == dev_model.vocab_size == 16384


@pytest.mark.parametrize("pattern", [name for name in PATTERNS if name != "cl100k"])
def test_every_named_pattern_gives_our_ids(tmp_path, pattern):
    model = ByteLevelBPE.train([text for language in LANGUAGES for text in lines(language, "dev")[:150]], 1500,
                               pattern=pattern)
    tokenizer = exported(model, tmp_path / "tokenizer.json")
    for text in ORDINARY + [text for language in LANGUAGES for text in lines(language, "devtest")[:60]]:
        assert hf_ids(tokenizer, text) == model.encode(text), text


@pytest.mark.parametrize("pattern", [r"\w+", r"(?i)[a-z]+|\s", r"\w*", r"\p{Lu}\p{Ll}+|[0-9]{2}"])
def test_a_custom_pattern_runs_as_we_run_it(tmp_path, pattern):
    # Our execution form: what the pattern leaves unmatched is one pre-token per character.
    model = ByteLevelBPE.train([text for language in LANGUAGES for text in lines(language, "dev")[:40]], 600,
                               pattern=pattern)
    tokenizer = exported(model, tmp_path / "tokenizer.json")
    for text in ADVERSARIAL[:14] + ["Hello, World! 12345 ÉCOLE école"]:
        assert hf_ids(tokenizer, text) == model.encode(text), text


def test_what_hf_cannot_run_is_refused_with_the_reason(tmp_path):
    with pytest.raises(ValueError, match=r"cl100k_base is a tiktoken rank table, without the merge list .* save_tiktoken"):
        ByteLevelBPE.from_tiktoken("cl100k_base").save_hf(tmp_path / "tokenizer.json")
    model = ByteLevelBPE.train(["some words, and more words"] * 3, 270, pattern=r"(?V1)[\w--\d]+|\s+")
    with pytest.raises(ValueError, match=r"HuggingFace tokenizers cannot load this model \(.*Oniguruma"):
        model.save_hf(tmp_path / "tokenizer.json")
    assert list(tmp_path.iterdir()) == []  # nothing half-written


def test_the_file_reads_as_named_stages(dev_model, tmp_path):
    dev_model.save_hf(tmp_path / "tokenizer.json")
    assert [path.name for path in tmp_path.iterdir()] == ["tokenizer.json"]  # no temp file left
    document = json.loads((tmp_path / "tokenizer.json").read_text(encoding="utf-8"))
    split, byte_level = document["pre_tokenizer"]["pretokenizers"]
    assert split["type"] == "Split" and split["behavior"] == "Isolated"
    assert byte_level == {"type": "ByteLevel", "add_prefix_space": False, "trim_offsets": True, "use_regex": False}
    model = document["model"]
    assert model["type"] == "BPE" and model["ignore_merges"] is False
    assert len(model["merges"]) == len(dev_model.merges) and len(model["vocab"]) == 256 + len(dev_model.merges)
    alphabet = byte_alphabet()
    assert len(set(alphabet)) == 256 and alphabet[ord("a")] == "a" and alphabet[ord(" ")] == "\u0120"
    left, right = dev_model.merges[0]
    assert model["merges"][0] == [alphabet[left], alphabet[right]]


def test_ignore_merges_is_off_as_our_pair_rule_needs(tmp_path):
    # (b, c), then (a, b), then (ab, c): "abc" starts a|b|c, merges b + c first, and a + bc is no
    # merge, so it stays two tokens although "abc" is one (HF's ignore_merges would return 258).
    model = ByteLevelBPE(merges=[(98, 99), (97, 98), (257, 99)], pattern="none")
    assert model.encode("abc") == [97, 256] and model.encode("abd") == [257, 100]
    tokenizer = exported(model, tmp_path / "tokenizer.json")
    assert hf_ids(tokenizer, "abc") == [97, 256] and hf_ids(tokenizer, "abd") == [257, 100]
    document = json.loads((tmp_path / "tokenizer.json").read_text(encoding="utf-8"))
    document["model"]["ignore_merges"] = True
    assert hf_ids(Tokenizer.from_str(json.dumps(document)), "abc") == [258]

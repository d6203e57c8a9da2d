"""The Korean notes' id layout (`id_layout="specials-first"`): <pad> <unk> <bos> <eos> at 0-3,
bytes at 4-259, merges from 260; through training, model files, tiktoken and HF exports."""

from __future__ import annotations


import pytest

from benchmark.bpe import ByteLevelBPE
from tests.support.paths import FLORES

NOTES = {"<pad>": 0, "<unk>": 1, "<bos>": 2, "<eos>": 3}


def lines(split: str, language: str, n: int) -> list[str]:
    return (FLORES / split / f"{language}.{split}").read_text(encoding="utf-8").splitlines()[:n]


def test_hello_before_any_merge_and_a_size_below_260_keeps_the_base():
    for size in (100, 256, 260):
        model = ByteLevelBPE.train(["Hello"] * 5, size, id_layout="specials-first")
        assert model.merges == [] and model.vocab_size == 260  # the embedding's real id range
        assert model.special_tokens == NOTES
        assert model.encode("Hello") == [76, 105, 112, 112, 115]
        assert model.decode([2, 76, 105, 112, 112, 115, 3]) == "<bos>Hello<eos>"
    with pytest.raises(ValueError, match="use at least 256"):
        ByteLevelBPE.train(["Hello"] * 5, 100)  # the default layout refuses it, as before


@pytest.fixture(scope="module")
def pair():
    texts = lines("dev", "kor_Hang", 60) + lines("dev", "eng_Latn", 60)
    default = ByteLevelBPE.train(texts, 704, special_tokens=list(NOTES))
    notes = ByteLevelBPE.train(texts, 704, id_layout="specials-first")
    return default, notes


def test_the_same_merges_under_ids_shifted_by_four(pair):
    default, notes = pair
    assert notes.merges == default.merges and notes.vocab_size == default.vocab_size == 704
    assert default.special_tokens == {"<pad>": 700, "<unk>": 701, "<bos>": 702, "<eos>": 703}  # after 444 merges
    for text in lines("devtest", "kor_Hang", 20):
        assert notes.encode(text) == [i + 4 for i in default.encode(text)]
        assert notes.decode(notes.encode(text)) == text
    assert notes.token_bytes(4) == b"\x00" and notes.token_bytes(259) == b"\xff"
    assert notes.token_bytes(260) == default.token_bytes(256)
    assert notes.encode("<bos>a", allowed_special="all") == [2, ord("a") + 4]


def test_file_tiktoken_and_hf_give_the_same_ids(pair, tmp_path):
    from tokenizers import Tokenizer

    _, notes = pair
    notes.save(tmp_path / "model.json")
    assert '"id_layout": "specials-first"' in (tmp_path / "model.json").read_text(encoding="utf-8")
    loaded = ByteLevelBPE.load(tmp_path / "model.json")
    assert loaded.fingerprint == notes.fingerprint and loaded.id_layout == "specials-first"
    encoding = notes.to_tiktoken()
    notes.save_hf(tmp_path / "tokenizer.json")
    hf = Tokenizer.from_file(str(tmp_path / "tokenizer.json"))
    for text in lines("devtest", "kor_Hang", 15) + ["<bos>Hello<eos>"]:
        ids = notes.encode(text, allowed_special="all")
        assert loaded.encode(text, allowed_special="all") == ids
        assert encoding.encode(text, allowed_special="all") == ids
        assert hf.encode(text, add_special_tokens=False).ids == ids
        assert hf.decode(ids, skip_special_tokens=False) == text
    notes.save_tiktoken(tmp_path / "ranks.tiktoken")
    first = (tmp_path / "ranks.tiktoken").read_text(encoding="ascii").splitlines()[0]
    assert first == "AA== 4"  # byte 0 has rank 4


def test_the_default_layout_keeps_its_ids_and_fingerprints(pair):
    default, _ = pair
    assert ByteLevelBPE.from_tiktoken("cl100k_base").encode("hello world") == [15339, 1917]
    assert default.id_layout == "bytes-first" and default.encode("a") == [97]


def test_layout_errors_name_the_fix():
    with pytest.raises(ValueError, match="unknown id_layout 'notes'"):
        ByteLevelBPE(merges=[], id_layout="notes")
    with pytest.raises(ValueError, match="special tokens at 0..1"):
        ByteLevelBPE(merges=[], special_tokens={"<pad>": 0, "<eos>": 5}, id_layout="specials-first")
    with pytest.raises(ValueError, match="a rank table keeps its own ids"):
        ByteLevelBPE(ranks={bytes([i]): i for i in range(256)}, id_layout="specials-first")


def test_parity_aware_training_takes_the_layout_too():
    dev = {code: lines("dev", code, 40) for code in ("eng_Latn", "kor_Hang")}
    default = ByteLevelBPE.train_parity(dev, 500, special_tokens=list(NOTES))
    notes = ByteLevelBPE.train_parity(dev, 500, id_layout="specials-first")
    assert notes.merges == default.merges and notes.special_tokens == NOTES
    text = lines("devtest", "kor_Hang", 1)[0]
    assert notes.encode(text) == [i + 4 for i in default.encode(text)]

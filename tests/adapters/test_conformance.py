"""One conformance test every adapter passes, the skip path, the training cache and user files.

The conformance rules (benchmark/adapters/base.py): plain text (no BOS/EOS, special-token text is
ordinary text, nothing truncated), ids inside the vocabulary, readable token strings, one per
token, and decode(encode(s)) == s, except where a library normalises, which is its documented
exception, declared with its family (`Family.round_trip`: SentencePiece's nmt_nfkc, WordPiece's
spaces, Qwen's NFC, Anthropic's NFKC), as is which families' tokens are their bytes of the text
(`Family.byte_level`): nothing here names a family.
"""

from __future__ import annotations

import base64
import json
from pathlib import Path

import pytest

from benchmark.adapters import (
    PRETRAINED,
    Adapter,
    Skipped,
    TrainingCache,
    TrainingText,
    build_tokenizers,
    check_tokenizer_files,
    load_tokenizer_file,
    select_ids,
)
from benchmark.adapters.families import family_info
from benchmark.adapters.table import round_trips
from benchmark.corpora import load_flores
from benchmark.plumbing.errors import BenchmarkError

TRAIN_LANGUAGES = ("eng_Latn", "spa_Latn", "rus_Cyrl", "ces_Latn", "jpn_Jpan")
SIZE = 3000  # holds this text's characters for every family
SMALL = 600  # below SentencePiece's and WordPiece's alphabets: the skip path

SAMPLES = [
    "Once upon a time",
    "  leading and trailing spaces  ",
    "tabs\tand\nnewlines\r\n",
    "<|endoftext|> [CLS] <s> </s> [SEP] <unk>",
    "Příliš žluťoučký kůň úpěl ďábelské ódy.",
    "¿Dónde está la biblioteca? ¡Aquí!",
    "Съешь же ещё этих мягких французских булок.",
    "むかしむかし、ある所に猫がいました。",
    "다람쥐 헌 쳇바퀴에 타고파",
    "emoji 🙂🚀 and digits 1234567890 and ﬁ ligature",
    "Cafe\u0301 n\u0303 decomposed (not NFC)",
    "",
]


@pytest.fixture(scope="module")
def training() -> TrainingText:
    corpus = load_flores(languages=TRAIN_LANGUAGES)
    return TrainingText.of({code: corpus.lines("dev", code)[:150] for code in TRAIN_LANGUAGES})


@pytest.fixture(scope="module")
def cache_dir(tmp_path_factory) -> Path:
    return tmp_path_factory.mktemp("tokenizer-cache")


@pytest.fixture(scope="module")
def built(training, cache_dir) -> dict[str, Adapter | Skipped]:
    ids = select_ids(None, [SMALL, SIZE])
    return {t.id: t for t in build_tokenizers(ids, training, TrainingCache(cache_dir))}


def adapter_ids() -> list[str]:
    return [i for i in select_ids(None, [SIZE])]


@pytest.mark.parametrize("tokenizer_id", adapter_ids())
def test_adapter_conformance(built, tokenizer_id):
    adapter = built[tokenizer_id]
    assert isinstance(adapter, Adapter), f"{tokenizer_id} was skipped: {getattr(adapter, 'reason', '')}"
    assert adapter.id == tokenizer_id
    assert len(adapter.fingerprint) == 64 and int(adapter.fingerprint, 16) >= 0
    for stage in ("normalizer", "pre_tokenizer", "model", "decoder"):
        assert stage in adapter.settings, f"{tokenizer_id} does not record its {stage}"
    assert adapter.encode("") == []  # no BOS/EOS
    for text in SAMPLES:
        ids = adapter.encode(text)
        assert all(isinstance(i, int) and 0 <= i < adapter.vocab_size for i in ids)
        pieces = adapter.token_strings(text)
        assert len(pieces) == len(ids) and all(isinstance(p, str) for p in pieces)
        decoded = adapter.decode(ids)
        if adapter.unk_id is None or adapter.unk_id not in ids:  # an unknown token gives back no text
            assert round_trips(family_info(adapter.family).round_trip, text, decoded), (text, decoded)
    # Special-token text is ordinary text: it costs more than one token and comes back as text.
    ids = adapter.encode("<|endoftext|>")
    assert len(ids) > 1
    # A long text is not truncated: 200 copies (thousands of tokens, past any 512-token or similar
    # limit) cost about 200 times as much (spaces keep words apart).
    sentence = SAMPLES[4] + " "
    assert len(adapter.encode(sentence * 200)) >= 0.9 * 200 * len(adapter.encode(sentence))
    # Token strings read like the sentence.
    assert "".join(adapter.token_strings("Once upon a time")).strip() == "Once upon a time"


SPAN_SAMPLES = SAMPLES + [
    "cafe\u0301 nai\u0308ve \u0301mark",  # combining marks, one at the start
    "東京都に住んでいる。語",  # CJK: byte-level tokens split characters
    "👨\u200d👩\u200d👧 🇯🇵 ㍿ Ǆ",  # emoji sequences; NFKC expands the last two
    "a\u3000b   c",  # an ideographic space, a run of spaces
]


@pytest.mark.parametrize("tokenizer_id", adapter_ids())
def test_token_spans(built, tokenizer_id):
    """encode_with_spans: the ids of encode, and each token's UTF-8 byte span of the text, in
    order; byte-level tokens lie end to end and are exactly their bytes."""
    adapter = built[tokenizer_id]
    byte_level = family_info(adapter.family).byte_level
    for text in SPAN_SAMPLES:
        data = text.encode("utf-8")
        ids, starts, ends = adapter.encode_with_spans(text)
        assert list(ids) == adapter.encode(text), text
        assert len(starts) == len(ends) == len(ids)
        assert all(0 <= a <= b <= len(data) for a, b in zip(starts, ends)), text
        assert list(starts) == sorted(starts) and list(ends) == sorted(ends), text
        if byte_level:
            assert b"".join(data[a:b] for a, b in zip(starts, ends)) == data
            assert all(data[a:b] == adapter.token_bytes(i) for i, a, b in zip(ids, starts, ends))
        else:
            # Every letter is in some token's span (the tokens cover the text's words).
            covered = set().union(*(range(a, b) for a, b in zip(starts, ends))) if ids else set()
            letters = [k for k, ch in enumerate(data) if chr(ch).isalnum() and ch < 128]
            assert set(letters) <= covered, text


def test_sentencepiece_spans_give_a_characters_byte_pieces_its_bytes(built):
    adapter = built[f"sentencepiece/unigram-{SIZE}"]
    text = "𝄞 x"  # a character no training line has: four byte pieces
    ids, starts, ends = adapter.encode_with_spans(text)
    pieces = [adapter.token_text(i) for i in ids]
    assert pieces[1:5] == ["<f0>", "<9d>", "<84>", "<9e>"]
    # SentencePiece gives the character's bytes to its last byte piece only; each piece gets them.
    assert list(zip(starts, ends))[1:5] == [(0, 4)] * 4
    assert ids[0] in adapter._marker_ids and (starts[0], ends[0]) == (0, 0)  # the dummy prefix: no text


def test_partial_character_entries(built):
    assert len(built["tiktoken/cl100k_base"].partial_char_ids) == 773
    assert len(built["tiktoken/o200k_base"].partial_char_ids) == 1562
    assert built["bpe_openai/cl100k_base"].partial_char_ids == built["tiktoken/cl100k_base"].partial_char_ids
    ours = built[f"bpe/balanced-{SIZE}"]
    assert set(range(128, 256)) <= ours.partial_char_ids  # the lone bytes >= 0x80
    assert not any(i < 128 for i in ours.partial_char_ids)
    sentencepiece = built[f"sentencepiece/unigram-{SIZE}"]
    assert len(sentencepiece.partial_char_ids) == 128  # byte pieces <0x80>..<0xFF>
    assert sentencepiece.partial_char_ids < sentencepiece.byte_fallback_ids
    assert built[f"hf/wordpiece-{SIZE}"].partial_char_ids == frozenset()


def test_entry_texts_are_what_encoding_alone_should_give(built):
    cl100k = built["tiktoken/cl100k_base"]
    assert cl100k.entry_text(cl100k.encode(" upon")[0]) == " upon"
    assert cl100k.entry_text(100257) is None  # <|endoftext|>: a special token is not text
    assert cl100k.entry_text(next(iter(cl100k.partial_char_ids))) is None
    wordpiece = built[f"hf/wordpiece-{SIZE}"]
    pieces = wordpiece.tokenizer.get_vocab()
    assert wordpiece.entry_text(pieces["##s"]) is None and wordpiece.entry_text(pieces["the"]) == "the"
    assert wordpiece.entry_text(wordpiece.unk_id) is None
    sentencepiece = built[f"sentencepiece/unigram-{SIZE}"]
    the = sentencepiece.processor.PieceToId("\u2581the")
    assert sentencepiece.entry_text(the) == "the"
    assert sentencepiece.entry_text(sentencepiece.unk_id) is None


def test_byte_level_token_strings_show_partial_characters_in_hex(built):
    pieces = built["tiktoken/cl100k_base"].token_strings("語")
    assert pieces == ["<e8 aa>", "<9e>"]
    assert built["tiktoken/o200k_base"].token_strings("Once upon a time") == ["Once", " upon", " a", " time"]


def test_tiktoken_and_bpe_openai_agree(built):
    for name in ("cl100k_base", "o200k_base"):
        tiktoken_adapter, rust_adapter = built[f"tiktoken/{name}"], built[f"bpe_openai/{name}"]
        assert tiktoken_adapter.fingerprint == rust_adapter.fingerprint
        for text in SAMPLES:
            assert tiktoken_adapter.encode(text) == rust_adapter.encode(text), (name, text)


def test_sentencepiece_counts_unk_and_byte_fallback(built):
    sp = built[f"sentencepiece/unigram-{SIZE}"]
    assert sp.settings["byte_fallback"] is True and sp.settings["normalizer"] == "nmt_nfkc"
    assert len(sp.byte_fallback_ids) == 256
    # An Egyptian hieroglyph, not in the training text: the dummy-prefix space, then 4 UTF-8 bytes.
    ids = sp.encode("𓀀")
    assert len(ids) == 5 and set(ids[1:]) <= sp.byte_fallback_ids and ids[0] not in sp.byte_fallback_ids
    assert sp.token_strings("𓀀") == [" ", "<f0>", "<93>", "<80>", "<80>"]
    assert sp.decode(ids) == "𓀀"


def test_wordpiece_unknown_word_is_unk(built):
    wp = built[f"hf/wordpiece-{SIZE}"]
    ids = wp.encode("𓀀")
    assert ids == [wp.unk_id]
    assert wp.token_strings("a 𓀀") == ["a", " [UNK]"]


def test_sizes_below_the_alphabet_are_skipped_with_a_reason(built):
    sp, wp = built[f"sentencepiece/unigram-{SMALL}"], built[f"hf/wordpiece-{SMALL}"]
    assert isinstance(sp, Skipped) and f"vocab_size {SMALL} is below" in sp.reason
    assert isinstance(wp, Skipped) and "WordPiece alphabet" in wp.reason
    # Byte-level families hold any size above 256.
    assert isinstance(built[f"bpe/balanced-{SMALL}"], Adapter)
    assert built[f"hf/bpe-{SMALL}"].vocab_size == SMALL


def test_our_bpe_sweep_is_a_prefix_and_times_grow(built):
    small, large = built[f"bpe/balanced-{SMALL}"], built[f"bpe/balanced-{SIZE}"]
    assert small.model.merges == large.model.merges[: len(small.model.merges)]
    assert 0 < small.train_seconds <= large.train_seconds


def test_cache_is_reused_and_retrain_trains_again(training, cache_dir, built, monkeypatch):
    from benchmark.bpe import ByteLevelBPE

    ids = [f"bpe/balanced-{SIZE}", f"sentencepiece/unigram-{SIZE}", f"hf/wordpiece-{SIZE}", f"hf/bpe-{SIZE}"]

    def no_training(*args, **kwargs):
        raise AssertionError("trained although the cache has the model")

    import sentencepiece
    import tokenizers

    from benchmark.adapters import hf_wordpiece

    with monkeypatch.context() as patch:
        patch.setattr(ByteLevelBPE, "train_sweep", no_training)
        patch.setattr(sentencepiece.SentencePieceTrainer, "train", no_training)
        patch.setattr(tokenizers.Tokenizer, "train_from_iterator", no_training)
        patch.setattr(hf_wordpiece, "train_vocab", no_training)
        again = build_tokenizers(ids, training, TrainingCache(cache_dir))
    for adapter in again:
        assert adapter.fingerprint == built[adapter.id].fingerprint
        assert adapter.train_seconds == built[adapter.id].train_seconds  # the original training's

    # --retrain: trains again and gets the same models, WordPiece's too (HF's own trainer broke ties
    # in hash-map order: benchmark/adapters/hf_wordpiece.py).
    calls = []
    real_sweep = ByteLevelBPE.train_sweep.__func__
    monkeypatch.setattr(ByteLevelBPE, "train_sweep",
                        classmethod(lambda cls, *a, **k: calls.append(1) or real_sweep(cls, *a, **k)))
    retrained = build_tokenizers(ids, training, TrainingCache(cache_dir, enabled=False))
    assert calls == [1]
    for adapter in retrained:
        assert adapter.fingerprint == built[adapter.id].fingerprint, adapter.id


def test_a_damaged_cached_model_is_trained_again(training, tmp_path):
    # A truncated model file made SentencePiece and HF raise from their loaders; now it is a miss.
    cache = TrainingCache(tmp_path)
    ids = [f"sentencepiece/unigram-{SIZE}", f"hf/bpe-{SMALL}", f"bpe/balanced-{SMALL}"]
    first = {t.id: t.fingerprint for t in build_tokenizers(ids, training, cache)}
    models = [p for p in tmp_path.rglob("*") if p.name.endswith((".model", ".tokenizer.json", ".bpe.json"))]
    assert len(models) == 3, models
    for path in models:
        path.write_bytes(path.read_bytes()[:100])
    again = {t.id: t.fingerprint for t in build_tokenizers(ids, training, cache)}
    assert again == first  # trained again, from the same text: the same models
    assert all(len(path.read_bytes()) > 100 for path in models)


@pytest.mark.parametrize("metadata", [
    "{}", '{"model_sha256": 5}', '{"train_seconds": "fast"}', '{"train_seconds": -1}', '{"train_seconds": true}',
    '{"train_seconds": [1.0]}', '{"skipped": 7}', '[]', "[" * 100_000 + "]" * 100_000,
])
def test_cache_metadata_that_is_valid_json_but_wrong_is_a_miss(training, tmp_path, metadata):
    cache = TrainingCache(tmp_path)
    first = build_tokenizers([f"hf/bpe-{SMALL}"], training, cache)[0]
    (meta_path,) = [p for p in (tmp_path / "hf-bpe").iterdir() if p.suffix == ".json" and ".tokenizer" not in p.name]
    stored = json.loads(meta_path.read_text(encoding="utf-8"))
    if metadata.startswith("{"):  # keep the digest, so only the field under test is wrong
        metadata = json.dumps({"model_sha256": stored["model_sha256"], **json.loads(metadata)})
    meta_path.write_text(metadata, encoding="utf-8")
    again = build_tokenizers([f"hf/bpe-{SMALL}"], training, cache)[0]  # trained again, no crash
    assert again.fingerprint == first.fingerprint and isinstance(again.train_seconds, float)
    assert json.loads(meta_path.read_text(encoding="utf-8"))["train_seconds"] == again.train_seconds


def test_cache_key_changes_with_the_training_text(training, tmp_path):
    cache = TrainingCache(tmp_path)
    build_tokenizers([f"hf/bpe-{SMALL}"], training, cache)
    build_tokenizers([f"hf/bpe-{SMALL}"], TrainingText.of({"all": training.texts[:-1]}), cache)
    assert len(list((tmp_path / "hf-bpe").glob("*.tokenizer.json"))) == 2
    assert not list(tmp_path.rglob("*.tmp"))  # atomic writes leave nothing behind


@pytest.mark.parametrize("tokenizer_id", [f"bpe/balanced-{SIZE}", f"hf/bpe-{SIZE}", f"hf/wordpiece-{SIZE}",
                                          f"sentencepiece/unigram-{SIZE}", "tiktoken/o200k_base",
                                          "bpe_openai/cl100k_base"])
def test_save_then_load_as_a_user_file(built, tmp_path, tokenizer_id):
    original = built[tokenizer_id] if tokenizer_id in built else PRETRAINED[tokenizer_id]()
    path = tmp_path / f"saved{original.file_suffix}"
    original.save(path)
    pattern = "o200k" if "o200k" in tokenizer_id else "cl100k"  # a rank file does not hold its pattern
    loaded = load_tokenizer_file(path, pattern=pattern)
    assert loaded.id == f"file/{path.name}"
    if original.file_suffix != ".tiktoken":  # a rank file holds no special tokens, which count in n_vocab
        assert loaded.vocab_size == original.vocab_size
    for text in SAMPLES:
        assert loaded.encode(text) == original.encode(text), text


def test_our_bpe_ranks_load_as_a_tiktoken_rank_file(built, tmp_path):
    bpe = built[f"bpe/balanced-{SIZE}"]
    ranks = bpe.model.mergeable_ranks()
    (tmp_path / "ranks.tiktoken").write_bytes(
        b"".join(base64.b64encode(token) + b" " + str(rank).encode() + b"\n"
                 for token, rank in sorted(ranks.items(), key=lambda item: item[1])))
    loaded = load_tokenizer_file(tmp_path / "ranks.tiktoken")
    for text in SAMPLES:
        assert loaded.encode(text) == bpe.encode(text), text


def test_an_adapter_without_a_file_format_cannot_be_saved(tmp_path):
    adapter = Adapter()
    adapter.id = "test/none"
    with pytest.raises(BenchmarkError, match="test/none: Adapter has no model file format"):
        adapter.save(tmp_path / "x")
    assert not list(tmp_path.iterdir())


def test_sentencepiece_failures_other_than_the_size_raise(monkeypatch):
    import sentencepiece as spm

    from benchmark.adapters import google_sentencepiece

    def broken(**options):
        raise RuntimeError("Internal: src/trainer_interface.cc(429) something else went wrong")

    monkeypatch.setattr(spm.SentencePieceTrainer, "train", broken)
    with pytest.raises(BenchmarkError, match=r"sentencepiece/unigram-1000: SentencePiece training failed "
                                             r"\(Internal: .*something else went wrong\)"):
        google_sentencepiece._train(["a b c"], 1000)


def test_bad_tokenizer_files_are_one_clear_error(tmp_path):
    with pytest.raises(BenchmarkError, match="no such tokenizer file"):
        load_tokenizer_file(tmp_path / "missing.json")
    (tmp_path / "other.json").write_text(json.dumps({"hello": 1}))
    with pytest.raises(BenchmarkError, match="neither a HuggingFace tokenizer.json nor"):
        load_tokenizer_file(tmp_path / "other.json")
    (tmp_path / "list.json").write_text("[1, 2]")  # JSON, not read as a tiktoken rank file
    with pytest.raises(BenchmarkError, match=r"list\.json: a JSON file that is neither"):
        load_tokenizer_file(tmp_path / "list.json")
    (tmp_path / "broken.model").write_bytes(b"\x00not a model")
    with pytest.raises(BenchmarkError, match=r"broken\.model: could not load"):
        load_tokenizer_file(tmp_path / "broken.model")


def test_tokenizer_files_are_checked_without_loading(tmp_path):
    (tmp_path / "a").mkdir()
    for folder in (tmp_path, tmp_path / "a"):
        (folder / "ranks.tiktoken").write_bytes(base64.b64encode(b"x") + b" 0\n")
    check_tokenizer_files([tmp_path / "ranks.tiktoken"])
    with pytest.raises(BenchmarkError, match=r"same file name as .*file/ranks\.tiktoken"):
        check_tokenizer_files([tmp_path / "ranks.tiktoken", tmp_path / "a" / "ranks.tiktoken"])
    with pytest.raises(BenchmarkError, match="no such tokenizer file"):
        check_tokenizer_files([tmp_path / "missing.model"])
    with pytest.raises(BenchmarkError, match="unknown rank-file pattern 'foo'; use one of .*cl100k"):
        check_tokenizer_files([tmp_path / "ranks.tiktoken"], pattern="foo")
    with pytest.raises(BenchmarkError, match="unknown rank-file pattern 'none'"):
        load_tokenizer_file(tmp_path / "ranks.tiktoken", pattern="none")


def test_unknown_tokenizer_id_names_the_known_ones():
    assert select_ids(["hf/*"], [4096]) == ["hf/wordpiece-4096", "hf/bpe-4096", "hf/parity-4096"]
    with pytest.raises(BenchmarkError, match=r"unknown tokenizer 'tiktoken/gpt2'.*tiktoken/o200k_base"):
        select_ids(["tiktoken/gpt2"], [4096])
    assert set(PRETRAINED) <= set(select_ids(None, [4096]))


def test_our_bpe_cache_key_follows_the_trainer_source_and_pattern_text(training, tmp_path, monkeypatch):
    import hashlib

    from benchmark.adapters import inhouse
    from benchmark.bpe import PATTERNS, flat, pairs, parity, patterns, sweeps, tables, train, whole_chars

    settings = inhouse.cache_settings("cl100k", 300)
    assert settings["pattern_text"] == PATTERNS["cl100k"]
    # Every module whose code decides the merges is in the key, so editing any of them retrains.
    sources = b"".join(Path(m.__file__).read_bytes()
                       for m in (train, pairs, flat, parity, whole_chars, sweeps, tables, patterns))
    assert settings["trainer_sha256"] == hashlib.sha256(sources).hexdigest()
    assert inhouse.cache_settings("cl100k", 300, weights={"eng": 9}) != settings  # and the mix
    assert inhouse.cache_settings("cl100k", 300, whole_characters=("Hangul",)) != settings
    cache = TrainingCache(tmp_path)
    small = TrainingText.of({"all": training.texts[:50]})
    build_tokenizers(["bpe/balanced-300"], small, cache)
    build_tokenizers(["bpe/balanced-300"], small, cache)
    assert len(list(tmp_path.rglob("*.bpe.json"))) == 1  # the same trainer reuses the model
    monkeypatch.setattr(inhouse, "trainer_digest", lambda: "an edited train.py")
    build_tokenizers(["bpe/balanced-300"], small, cache)
    assert len(list(tmp_path.rglob("*.bpe.json"))) == 2  # an edited trainer trains again


def test_a_damaged_rank_file_is_one_clear_error_not_a_rust_panic(tmp_path):
    def rank_file(name: str, tokens: list[bytes], ranks: list[int] | None = None) -> Path:
        ranks = ranks if ranks is not None else list(range(len(tokens)))
        path = tmp_path / name
        path.write_bytes(b"".join(base64.b64encode(t) + b" %d\n" % r for t, r in zip(tokens, ranks)))
        return path

    every_byte = [bytes([b]) for b in range(256)]
    good = load_tokenizer_file(rank_file("good.tiktoken", every_byte + [b"ab"]))
    assert good.encode("abc") == [256, ord("c")]
    with pytest.raises(BenchmarkError, match=r"truncated\.tiktoken: 56 of the 256 single bytes have no rank "
                                             r"\(0xc8, 0xc9,"):
        load_tokenizer_file(rank_file("truncated.tiktoken", every_byte[:200]))
    with pytest.raises(BenchmarkError, match=r"same\.tiktoken, line 258: rank 256 is also the rank on line 257"):
        load_tokenizer_file(rank_file("same.tiktoken", every_byte + [b"ab", b"cd"], list(range(257)) + [256]))
    with pytest.raises(BenchmarkError, match=r"twice\.tiktoken, line 258: token b'ab' is listed twice"):
        load_tokenizer_file(rank_file("twice.tiktoken", every_byte + [b"ab", b"ab"]))

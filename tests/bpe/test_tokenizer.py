"""Our trained BPE: lossless round trips, pre-tokens never crossed, special tokens, streaming decode,
model files and the tiktoken export."""

from __future__ import annotations

import json

import pytest
import regex
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from benchmark.bpe import PATTERNS, ByteLevelBPE
from benchmark.bpe import openai_ranks
from benchmark.bpe.files import ModelFileError
from benchmark.bpe.reference import reference_encode
from benchmark.plumbing.errors import BenchmarkError
from tests.support.paths import FLORES
from tests.support.replay import Replay

LANGUAGES = ["eng_Latn", "spa_Latn", "rus_Cyrl", "jpn_Jpan", "kor_Hang", "ces_Latn"]


def dev_lines(n_per_language: int) -> list[str]:
    lines = []
    for language in LANGUAGES:
        lines += (FLORES / "dev" / f"{language}.dev").read_text(encoding="utf-8").splitlines()[:n_per_language]
    return lines


def devtest_lines(n_per_language: int) -> list[str]:
    lines = []
    for language in LANGUAGES:
        lines += (FLORES / "devtest" / f"{language}.devtest").read_text(encoding="utf-8").splitlines()[:n_per_language]
    return lines


@pytest.fixture(scope="module")
def model() -> ByteLevelBPE:
    return ByteLevelBPE.train(dev_lines(300), 1500, special_tokens=["<|endoftext|>", "<|pad|>"])


ODD_TEXTS = [
    "",
    "👩‍👩‍👧‍👦🏳️‍🌈👍🏽",
    "e\u0301a\u0308\u0323",
    "日本語のテキストと한국어",
    "line\r\nbreaks\r\n",
    "nul\x00inside",
    "a" * 100_000,
    "1234567890" * 50,
    "    indented(code)\n\tx = 1\n",
]


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.text(st.characters(codec="utf-8")))
def test_any_text_round_trips(model, text):
    assert model.decode(model.encode(text)) == text
    assert model.decode_bytes(model.encode(text)) == text.encode("utf-8")


@pytest.mark.parametrize("text", ODD_TEXTS, ids=range(len(ODD_TEXTS)))
def test_odd_texts_round_trip(model, text):
    assert model.decode(model.encode(text)) == text


def test_a_one_megabyte_line_round_trips(model):
    text = "".join(dev_lines(40)).replace("\n", " ")
    text = text * (1_000_000 // len(text.encode()) + 1)
    assert len(text.encode()) > 1_000_000
    assert model.decode(model.encode(text)) == text


def test_a_lone_surrogate_is_a_value_error_that_says_where(model):
    with pytest.raises(ValueError, match=r"U\+D800 at index 3"):
        model.encode("abc\ud800def")


def test_fast_encoder_equals_replaying_every_merge(model):
    replay = Replay(model.merges, regex.compile(model.pattern))  # reference_encode, each distinct pre-token once
    for line in devtest_lines(60) + ODD_TEXTS[:6]:
        assert model.encode(line) == replay.encode(line)


@pytest.mark.parametrize("language", ["jpn_Jpan", "kor_Hang", "rus_Cyrl"])
def test_a_long_pre_token_of_multi_byte_letters_equals_replaying_every_merge(model, language):
    # Longer than LONG_PIECE_BYTES: three-byte scripts go through the safe cuts, two-byte ones the heap.
    text = (FLORES / "devtest" / f"{language}.devtest").read_text(encoding="utf-8")
    letters = "".join(regex.findall(r"\p{L}", text))[:800]
    assert len(letters.encode()) > 1_000 and regex.fullmatch(r"\p{L}+", letters)
    model.clear_cache()
    assert model.encode(letters) == reference_encode(letters, model.merges, regex.compile(model.pattern))


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.text(st.sampled_from(list("aab cdé日本한 \n'1")), max_size=60))
def test_fast_encoder_equals_replay_on_random_text(model, text):
    assert model.encode(text) == reference_encode(text, model.merges, regex.compile(model.pattern))


@pytest.mark.parametrize("pattern", [*PATTERNS, r"\d+|\D+"])
def test_merges_never_cross_pretokens(pattern):
    bpe = ByteLevelBPE.train(dev_lines(40), 600, pattern=pattern)
    compiled = regex.compile(bpe.pattern) if bpe.pattern is not None else None
    for line in devtest_lines(15):
        pieces = compiled.findall(line) if compiled is not None else [line]
        assert bpe.encode(line) == [i for piece in pieces for i in bpe.encode(piece)]
        assert bpe.decode(bpe.encode(line)) == line
    assert bpe.pattern_name == (pattern if pattern in PATTERNS else "custom")


def test_an_invalid_pattern_is_named():
    with pytest.raises(ValueError, match="neither a named pattern"):
        ByteLevelBPE.train(["x"], 300, pattern="(unclosed")


def test_special_tokens_come_after_the_merges_and_are_opt_in(model):
    assert model.special_tokens == {"<|endoftext|>": 1498, "<|pad|>": 1499}
    assert model.vocab_size == 1500
    text = "end<|endoftext|>"
    assert model.encode(text, allowed_special={"<|endoftext|>"})[-1] == 1498
    assert 1498 not in model.encode(text)  # ordinary text by default: no prompt injection
    assert model.decode(model.encode(text, allowed_special="all")) == text
    with pytest.raises(ValueError, match="allowed_special names tokens this model does not have"):
        model.encode(text, allowed_special={"<|nope|>"})


def test_training_stops_below_min_frequency():
    bpe = ByteLevelBPE.train(["abcd abcd xyz"], 10_000, min_frequency=2)
    # Pre-tokens "abcd", " abcd", " xyz": ab, bc and cd occur twice, everything else once. Ties go
    # to the smallest (left_id, right_id): ab (97, 98), then cd (99, 100) before (ab, c) = (256, 99),
    # then abcd; nothing else occurs twice, so training stops at 259 and says so.
    assert [bpe.token_bytes(256 + k) for k in range(len(bpe.merges))] == [b"ab", b"cd", b"abcd"]
    assert bpe.vocab_size == 259 == 256 + len(bpe.merges)
    # min_frequency decides where it stops: once is enough for 7 merges, three times for none.
    assert ByteLevelBPE.train(["abcd abcd xyz"], 10_000, min_frequency=1).vocab_size == 263
    assert ByteLevelBPE.train(["abcd abcd xyz"], 10_000, min_frequency=3).vocab_size == 256


def test_vocab_size_below_the_byte_alphabet_is_refused():
    with pytest.raises(ValueError, match="at least 257"):
        ByteLevelBPE.train(["x"], 256, special_tokens=["<s>"])


def test_streaming_decoder_emits_whole_characters_only(model):
    text = "日本語のテキスト, 한국어, emoji 👩‍👩‍👧 and кириллица"
    ids = model.encode(text)
    decoder = model.decoder()
    chunks = [decoder.feed(i) for i in ids] + [decoder.flush()]
    assert "".join(chunks) == text
    assert all("\ufffd" not in chunk for chunk in chunks)
    # Some token ends inside a character, so some feed returned nothing yet.
    assert any(chunk == "" for chunk in chunks[:-1])


def test_train_sweep_is_a_prefix_of_one_run():
    lines = dev_lines(50)
    sweep = ByteLevelBPE.train_sweep(lines, [400, 700])
    alone = ByteLevelBPE.train(lines, 400)
    assert sweep[400][0].merges == alone.merges
    assert sweep[700][0].merges[:144] == alone.merges
    assert 0 < sweep[400][1] <= sweep[700][1]


# ------------------------------------------------------------------------- model files


def test_save_then_load_gives_the_same_model(model, tmp_path):
    path = tmp_path / "model.json"
    model.save(path)
    loaded = ByteLevelBPE.load(path)
    assert loaded.fingerprint == model.fingerprint
    assert loaded.merges == model.merges and loaded.special_tokens == model.special_tokens
    for line in devtest_lines(20):
        assert loaded.encode(line) == model.encode(line)
    assert [p.name for p in tmp_path.iterdir()] == ["model.json"]  # no temp file left behind
    raw = json.loads(path.read_text(encoding="utf-8"))
    assert raw["version"] == 1 and raw["pattern_name"] == "cl100k"


def test_the_same_training_gives_the_same_file_and_fingerprint(tmp_path):
    lines = dev_lines(30)
    first, second = ByteLevelBPE.train(lines, 500), ByteLevelBPE.train(lines, 500)
    first.save(tmp_path / "a.json")
    second.save(tmp_path / "b.json")
    assert (tmp_path / "a.json").read_bytes() == (tmp_path / "b.json").read_bytes()
    assert first.fingerprint == second.fingerprint
    assert ByteLevelBPE.train(lines, 501).fingerprint != first.fingerprint


def test_an_edited_file_is_refused(model, tmp_path):
    path = tmp_path / "model.json"
    model.save(path)
    raw = json.loads(path.read_text(encoding="utf-8"))
    raw["merges"][5][1] = raw["merges"][6][1]
    path.write_text(json.dumps(raw), encoding="utf-8")
    with pytest.raises(ModelFileError, match="fingerprint mismatch"):
        ByteLevelBPE.load(path)


@pytest.mark.parametrize("field", ["merge text", "pattern_name"])
def test_an_edited_readable_field_is_refused(model, tmp_path, field):
    # These fields are outside the fingerprint (they are derived), so the load checks them itself.
    path = tmp_path / "model.json"
    model.save(path)
    ByteLevelBPE.load(path)  # as saved: fine
    raw = json.loads(path.read_text(encoding="utf-8"))
    if field == "merge text":
        raw["merges"][3][2] = "zz"
        expected = r"merge 4 \(\d+, \d+\) is written as making 'zz'"
    else:
        raw["pattern_name"] = "gpt2"
        expected = "'pattern_name' is 'gpt2' but the pattern stored is 'cl100k'"
    path.write_text(json.dumps(raw), encoding="utf-8")
    with pytest.raises(ModelFileError, match=expected):
        ByteLevelBPE.load(path)


def test_a_wrong_version_is_refused(model, tmp_path):
    path = tmp_path / "model.json"
    model.save(path)
    raw = json.loads(path.read_text(encoding="utf-8"))
    raw["version"] = 99
    path.write_text(json.dumps(raw), encoding="utf-8")
    with pytest.raises(ModelFileError, match="version 99"):
        ByteLevelBPE.load(path)


def test_not_a_model_file(tmp_path):
    path = tmp_path / "x.json"
    path.write_text("[1, 2", encoding="utf-8")
    with pytest.raises(ModelFileError, match="not valid JSON, so not a model file"):
        ByteLevelBPE.load(path)


def test_tiktoken_runs_our_model_and_gives_our_ids(model, tmp_path):
    import tiktoken
    from tiktoken.load import load_tiktoken_bpe

    encoding = model.to_tiktoken()
    for line in devtest_lines(100):
        assert encoding.encode_ordinary(line) == model.encode(line)
    # The exported rank file loads in tiktoken from a local path.
    model.save_tiktoken(tmp_path / "ours.tiktoken")
    ranks = load_tiktoken_bpe(str(tmp_path / "ours.tiktoken"))
    assert ranks == model.mergeable_ranks()
    again = tiktoken.Encoding("ours", pat_str=model.pattern, mergeable_ranks=ranks, special_tokens=model.special_tokens)
    assert again.encode("hello <|pad|>", allowed_special="all") == model.encode("hello <|pad|>", allowed_special="all")


def test_an_imported_rank_table_saves_and_loads(tmp_path):
    cl100k = ByteLevelBPE.from_tiktoken("cl100k_base")
    cl100k.save(tmp_path / "cl100k.json")
    loaded = ByteLevelBPE.load(tmp_path / "cl100k.json")
    assert loaded.fingerprint == cl100k.fingerprint
    assert loaded.encode("Hello, 世界") == cl100k.encode("Hello, 世界")


# ------------------------------------------------------------------------- offline OpenAI ranks


def test_an_altered_rank_file_is_refused(monkeypatch):
    wrong = openai_ranks.ENCODINGS["cl100k_base"].__class__(
        **{**openai_ranks.ENCODINGS["cl100k_base"].__dict__, "sha256": "0" * 64}
    )
    monkeypatch.setitem(openai_ranks.ENCODINGS, "cl100k_base", wrong)
    with pytest.raises(BenchmarkError, match=f"cl100k_base.tiktoken.gz .* not the pinned {'0' * 64}: refused"):
        ByteLevelBPE.from_tiktoken("cl100k_base")


def test_missing_rank_data_says_how_to_install_it(monkeypatch):
    from tests.support.vendor_code import hide_package

    hide_package(monkeypatch, "bpe_openai")
    with pytest.raises(BenchmarkError, match="pip install bpe-openai"):
        ByteLevelBPE.from_tiktoken("o200k_base")


def test_a_bpe_openai_without_its_data_folder_is_named(monkeypatch, tmp_path):
    from tests.support.vendor_code import hide_package

    (tmp_path / "bpe_openai").mkdir()  # the package is there, its data/ is not
    hide_package(monkeypatch, "bpe_openai", tmp_path / "bpe_openai")
    with pytest.raises(BenchmarkError, match=r"bpe_openai/data/cl100k_base.tiktoken.gz not found.*pip install bpe-openai"):
        ByteLevelBPE.from_tiktoken("cl100k_base")


def test_an_unknown_encoding_is_named():
    with pytest.raises(BenchmarkError, match="unknown OpenAI encoding 'p50k_base'"):
        ByteLevelBPE.from_tiktoken("p50k_base")


# ------------------------------------------------------------------ what users get wrong, and custom patterns


def test_a_mistyped_pattern_name_a_compiled_pattern_and_capturing_groups_are_refused():
    with pytest.raises(ValueError, match=r"unknown pattern name 'cl100k_base'; the named patterns are gpt2, cl100k"):
        ByteLevelBPE.train(["some text"], 260, pattern="cl100k_base")
    with pytest.raises(TypeError, match=r"got Pattern .* \(pass its text, \.pattern\)"):
        ByteLevelBPE.train(["some text"], 260, pattern=regex.compile(r"\w+|\W"))
    with pytest.raises(ValueError, match=r"has 2 capturing group\(s\).*\(\?:\.\.\.\)"):
        ByteLevelBPE(pattern=r"(\w)(\w*)|\s+", merges=[])
    with pytest.raises(ValueError, match=r"write \(\?:abc\)"):  # letters only: a typo, or meant literally
        ByteLevelBPE(pattern="abc", merges=[])
    with pytest.raises(ValueError, match=r"matches in reverse"):
        ByteLevelBPE(pattern=r"(?r)\w+", merges=[])


def test_a_verbose_custom_pattern_keeps_its_comment_out_of_the_wrapper():
    model = ByteLevelBPE.train(dev_lines(20), 300, pattern="(?x) \\w+  # words")
    text = "Words, and more words!"
    assert model.decode(model.encode(text)) == text
    assert model.to_tiktoken().encode_ordinary(text) == model.encode(text)


def test_to_tiktoken_refuses_a_pattern_that_matches_empty_text_only_after_some_character():
    model = ByteLevelBPE.train(["qx qq x!"] * 3, 260, pattern=r"(?<=q)x*")
    with pytest.raises(ValueError, match="can match the empty string"):
        model.to_tiktoken()


@settings(max_examples=60, deadline=None)
@given(text=st.text(max_size=60))
@pytest.mark.parametrize("pattern", [r"\w+", r"(?i)[a-z]+|\s", r"\w*", r"\p{Lu}\p{Ll}+|[0-9]{2}"])
def test_a_custom_pattern_that_leaves_text_unmatched_still_loses_nothing(pattern, text):
    model = _custom_models()[pattern]
    if any(0xD800 <= ord(c) <= 0xDFFF for c in text):
        return
    assert model.decode(model.encode(text)) == text
    if not pattern.endswith("*"):
        assert model.to_tiktoken().encode_ordinary(text) == model.encode(text)


_CUSTOM_MODELS: dict[str, ByteLevelBPE] = {}


def _custom_models() -> dict[str, ByteLevelBPE]:
    if not _CUSTOM_MODELS:
        lines = dev_lines(40)
        for pattern in (r"\w+", r"(?i)[a-z]+|\s", r"\w*", r"\p{Lu}\p{Ll}+|[0-9]{2}"):
            _CUSTOM_MODELS[pattern] = ByteLevelBPE.train(lines, 400, pattern=pattern)
    return _CUSTOM_MODELS


def test_custom_pattern_models_are_trained_on_every_character_and_saved_as_given(tmp_path):
    model = _custom_models()[r"\w+"]
    assert model.pattern == r"\w+" and model.pattern_name == "custom"
    # The punctuation the pattern leaves out is text too: "Hello, world!" keeps its comma.
    assert model.decode(model.encode("Hello, world!")) == "Hello, world!"
    model.save(tmp_path / "m.json")
    assert ByteLevelBPE.load(tmp_path / "m.json").encode("Hello, world!") == model.encode("Hello, world!")
    with pytest.raises(ValueError, match=r"can match the empty string, which tiktoken cannot run"):
        _custom_models()[r"\w*"].to_tiktoken()


def test_inputs_of_the_wrong_type_are_named():
    with pytest.raises(TypeError, match=r"texts must be an iterable of str .* got a str; wrap it in a list"):
        ByteLevelBPE.train("one long document", 300)
    with pytest.raises(TypeError, match=r"text 1 is a NoneType, not a str"):
        ByteLevelBPE.train(["a", None], 300)
    with pytest.raises(TypeError, match=r"text 0 is a bytes, not a str"):
        ByteLevelBPE.train_sweep([b"x"], [300])
    with pytest.raises(TypeError, match=r"special_tokens is a sequence of str, got the str '<\|endoftext\|>'"):
        ByteLevelBPE.train(["a b"], 300, special_tokens="<|endoftext|>")
    with pytest.raises(ValueError, match=r"special tokens listed twice: \['<s>'\]"):
        ByteLevelBPE.train(["a b"], 300, special_tokens=["<s>", "</s>", "<s>"])
    model = ByteLevelBPE.train(["a b"], 300)
    with pytest.raises(TypeError, match="got a str"):
        model.encode_batch("abc")
    with pytest.raises(TypeError, match=r"token ids are ints, got float 3\.0"):
        model.decode([3.0])
    numpy = pytest.importorskip("numpy")
    assert model.decode(numpy.array(model.encode("a b"))) == "a b"  # int-like ids are ids


def test_the_fix_suggested_for_a_lone_surrogate_works():
    model = ByteLevelBPE.train(["a b"], 300)
    text = "ab\ud800cd \ud83d\ude00"  # a lone surrogate, and a pair split in two
    with pytest.raises(ValueError, match=r"lone surrogate U\+D800 at index 2") as error:
        model.encode(text)
    fix = regex.search(r"e\.g\. (text\.encode\(.*?\))\s\(", str(error.value)).group(1)
    fixed = eval(fix, {"text": text})  # the message's own expression
    assert model.decode(model.encode(fixed)) == fixed == "ab\ufffdcd \U0001F600"


def test_load_names_a_folder_a_wrong_field_type_and_the_version(tmp_path):
    with pytest.raises(ModelFileError, match="is a folder, not a model file"):
        ByteLevelBPE.load(tmp_path)
    model = ByteLevelBPE.train(["low lower lowest"] * 5, 270, special_tokens=["<pad>"])
    model.save(tmp_path / "m.json")
    raw = json.loads((tmp_path / "m.json").read_text(encoding="utf-8"))
    (tmp_path / "list.json").write_text(json.dumps({**raw, "special_tokens": ["<pad>"]}), encoding="utf-8")
    with pytest.raises(ModelFileError, match=r"malformed model file \(AttributeError"):
        ByteLevelBPE.load(tmp_path / "list.json")
    (tmp_path / "v.json").write_text(json.dumps({**raw, "version": "1"}), encoding="utf-8")
    with pytest.raises(ModelFileError, match=r"model file version '1', this program reads 1;"):
        ByteLevelBPE.load(tmp_path / "v.json")

"""Hostile model and rank files: each is refused in one line that names the file and the value,
before anything is sized by what the file says; ids are ints and nothing else."""

from __future__ import annotations

import base64
import json
import os
from pathlib import Path

import pytest

from benchmark.bpe import ByteLevelBPE
from benchmark.bpe.files import ModelContent, ModelFileError, fingerprint_of
from benchmark.bpe.openai_ranks import parse_rank_file
from benchmark.plumbing.errors import BenchmarkError

SMALL_RANKS = {bytes([b]): b for b in range(256)} | {b"ab": 256, b"abc": 257}


@pytest.fixture(scope="module")
def trained() -> ByteLevelBPE:
    return ByteLevelBPE.train(["low lower lowest"] * 5 + ["newer wider"] * 3, 280, special_tokens=["<pad>"])


@pytest.fixture(scope="module")
def ranked() -> ByteLevelBPE:
    return ByteLevelBPE(ranks=SMALL_RANKS, pattern="simple", special_tokens={"<|end|>": 258})


def edited(model: ByteLevelBPE, path: Path, edit) -> Path:
    """`model` saved to `path`, then its JSON changed by `edit(raw)`."""
    model.save(path)
    raw = json.loads(path.read_text(encoding="utf-8"))
    edit(raw)
    path.write_text(json.dumps(raw), encoding="utf-8")
    return path


def refused(path: Path, message: str) -> str:
    with pytest.raises(ModelFileError, match=message) as error:
        ByteLevelBPE.load(path)
    text = str(error.value)
    assert "\n" not in text and str(path) in text
    return text


def test_deeply_nested_json_is_a_one_line_error_not_a_recursion_error(tmp_path):
    path = tmp_path / "nested.json"
    path.write_text('{"format": "tokencost-bpe", "merges": ' + "[" * 200_000 + "]" * 200_000 + "}", encoding="utf-8")
    refused(path, "JSON nested too deeply to be a model file")


@pytest.mark.parametrize("version", [True, 1.0, "1"])
def test_a_version_that_only_equals_1_is_refused(trained, tmp_path, version):
    path = edited(trained, tmp_path / "m.json", lambda raw: raw.update(version=version))
    refused(path, f"model file version {version!r}, this program reads 1")


def _set_merge_id(value):
    def edit(raw):
        raw["merges"][4][1] = value
    return edit


@pytest.mark.parametrize("as_written", ["str", "fraction", "bool"])
def test_merge_ids_that_are_not_json_integers_are_refused_by_name(trained, tmp_path, as_written):
    right = trained.merges[4][1]
    value, shown = {"str": (str(right), f'"{right}"'), "fraction": (right + 0.7, f"{right}.7"),
                    "bool": (True, "true")}[as_written]
    path = edited(trained, tmp_path / "m.json", _set_merge_id(value))
    refused(path, rf"merge 5's right id is {shown}, not an integer")


@pytest.mark.parametrize(("value", "shown"), [("279", '"279"'), (279.0, "279.0"), (True, "true")])
def test_special_token_ids_that_are_not_json_integers_are_refused_by_name(trained, tmp_path, value, shown):
    path = edited(trained, tmp_path / "m.json", lambda raw: raw["special_tokens"].update({"<pad>": value}))
    refused(path, rf"the id of special token '<pad>' is {shown}, not an integer")


def _set_rank(value):
    def edit(raw):
        for entry in raw["ranks"]:
            if entry[0] == base64.b64encode(b"ab").decode():
                entry[1] = value
    return edit


@pytest.mark.parametrize(("value", "shown"), [("256", '"256"'), (256.7, "256.7"), (True, "true")])
def test_ranks_that_are_not_json_integers_are_refused_by_name(ranked, tmp_path, value, shown):
    path = edited(ranked, tmp_path / "r.json", _set_rank(value))
    refused(path, rf"the rank of b'ab' is {shown}, not an integer")


def test_a_rank_table_model_saves_and_loads(ranked, tmp_path):
    ranked.save(tmp_path / "r.json")
    loaded = ByteLevelBPE.load(tmp_path / "r.json")
    assert loaded.fingerprint == ranked.fingerprint and loaded.encode("abcab") == [257, 256]


def _with_its_fingerprint(edit):
    """`edit`, then the fingerprint the edited content hashes to: a file edited with care."""
    def edit_and_sign(raw):
        edit(raw)
        ranks = {base64.b64decode(token): rank for token, rank in raw["ranks"]}
        raw["fingerprint"] = fingerprint_of(ModelContent(raw["pattern"], raw["special_tokens"], ranks=ranks))
    return edit_and_sign


def test_an_edited_huge_rank_is_refused_before_anything_is_sized_by_it(ranked, tmp_path):
    # [None] * (3_000_000_001) would be a 24 GB list: the rank is checked first.
    path = edited(ranked, tmp_path / "r.json", _set_rank(3_000_000_000))
    refused(path, r"the rank of b'ab' is 3000000000, but a table of 258 tokens holds ranks below 516")
    path = edited(ranked, tmp_path / "r.json", _with_its_fingerprint(_set_rank(3_000_000_000)))
    refused(path, r"the rank of b'ab' is 3000000000, but a table of 258 tokens holds ranks below 516")
    path = edited(ranked, tmp_path / "r.json", _set_rank(-1))
    refused(path, r"the rank of b'ab' is -1; ranks are 0 or more")
    with pytest.raises(ValueError, match=r"the rank of b'ab' is 3000000000, but a table of 258 tokens"):
        ByteLevelBPE(ranks={**SMALL_RANKS, b"ab": 3_000_000_000})
    with pytest.raises(TypeError, match=r"the rank of b'ab' is the bool True"):
        ByteLevelBPE(ranks={**SMALL_RANKS, b"ab": True})


def rank_file(ranks: dict[bytes, object]) -> bytes:
    return b"".join(base64.b64encode(token) + b" " + str(rank).encode() + b"\n" for token, rank in ranks.items())


@pytest.mark.parametrize(
    ("rank", "message"),
    [
        (3_000_000_000, r"line 257: rank 3000000000 leaves the table too sparse: 258 ranks must lie below 516"),
        ("-1", r"line 257: rank '-1' is not a rank \(0, 1, 2, ... in ASCII digits\)"),
        ("+256", r"line 257: rank '\+256' is not a rank"),
        ("2_56", r"line 257: rank '2_56' is not a rank"),
        ("256.0", r"line 257: rank '256.0' is not a rank"),
    ],
)
def test_a_user_rank_file_with_a_rank_out_of_line_is_refused_naming_the_line(rank, message):
    data = rank_file({**{bytes([b]): b for b in range(256)}, b"ab": rank, b"abc": 257})
    with pytest.raises(BenchmarkError, match=message):
        parse_rank_file(data, source="user.tiktoken")
    assert parse_rank_file(rank_file(SMALL_RANKS), source="user.tiktoken") == SMALL_RANKS


def test_decode_refuses_a_bool_but_takes_numpy_integers(trained):
    with pytest.raises(TypeError, match=r"token ids are ints, got bool True"):
        trained.decode([True])
    with pytest.raises(TypeError, match=r"token ids are ints, got bool False"):
        trained.token_bytes(False)
    numpy = pytest.importorskip("numpy")
    assert trained.decode([numpy.int64(108), numpy.int32(111)]) == "lo"


def test_the_constructor_refuses_ids_that_are_not_ints():
    with pytest.raises(TypeError, match=r"merge 1's left id is str '97'; ids are ints"):
        ByteLevelBPE(merges=[("97", 98)])
    with pytest.raises(TypeError, match=r"merge 1's right id is float 98\.5; ids are ints"):
        ByteLevelBPE(merges=[(97, 98.5)])
    with pytest.raises(TypeError, match=r"the id of special token '<s>' is the bool True"):
        ByteLevelBPE(merges=[], special_tokens={"<s>": True})


@pytest.mark.parametrize("kind", ["folder", "fifo", "broken link", "missing"])
def test_a_path_that_is_not_a_regular_file_is_named_as_what_it_is(tmp_path, kind):
    path = tmp_path / "model.json"
    if kind == "folder":
        path.mkdir()
        expected = "is a folder, not a model file"
    elif kind == "fifo":
        if not hasattr(os, "mkfifo"):
            pytest.skip("no FIFOs on this system")
        os.mkfifo(path)  # reading it would wait for a writer for ever
        expected = r"is a FIFO \(named pipe\), not a model file"
    elif kind == "broken link":
        path.symlink_to(tmp_path / "gone.json")
        expected = "is a broken symbolic link, not a model file"
    else:
        expected = "no such model file"
    refused(path, expected)

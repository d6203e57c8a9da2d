"""The code sample measured (measure/code_sample.py) on the committed files with two real
tokenizers, checked against tiktoken's own count; its results block (results/code.py) saved and
read back, refused in one line when malformed, and absent from older files."""

from __future__ import annotations

import dataclasses
import json

import pytest

from benchmark.adapters import PRETRAINED
from benchmark.adapters.base import Adapter
from benchmark.adapters.families import families_of_kind
from benchmark.measure.code_sample import CODE_DIR, LANGUAGES, code_costs, measure_code, read_sample
from benchmark.plumbing.errors import BenchmarkError
from benchmark.results.code import CODE_FIELDS, CodeCost, CodeCosts, code_csv
from benchmark.results.rows import load_results, save_results
from tests.support.paths import DATA
from tests.support.vendor_code import openai

TOKENIZERS = ("tiktoken/cl100k_base", "tiktoken/o200k_base")


@pytest.fixture(scope="module")
def measured():
    adapters = [PRETRAINED[tid]() for tid in TOKENIZERS]
    return measure_code(adapters, read_sample())


def test_each_count_is_tiktokens_own_on_the_whole_file(measured):
    assert [(e.tokenizer, e.language) for e in measured.entries] == [(t, lang) for t in TOKENIZERS for lang in LANGUAGES]
    for entry in measured.entries:
        text = (CODE_DIR / f"{entry.language}.txt").read_text(encoding="utf-8")
        assert entry.n_tokens == len(openai(entry.tokenizer.split("/")[1])(text))  # tiktoken's own encoding
        assert (entry.n_bytes, entry.n_lines) == (len(text.encode("utf-8")), text.count("\n"))
        assert entry.tokens_per_kb == pytest.approx(1000 / entry.bytes_per_token)
        assert 2 < entry.bytes_per_token < 6 and 3 < entry.tokens_per_line < 20  # code, not prose or noise
    record = json.loads((CODE_DIR / "provenance.json").read_text(encoding="utf-8"))
    assert set(measured.sample) == {entry["file"] for entry in record["languages"].values()}


def test_a_changed_sample_file_is_refused_naming_it(tmp_path):
    for name in ("SHA256SUMS", *(f"{lang}.txt" for lang in LANGUAGES)):
        (tmp_path / name).write_bytes((CODE_DIR / name).read_bytes())
    (tmp_path / "c.txt").write_text("int main(void) { return 0; }\n", encoding="utf-8")
    with pytest.raises(BenchmarkError, match=r"c\.txt: SHA-256 [0-9a-f]{64} is not the one in"):
        read_sample(tmp_path)
    assert read_sample(tmp_path / "absent") == {}  # no sample, no figures: the run goes on


def test_the_block_survives_results_json_and_code_csv(measured, tmp_path):
    base = load_results(DATA / "results_fixture.json")
    assert not base.code  # a file from before the code sample reads as having none
    path = tmp_path / "results.json"
    save_results(dataclasses.replace(base, code=measured), path)
    again = load_results(path)
    assert again.code == measured and again.code.languages == list(LANGUAGES)
    lines = code_csv(again.code.entries).splitlines()
    assert lines[0] == ",".join(CODE_FIELDS) and len(lines) == 1 + len(measured.entries)


@pytest.mark.parametrize("block, message", [
    ([], "code: expected an object with sample and entries, got list"),
    ({"sample": {}, "entries": [{"tokenizer": "t", "language": "c", "n_bytes": 1, "n_lines": 1}]},
     "code.entries[0]: expected the fields tokenizer, language, n_bytes, n_lines, n_tokens, got "),
    ({"sample": {}, "entries": [{"tokenizer": "t", "language": "c", "n_bytes": 1, "n_lines": 1, "n_tokens": 0}]},
     "code.entries[0]: n_tokens must be a count from 1"),
    ({"sample": {"c.txt": "not a digest"}, "entries": []}, "code.sample: expected file name -> SHA-256 hex"),
    ({"sample": {}, "entries": [{"tokenizer": "t", "language": "<b>C</b>", "n_bytes": 1, "n_lines": 1,
                                 "n_tokens": 1}]}, "code.entries[0]: language must be a lower-case name"),
])
def test_a_malformed_block_is_one_line_naming_it(block, message, measured, tmp_path):
    with pytest.raises(ValueError) as caught:
        CodeCosts.from_dict(block)
    assert str(caught.value).startswith(message) and "\n" not in str(caught.value)
    raw = json.loads((DATA / "results_fixture.json").read_text(encoding="utf-8"))
    (tmp_path / "bad.json").write_text(json.dumps({**raw, "code": block}), encoding="utf-8")
    with pytest.raises(BenchmarkError, match="malformed results, code"):
        load_results(tmp_path / "bad.json")


def test_a_pair_listed_twice_is_refused():
    entry = CodeCost("tiktoken/o200k_base", "c", 10, 2, 4)
    with pytest.raises(ValueError, match="listed twice"):
        CodeCosts({}, (entry, entry))


class _ByteCounter(Adapter):
    """A stand-in: one token per byte."""

    def __init__(self, tokenizer_id: str, family: str) -> None:
        self.id, self.family, self.vocab_size = tokenizer_id, family, 256

    def encode(self, text: str) -> list[int]:
        return list(text.encode("utf-8"))


def test_the_runs_step_leaves_out_the_tokenizers_it_trains():
    trained = _ByteCounter("bpe/balanced-1024", families_of_kind("trained")[0])
    users = _ByteCounter("file/mine", "a-users-file")
    costs = code_costs([trained, users])
    assert {e.tokenizer for e in costs.entries} == {"file/mine"}
    assert all(e.n_tokens == e.n_bytes and e.bytes_per_token == 1 for e in costs.entries)

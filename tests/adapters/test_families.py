"""The one table of tokenizers (benchmark/adapters/families.py): every family the registry can
produce is declared with what the report needs, every production tokenizer with its pinned file,
and "is this trained?" has one answer for families and ids alike."""

from __future__ import annotations

import argparse
import importlib

import pytest
from hypothesis import given
from hypothesis import strategies as st

from benchmark.adapters import PRETRAINED, candidate_ids, select_ids, trained_families
from benchmark.adapters.families import (
    FAMILIES,
    FAMILY_BY_NAME,
    MODULE_OF,
    PRETRAINED_TOKENIZERS,
    PRODUCTION_SELECTOR,
    VENDOR_VOCABULARIES,
    family_info,
    family_name,
    family_rank,
    is_production,
    is_trained,
    parse_trained_id,
    production_tokenizers,
    vendor_packages,
)
from benchmark.adapters.registry import pretrained_file
from benchmark.adapters.table import KINDS, PRODUCTION, TRAINED, TrainedId, parse_size
from benchmark.cli import argtypes
from benchmark.corpora.mixes import parse_mix
from benchmark.plumbing.errors import BenchmarkError
from benchmark.plumbing.pinned import pinned_versions


def test_every_family_has_what_the_report_needs():
    for family in FAMILIES:
        assert family.display_name.strip() and family.display_name != family.family or family.kind != PRODUCTION
        assert family.kind in KINDS and isinstance(family.order, int), family
        assert family.key == family.family
    orders = [f.order for f in FAMILIES]
    assert len(set(orders)) == len(orders), "two families share a place in report order"
    assert [f.kind for f in FAMILIES] == sorted((f.kind for f in FAMILIES), key=[PRODUCTION, TRAINED, "file"].index)


def test_every_family_the_registry_makes_is_in_the_table():
    custom = parse_mix("eng=9,*=1")
    for trained in trained_families() + trained_families((custom,)):
        assert family_info(trained.family) == trained and trained.kind == TRAINED, trained  # one type, one entry
        assert trained.family in FAMILY_BY_NAME or trained.mix is custom
    for tokenizer_id in PRETRAINED:
        assert PRETRAINED_TOKENIZERS[tokenizer_id].family.family in FAMILY_BY_NAME
        assert is_production(PRETRAINED_TOKENIZERS[tokenizer_id].family.family)


def test_a_custom_mix_sorts_after_the_built_in_ones_and_is_named():
    assert family_name("bpe-eng9-rest1") == "our BPE (mix eng9-rest1)"
    assert family_rank("bpe-parity") < family_rank("bpe-eng9-rest1") < family_rank("hf-bpe")
    assert family_rank("tiktoken") < family_rank("llama") < family_rank("bpe-balanced") < family_rank("file-hf")
    assert family_rank("made-up") > max(f.order for f in FAMILIES) and family_name("made-up") == "made-up"


def test_one_answer_to_is_this_trained():
    assert [f.family for f in FAMILIES if is_trained(f.family)] == [
        "bpe-balanced", "bpe-parity", "bpe-hangul-first", "bpe-english-heavy", "bpe-english-only", "bpe", "hf-bpe",
        "hf-parity", "sentencepiece-unigram", "hf-wordpiece"]
    assert is_trained("bpe-eng9-rest1") and not is_trained("file-bpe") and not is_trained("made-up")
    families = trained_families((parse_mix("balanced"), parse_mix("eng=9,*=1")))
    for tokenizer_id in candidate_ids((1024, 4096), (parse_mix("balanced"), parse_mix("eng=9,*=1"))):
        found = parse_trained_id(tokenizer_id)
        assert (found is not None) == (tokenizer_id not in PRETRAINED), tokenizer_id
        if found is not None:
            assert is_trained(found.family.family) and found.id == tokenizer_id
            assert parse_trained_id(tokenizer_id, families) == found  # the run's families read it alike


def test_a_trained_id_is_read_back_as_its_family_and_size():
    assert parse_trained_id("bpe/eng9-rest1-4096") == TrainedId(family_info("bpe-eng9-rest1"), 4096)
    assert parse_trained_id("hf/wordpiece-1024") == TrainedId(family_info("hf-wordpiece"), 1024)
    assert parse_trained_id("sentencepiece/unigram-8192").vocab_size == 8192
    assert parse_trained_id("bpe/parity-16384").family.family == "bpe-parity"
    assert parse_trained_id("bpe/4096").family.family == "bpe"  # results of runs before mixes
    not_trained = ["tiktoken/o200k_base", "file/bpe-4096", "hf/bpe-", "hf/bpe-4k", "bpe/-12", "llama/llama3",
                   # sizes whose digits are not ASCII, or that would not build the same id again
                   "hf/bpe-\u0664\u0660\u0669\u0666", "hf/bpe-\u00b2", "hf/bpe-04096", "hf/bpe-+4096", "hf/bpe-4_096",
                   "bpe/balanced-\uff14\uff10\uff19\uff16"]
    for tokenizer_id in not_trained:
        assert parse_trained_id(tokenizer_id) is None, tokenizer_id
    # Only the run's families are read when they are given: a mix the run does not train is no id of it.
    assert parse_trained_id("bpe/eng9-rest1-4096", trained_families((parse_mix("balanced"),))) is None


@given(st.text(max_size=12))
def test_a_size_is_ascii_digits_that_build_the_same_text_again(text):
    size = parse_size(text)
    assert (size is not None) == (text.isascii() and text.isdigit() and not text.startswith("0"))
    if size is not None:
        assert str(size) == text and parse_trained_id(f"hf/bpe-{text}").vocab_size == size
    else:
        assert parse_trained_id(f"hf/bpe-{text}") is None


@pytest.mark.parametrize("pattern, says", [
    ("bpe/balanced-8000", "the run trains sizes 1024,4096, not 8000; add it with --vocab-sizes 1024,4096,8000"),
    ("hf/bpe-\u0664\u0660\u0669\u0666", "ends in its vocabulary size in ASCII digits, e.g. hf/bpe-1024"),
    ("hf/bpe-\u00b2", "ends in its vocabulary size in ASCII digits"),
    ("hf/bpe-4k", "ends in its vocabulary size in ASCII digits"),
])
def test_a_trained_id_the_run_cannot_make_is_one_line_naming_the_fix(pattern, says):
    with pytest.raises(BenchmarkError) as raised:
        select_ids([pattern], [1024, 4096])
    assert says in str(raised.value) and "\n" not in str(raised.value)


@pytest.mark.parametrize("value", ["\u0664\u0660\u0669\u0666", "\u00b2", "4_096", "+4096", "04096", "4096.0"])
def test_vocab_sizes_take_ascii_digits_only(value):
    with pytest.raises(argparse.ArgumentTypeError, match="ASCII digits"):
        argtypes.vocab_sizes(value)
    assert argtypes.vocab_sizes("4096, 1024") == [1024, 4096]


@pytest.mark.parametrize("tokenizer_id", list(PRETRAINED))
def test_each_production_tokenizer_declares_its_id_family_and_pinned_file(tokenizer_id):
    spec = PRETRAINED_TOKENIZERS[tokenizer_id]
    assert tokenizer_id == f"{spec.family.family}/{spec.name}"
    module = importlib.import_module(MODULE_OF[tokenizer_id])
    assert spec in module.TOKENIZERS and spec.family is module.FAMILY
    assert pretrained_file(tokenizer_id) == spec.file
    assert len(spec.file.sha256) == 64 and spec.file.provenance


def test_every_package_a_file_is_read_from_is_pinned_in_pyproject():
    pins = pinned_versions()
    if not pins:
        pytest.skip("the suite is not installed: no metadata to read the pins from")
    for package in vendor_packages():
        assert package in pins, package


def test_production_selects_every_vendors_vocabulary_once():
    # A second engine of a vocabulary names the one whose ids it repeats; only that one is selected.
    twins = {i: spec.same_ids_as for i, spec in PRETRAINED_TOKENIZERS.items() if spec.same_ids_as}
    assert twins and all(PRETRAINED_TOKENIZERS[first].same_ids_as is None for first in twins.values())
    assert set(VENDOR_VOCABULARIES) == set(PRETRAINED) - set(twins)
    assert select_ids([PRODUCTION_SELECTOR], [1024]) == list(VENDOR_VOCABULARIES)
    both = select_ids([PRODUCTION_SELECTOR, "bpe/balanced-*"], [1024, 4096])
    assert both == ["bpe/balanced-1024", "bpe/balanced-4096", *VENDOR_VOCABULARIES]
    with pytest.raises(BenchmarkError, match="'production': every vendor's vocabulary"):
        select_ids(["productions"], [1024])


class _Row:
    def __init__(self, tokenizer: str) -> None:
        spec = PRETRAINED_TOKENIZERS[tokenizer]
        self.tokenizer, self.family, self.vocab_size, self.ok = tokenizer, spec.family.family, 0, True


def test_a_second_engine_is_shown_only_without_the_first():
    rows = [_Row(i) for i in PRETRAINED]
    assert sorted(production_tokenizers(rows)) == sorted(VENDOR_VOCABULARIES)
    alone = [_Row("bpe_openai/o200k_base"), _Row("tiktoken/cl100k_base"), _Row("llama/llama3")]
    assert production_tokenizers(alone) == ["tiktoken/cl100k_base", "bpe_openai/o200k_base", "llama/llama3"]

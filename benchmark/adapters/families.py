"""The one table of tokenizer families: the `family` column's values, how a report names them, and
in which order tables and legends list them.

Plain data, no imports: the report reads it as well as the registry.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Family:
    family: str  # the `family` column of a result row
    display_name: str  # how reports name it
    kind: str  # "production" (a vendor's fixed vocabulary), "trained" (here, at each size) or "file"


# In report order: the fixed vocabularies people compare against first, then the tokenizers trained
# here, then anything a user added from a file.
FAMILIES: tuple[Family, ...] = (
    Family("tiktoken", "tiktoken (OpenAI)", "production"),
    Family("bpe_openai", "bpe-openai (OpenAI ranks, Rust encoder)", "production"),
    Family("llama", "Meta Llama", "production"),
    Family("mistral", "Mistral", "production"),
    Family("qwen", "Qwen", "production"),
    Family("deepseek", "DeepSeek", "production"),
    Family("bpe-balanced", "our BPE (balanced)", "trained"),
    Family("bpe-parity", "our BPE (parity-aware)", "trained"),
    Family("bpe-hangul-first", "our BPE (Hangul first)", "trained"),
    Family("bpe-english-heavy", "our BPE (English-heavy)", "trained"),
    Family("bpe-english-only", "our BPE (English only)", "trained"),
    Family("bpe", "our byte-level BPE", "trained"),  # results of runs before training mixes
    Family("hf-bpe", "HF byte-level BPE", "trained"),
    Family("hf-parity", "HF parity-aware BPE", "trained"),
    Family("sentencepiece-unigram", "SentencePiece Unigram", "trained"),
    Family("hf-wordpiece", "HF WordPiece", "trained"),
    Family("file-bpe", "our BPE model file", "file"),
    Family("file-tiktoken", "tiktoken rank file", "file"),
    Family("file-sentencepiece", "SentencePiece model file", "file"),
    Family("file-hf", "HF tokenizer.json file", "file"),
)
FAMILY_BY_NAME: dict[str, Family] = {f.family: f for f in FAMILIES}


def family_rank(family: str) -> int:
    """Position in report order; our BPE in a custom mix comes after the built-in mixes, and a
    family this table does not know comes last."""
    names = [f.family for f in FAMILIES]
    if family in names:
        return names.index(family)
    if family.startswith("bpe-"):
        return names.index("bpe")
    return len(names)


def family_name(family: str) -> str:
    known = FAMILY_BY_NAME.get(family)
    if known:
        return known.display_name
    if family.startswith("bpe-"):  # a custom training mix
        return f"our BPE (mix {family.removeprefix('bpe-')})"
    return family


def is_trained_family(family: str) -> bool:
    known = FAMILY_BY_NAME.get(family)
    return known.kind == "trained" if known else family.startswith("bpe-")


def families_of_kind(kind: str) -> tuple[str, ...]:
    return tuple(f.family for f in FAMILIES if f.kind == kind)

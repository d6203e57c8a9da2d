"""Alibaba's Qwen vocabulary (Qwen 1 to 3 share it): `qwen/qwen`.

Qwen's rank file (`qwen.tiktoken`, 151,643 ranks; its 208 special tokens follow them) is not on
PyPI under Qwen's name. The same bytes ship twice: as `bpe_openai/data/voyage3_base.tiktoken.gz`
in bpe-openai (already a dependency, so this is the copy read) and as `resources/qwen.tiktoken` in
Alibaba's `dashscope` SDK. The bytes are tied to Qwen's own file only through records kept by
others of the vendor's Hugging Face file (Qwen/Qwen-72B's qwen.tiktoken has this SHA-256), not
checked against a repository of Alibaba's: the record says so.

Counted as Alibaba's own code counts (dashscope's QwenTokenizer, Qwen's tokenization_qwen.py):
the text NFC-normalised, then tiktoken with Qwen's pattern, special tokens not parsed (dashscope
parses them by default; the plain-text contract does not). dashscope also cuts texts over
100,000 characters at line breaks before encoding; a sentence is far below that.
"""

from __future__ import annotations

from benchmark.adapters.base import Adapter, Recipe
from benchmark.adapters.openai_tiktoken import RankVocabulary, vendor_rank_adapter
from benchmark.adapters.table import NFC, PRODUCTION, Family, pick_file, pretrained
from benchmark.bpe.openai_ranks import bpe_openai_file
from benchmark.plumbing.pinned import PinnedFile, read_pinned

FAMILY = Family("qwen", "Qwen", PRODUCTION, order=50, round_trip=NFC)
# dashscope/tokenizers/qwen_tokenizer.py, PAT_STR (a test checks it against the package's): Llama 3's
# pattern but for single digits.
QWEN_PATTERN = (
    r"(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}| ?[^\s\p{L}\p{N}]+[\r\n]*"
    r"|\s*[\r\n]+|\s+(?!\S)|\s+"
)
N_SPECIAL = 208  # <|endoftext|>, <|im_start|>, <|im_end|>, <|extra_0|>..<|extra_204|>
FILES: dict[str, PinnedFile] = {
    "qwen": bpe_openai_file(
        "data/voyage3_base.tiktoken.gz",
        "b2b1b8dfb5cc5f024bafc373121c6aba3f66f9a5a0269e243470a1de16a33186",  # decompressed; = dashscope's qwen.tiktoken
        "equal to the SHA-256 that records kept by others give for Qwen's Hugging Face file qwen.tiktoken "
        "(Qwen/Qwen-72B); not checked against a repository of Alibaba's",
    ),
}
TOKENIZERS = pretrained(FAMILY, FILES)


def vendor_file(name: str = "qwen") -> PinnedFile:
    return pick_file(FILES, name, "Qwen")


def rank_vocabulary(name: str = "qwen") -> RankVocabulary:
    from benchmark.bpe.openai_ranks import parse_rank_file

    file = vendor_file(name)
    ranks = parse_rank_file(read_pinned(file), source=file.file)
    return RankVocabulary(ranks=ranks, pattern=QWEN_PATTERN, n_vocab=len(ranks) + N_SPECIAL,
                          special_ids=f"{len(ranks)}-{len(ranks) + N_SPECIAL - 1}")


def load(name: str = "qwen") -> Adapter:
    """`qwen/qwen`: NFC, then tiktoken on Qwen's ranks and pattern."""
    return vendor_rank_adapter(rank_vocabulary(name), vendor_file(name), id=f"{FAMILY.family}/{name}",
                               family=FAMILY.family,
                               recipe=Recipe(f"{__name__}:load", (name,)), nfc=True)

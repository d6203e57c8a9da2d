"""`bpe_openai` (GitHub's Rust `bpe` crate behind a tiktoken-like API) on cl100k/o200k.

A second fast encoder of the same vocabularies, for the throughput table: its ids must equal
tiktoken's (the conformance test checks it), so only the speed differs.
`bpe_openai.get_encoding` works offline: the rank files ship inside the package.
"""

from __future__ import annotations

from benchmark.adapters.base import Adapter, Recipe, source_info
from benchmark.adapters.openai_tiktoken import FAMILY as TIKTOKEN, EncodingAdapter, vendor_file
from benchmark.adapters.table import PRODUCTION, Family, Pretrained
from benchmark.bpe.openai_ranks import ENCODINGS, rank_file

FAMILY = Family("bpe_openai", "bpe-openai (OpenAI ranks, Rust encoder)", PRODUCTION, order=20,
                byte_level=True)
TOKENIZERS = tuple(Pretrained(f"{FAMILY.family}/{name}", FAMILY, name, rank_file(name), same_ids_as=f"{TIKTOKEN.family}/{name}")
                   for name in ENCODINGS)
__all__ = ["BpeOpenAIAdapter", "load", "vendor_file"]  # vendor_file (tiktoken's files): the registry asks each module


class BpeOpenAIAdapter(EncodingAdapter):
    def __init__(self, name: str) -> None:
        import bpe_openai

        from benchmark.adapters.openai_tiktoken import rank_file_fingerprint

        super().__init__(bpe_openai.get_encoding(name), id=f"{FAMILY.family}/{name}", family=FAMILY.family,
                         fingerprint=rank_file_fingerprint(name),
                         library=f"bpe-openai {bpe_openai.__version__} (Rust bpe crate)",
                         pre_tokenizer="regex split (same pattern as tiktoken)",
                         model=f"byte-level BPE ranks ({name}, bundled in bpe_openai/data)")


def load(name: str) -> Adapter:
    adapter = BpeOpenAIAdapter(name)
    adapter.recipe = Recipe(f"{__name__}:load", (name,))
    adapter.source = source_info(vendor_file(name))
    return adapter

"""`bpe_openai` (GitHub's Rust `bpe` crate behind a tiktoken-like API) on cl100k/o200k.

A second fast encoder of the same vocabularies, for the throughput table: its ids must equal
tiktoken's (the conformance test checks it), so only the speed differs.
`bpe_openai.get_encoding` works offline: the rank files ship inside the package.
"""

from __future__ import annotations

from typing import Sequence

from benchmark.adapters.base import Adapter, readable_bytes

FAMILY = "bpe_openai"
NAMES = ("cl100k_base", "o200k_base")


class BpeOpenAIAdapter(Adapter):
    def __init__(self, name: str) -> None:
        import bpe_openai

        from benchmark.adapters.openai_tiktoken import rank_file_fingerprint

        self.encoding = bpe_openai.get_encoding(name)
        self.id = f"{FAMILY}/{name}"
        self.family = FAMILY
        self.vocab_size = self.encoding.n_vocab
        self.fingerprint = rank_file_fingerprint(name)
        self._encode = self.encoding.encode_ordinary
        self.settings = {
            "library": f"bpe-openai {bpe_openai.__version__} (Rust bpe crate)",
            "normalizer": None,
            "pre_tokenizer": "regex split (same pattern as tiktoken)",
            "model": f"byte-level BPE ranks ({name}, bundled in bpe_openai/data)",
            "decoder": "bytes, UTF-8 with replacement",
            "special_tokens": "not parsed (encode_ordinary)",
        }

    def encode(self, text: str) -> list[int]:
        return self._encode(text)

    def decode(self, ids: Sequence[int]) -> str:
        return self.encoding.decode(ids, errors="replace")

    def token_text(self, token_id: int) -> str:
        return readable_bytes(self.encoding.decode_single_token_bytes(token_id))


def load(name: str) -> Adapter:
    return BpeOpenAIAdapter(name)

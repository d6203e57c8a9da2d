"""Many texts encoded, each on its own, in one call into the library where it has one.

`encode_each(adapter, texts)` is `[adapter.encode(text) for text in texts]`, the same ids.
SentencePiece's list input (on one thread) loops in compiled code instead of one Python call per
text: 0.6 s instead of 1.0 s for Gemma 4's 261,884 entries. The others gain nothing from their
batch calls, so they are called text by text: tiktoken's `encode_ordinary_batch` is a thread pool
around `encode_ordinary`, and HF's `encode_batch` (and `encode_batch_fast`) took longer than a
loop of `encode` over DeepSeek V4's 126,527 entries on the one thread the adapters give HF. Only
an adapter class whose `encode` is known is batched (HF's: a loop of the library's own
`encode`, without the adapter's wrappers) (that exact class, not a subclass that may
encode otherwise). The vocabulary check encodes every entry alone this way.
"""

from __future__ import annotations

from typing import Sequence

from benchmark.adapters.base import Adapter


def encode_each(adapter: Adapter, texts: Sequence[str]) -> list[list[int]]:
    """The ids of each text, encoded on its own as `adapter.encode` encodes it."""
    batch = _batch_call(adapter)
    if batch is None:
        encode = adapter.encode
        return [encode(text) for text in texts]
    return batch(list(texts))


def _batch_call(adapter: Adapter):
    from benchmark.adapters.google_sentencepiece import SentencePieceAdapter

    from benchmark.adapters.hf_tokenizers import HFAdapter

    if type(adapter) is SentencePieceAdapter:
        encode = adapter.processor.EncodeAsIds
        return lambda texts: encode(texts, num_threads=1) if texts else []
    if type(adapter) is HFAdapter:
        return lambda texts: _hf_loop(adapter, texts)
    return None


def _hf_loop(adapter, texts: list[str]) -> list[list[int]]:
    """HF's `encode` called straight, without the adapter's two Python frames per text (its
    panic guard): on any error the texts are encoded again through `adapter.encode`, which
    turns a panic into the error the adapter raises."""
    encode = adapter.tokenizer.encode
    try:
        return [encode(text, add_special_tokens=False).ids for text in texts]
    except BaseException:
        return [adapter.encode(text) for text in texts]

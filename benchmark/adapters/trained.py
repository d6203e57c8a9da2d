"""The one cache-or-train loop of the libraries' trained families (SentencePiece Unigram, HF
WordPiece and BPE): per size, the cached model (or the reason the size was skipped) when the
cache holds it, else one training run, stored before it is used.

Our BPE does not use it: its sweep trains once to the largest size and cuts the merges for the
smaller ones (inhouse.py).
"""

from __future__ import annotations

from typing import Any, Callable, Sequence

from benchmark.adapters.base import Adapter, Skipped
from benchmark.adapters.cache import TrainingCache
from benchmark.adapters.table import Family


def load_or_train(
    family: Family,
    sizes: Sequence[int],
    cache: TrainingCache,
    *,
    texts_sha256: str,
    library_version: str,
    suffix: str,
    key_settings: Callable[[int], dict[str, Any]],
    train: Callable[[int], tuple[bytes, float] | str],
    build: Callable[[bytes, int, float], Adapter],
    settings: Callable[[int], dict[str, Any]],
) -> dict[int, Adapter | Skipped]:
    """{size: the tokenizer, or Skipped}. `key_settings(size)` is what decides the model besides
    the text and the library (the cache key); `train(size)` gives (model file bytes, seconds) or
    the reason the size cannot be trained; `build(model, size, train_seconds)` the adapter;
    `settings(size)` what a skipped size's row records."""
    out: dict[int, Adapter | Skipped] = {}
    for size in sizes:
        key = cache.key(family.family, texts_sha256=texts_sha256, settings=key_settings(size),
                        library_version=library_version)
        hit = cache.load(family.family, key, suffix)
        if hit is not None:
            path, meta = hit
            if "skipped" in meta:
                out[size] = Skipped(family.trained_id(size), family.family, size, meta["skipped"], settings(size))
                continue
            try:
                out[size] = build(path.read_bytes(), size, meta["train_seconds"])
                continue
            except Exception:  # noqa: BLE001 - a model its library cannot read (its digest edited to match): a miss
                pass  # trained again below, and the entry replaced
        result = train(size)
        if isinstance(result, str):
            cache.store(family.family, key, suffix, b"", {"skipped": result})
            out[size] = Skipped(family.trained_id(size), family.family, size, result, settings(size))
            continue
        model, seconds = result
        cache.store(family.family, key, suffix, model, {"train_seconds": seconds})
        out[size] = build(model, size, seconds)
    return out

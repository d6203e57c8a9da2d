"""Our `ByteLevelBPE` behind the adapter interface: trained sweeps and user model files.

The sweep trains once, to the largest size, and cuts the merge list for each smaller size (BPE
merges are a prefix); `train_seconds` of a size is the time that one run took to reach it.
"""

from __future__ import annotations

import functools
import tempfile
from pathlib import Path
from typing import Any, Sequence

from benchmark.adapters.base import Adapter, Recipe, readable_bytes, sha256_hex
from benchmark.adapters.cache import TrainingCache

FAMILY = "bpe"
MIN_FREQUENCY = 2
MODEL_SUFFIX = ".bpe.json"


class InhouseBPE(Adapter):
    def __init__(self, model, *, id: str, family: str = FAMILY, train_seconds: float | None = None,
                 extra_settings: dict[str, Any] | None = None) -> None:
        self.model = model
        self._recipe_kwargs = {"id": id, "family": family, "train_seconds": train_seconds,
                               "extra_settings": extra_settings}
        self.id = id
        self.family = family
        self.vocab_size = model.vocab_size
        self.fingerprint = model.fingerprint
        self.train_seconds = train_seconds
        self.has_cache = True  # the pre-token cache
        self.settings = {
            "library": "benchmark.bpe (pure Python)",
            "normalizer": None,
            "pre_tokenizer": f"regex split, pattern {model.pattern_name!r}",
            "pattern": model.pattern,
            "model": f"byte-level BPE, {len(model.merges)} merges over 256 byte tokens"
            if model.is_trained else f"byte-level BPE, tiktoken rank table ({model.name})",
            "decoder": "bytes, UTF-8 with replacement",
            "special_tokens": "not parsed (encode_ordinary)",
            **(extra_settings or {}),
        }

    @functools.cached_property
    def recipe(self) -> Recipe:  # made when a worker needs it: writing the model file takes a moment
        return Recipe(f"{__name__}:from_model_text", (_model_text(self.model),), self._recipe_kwargs)

    def encode(self, text: str) -> list[int]:
        return self.model.encode_ordinary(text)

    def decode(self, ids: Sequence[int]) -> str:
        return self.model.decode(ids)

    def token_text(self, token_id: int) -> str:
        return readable_bytes(self.model.token_bytes(token_id))

    def token_bytes(self, token_id: int) -> bytes | None:
        if token_id in self.model.special_tokens.values():
            return None
        return self.model.token_bytes(token_id)

    file_suffix = ".json"

    def save(self, path: Path) -> None:
        self.model.save(path)

    def reset_cache(self) -> None:
        self.model.clear_cache()

    def cache_restorer(self):
        """A function that puts every cache back as it is now (after a warm-up), so timing can
        repeat "warm-up, then unseen text" without encoding the warm-up again."""
        snapshot = self.model.cache_snapshot()
        return lambda: self.model.restore_cache(snapshot)


def _model_text(model) -> str:
    """The model's file, as `save` writes it."""
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / f"model{MODEL_SUFFIX}"
        model.save(path)
        return path.read_text(encoding="utf-8")


def from_model_text(text: str, **kwargs: Any) -> Adapter:
    """An `InhouseBPE` from a model file's text (a worker's copy, see `Recipe`)."""
    from benchmark.bpe import ByteLevelBPE

    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / f"model{MODEL_SUFFIX}"
        path.write_text(text, encoding="utf-8")
        return InhouseBPE(ByteLevelBPE.load(path), **kwargs)


def trained_id(pattern_name: str, vocab_size: int) -> str:
    return f"bpe/{pattern_name}-{vocab_size}"


def trainer_digest() -> str:
    """sha256 of the trainer's source (`benchmark/bpe/train.py`): our BPE has no library version,
    so any edit of the trainer is a new cache key (a hand-bumped version would be forgotten)."""
    from benchmark.bpe import train

    return sha256_hex(Path(train.__file__).read_bytes())


def cache_settings(pattern: str, vocab_size: int) -> dict[str, Any]:
    """What decides a trained model besides the text: the pattern *text* (a name can be edited
    under us), the trainer's source, min_frequency and the size."""
    from benchmark.bpe.patterns import resolve_pattern

    name, pattern_text = resolve_pattern(pattern)
    return {"pattern": name, "pattern_text": pattern_text, "min_frequency": MIN_FREQUENCY,
            "trainer_sha256": trainer_digest(), "vocab_size": vocab_size}


def train_sweep(texts: Sequence[str], texts_sha256: str, vocab_sizes: Sequence[int], cache: TrainingCache,
                *, pattern: str = "cl100k", progress: bool = False) -> dict[int, Adapter]:
    """Our BPE at every size, from the cache where possible, else from one training run."""
    from benchmark.bpe import ByteLevelBPE

    keys = {size: cache.key(FAMILY, texts_sha256=texts_sha256, settings=cache_settings(pattern, size),
                            library_version="benchmark.bpe") for size in vocab_sizes}
    found = {size: cache.load(FAMILY, key, MODEL_SUFFIX) for size, key in keys.items()}
    record = {"min_frequency": MIN_FREQUENCY,
              "train_seconds": "time the single training run to the largest size took to reach this size"}
    adapters: dict[int, Adapter] = {}
    if all(hit is not None for hit in found.values()):
        for size, (path, meta) in found.items():
            model = ByteLevelBPE.load(path)
            adapters[size] = InhouseBPE(model, id=trained_id(model.pattern_name, size),
                                        train_seconds=meta["train_seconds"], extra_settings=record)
        return adapters
    sweep = ByteLevelBPE.train_sweep(texts, vocab_sizes, pattern=pattern, min_frequency=MIN_FREQUENCY,
                                     progress=progress)
    for size, (model, seconds) in sweep.items():
        with tempfile.TemporaryDirectory() as tmp:
            path = Path(tmp) / f"model{MODEL_SUFFIX}"
            model.save(path)
            cache.store(FAMILY, keys[size], MODEL_SUFFIX, path.read_bytes(), {"train_seconds": seconds})
        adapters[size] = InhouseBPE(model, id=trained_id(model.pattern_name, size), train_seconds=seconds,
                                    extra_settings=record)
    return adapters


def from_file(path: Path) -> Adapter:
    """One of our model files (written by `ByteLevelBPE.save`)."""
    from benchmark.bpe import ByteLevelBPE

    model = ByteLevelBPE.load(path)
    return InhouseBPE(model, id=f"file/{Path(path).name}", family="file-bpe",
                      extra_settings={"source": str(path)})

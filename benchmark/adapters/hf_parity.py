"""HuggingFace's parity-aware BPE trainer (`tokenizers.trainers.ParityBpeTrainer`, 0.23.3) as a
trained family, `hf/parity-{size}`, beside our `bpe/parity-{size}`.

Set up as ours is, so that the two differ only in the trainer: the same pipeline as `hf/bpe`
(the cl100k regex, then GPT-2's byte map), one training iterator per language of the balanced
training text, that same text as the parity (dev) text, `min_frequency=2`, the base variant, no
global merges, and the languages passed in name order (HF breaks a tie between equally bad
languages by their position, ours by name: in name order the two rules agree).

Two things HF's trainer does not do that ours does, fixed after training:

- Its alphabet is the bytes seen in training (167 on the six dev files), not all 256: a byte it
  never saw would be dropped from the ids without a trace. The missing byte characters are added
  to the vocabulary after the merges, so every text round-trips and `vocab_size` counts 256
  bytes and the merges, as ours does.
- It trains one size per run. Its merges are a prefix (a test checks 768 against 1,792 merges), so
  one run to the largest size is cut at every size, as for our BPE; `train_seconds` of every size
  is that one run's time (HF does not say when it reached the smaller sizes).
"""

from __future__ import annotations

import json
import time
from typing import Mapping, Sequence

from benchmark.adapters.base import Adapter, Skipped, TrainingText
from benchmark.adapters.cache import TrainingCache
from benchmark.adapters.hf_tokenizers import MIN_FREQUENCY, MODEL_SUFFIX, HFAdapter, _import_tokenizers, _new_bpe
from benchmark.adapters.table import TRAINED, Family

HF_PARITY = Family("hf-parity", "HF parity-aware BPE", TRAINED, order=180, id_prefix="hf/parity-", byte_level=True,
                   slow_to_train=True)
FAMILIES = (HF_PARITY,)
FAMILY = HF_PARITY.family
N_BYTES = 256


def train_sizes(training: TrainingText, vocab_sizes: Sequence[int], cache: TrainingCache) -> dict[int, Adapter | Skipped]:
    """`hf/parity-{size}` at every size, from the cache where possible, else cut from one run."""
    tokenizers = _import_tokenizers()
    recipe = json.loads(_new_bpe().to_str())
    languages = sorted(training.lines)
    keys = {size: cache.key(FAMILY, texts_sha256=training.sha256,
                            settings={"recipe": recipe, "min_frequency": MIN_FREQUENCY, "vocab_size": size,
                                      "trainer": "ParityBpeTrainer(variant='base')", "languages": languages,
                                      "parity_text": "the training text"},
                            library_version=tokenizers.__version__) for size in vocab_sizes}
    settings = {"min_frequency": MIN_FREQUENCY, "trainer": "tokenizers.trainers.ParityBpeTrainer, variant base",
                "parity_text": "each language's training text (dev_iterators)", "languages": languages,
                "train_seconds": "time of the single training run to the largest size"}
    found = {size: cache.load(FAMILY, key, MODEL_SUFFIX) for size, key in keys.items()}
    if all(hit is not None for hit in found.values()):
        try:
            return {size: HFAdapter(path.read_text(encoding="utf-8"), id=HF_PARITY.trained_id(size), family=FAMILY,
                                    train_seconds=meta["train_seconds"], settings=settings)
                    for size, (path, meta) in found.items()}
        except Exception:  # noqa: BLE001 - a model HF cannot read (its digest edited to match): trained again
            pass
    too_small = [size for size in vocab_sizes if size < N_BYTES]
    if too_small:
        raise ValueError(f"hf/parity: vocab_size {min(too_small)} is below the {N_BYTES} byte tokens")
    trained, seconds = train(training.lines, max(vocab_sizes) - N_BYTES)
    out: dict[int, Adapter | Skipped] = {}
    for size in vocab_sizes:
        tokenizer_json = json.dumps(cut(trained, size - N_BYTES), ensure_ascii=False)
        cache.store(FAMILY, keys[size], MODEL_SUFFIX, tokenizer_json.encode("utf-8"), {"train_seconds": seconds})
        out[size] = HFAdapter(tokenizer_json, id=HF_PARITY.trained_id(size), family=FAMILY, train_seconds=seconds,
                              settings=settings)
    return out


def train(lines_by_language: Mapping[str, Sequence[str]], n_merges: int) -> tuple[dict, float]:
    """HF's parity-aware trainer on each language's lines, which are also its parity text (in name
    order); the trained tokenizer.json as a dict, and the seconds training took."""
    tokenizers = _import_tokenizers()
    languages = sorted(lines_by_language)
    tokenizer = _new_bpe()
    trainer = tokenizers.trainers.ParityBpeTrainer(num_merges=n_merges, min_frequency=MIN_FREQUENCY,
                                                   show_progress=False)
    started = time.perf_counter()
    trainer.train_from_iterator(tokenizer, [iter(lines_by_language[code]) for code in languages],
                                dev_iterators=[iter(lines_by_language[code]) for code in languages])
    seconds = time.perf_counter() - started
    return json.loads(tokenizer.to_str()), seconds


def cut(config: dict, n_merges: int) -> dict:
    """A trained BPE tokenizer.json kept to its first `n_merges` merges (their tokens and the
    alphabet), with every byte character it lacks added after them."""
    from tokenizers import pre_tokenizers

    model = config["model"]
    merges = model["merges"][:n_merges]
    made = {left + right for left, right in model["merges"]}
    vocab = model["vocab"]
    alphabet = [token for token in vocab if token not in made]
    # A merged token is two characters or more, so the alphabet is what no merge made.
    kept = {token: vocab[token] for token in alphabet}
    for left, right in merges:
        kept[left + right] = vocab[left + right]
    assert sorted(kept.values()) == list(range(len(kept))), "HF's ids are not alphabet then merges"
    for char in sorted(set(pre_tokenizers.ByteLevel.alphabet()) - set(kept)):
        kept[char] = len(kept)
    return {**config, "model": {**model, "vocab": kept, "merges": merges}}

"""Our `ByteLevelBPE` behind the adapter interface: trained sweeps, one per training mix
(benchmark/corpora/mixes.py), and user model files.

The sweep trains once, to the largest size, and cuts the merge list for each smaller size (BPE
merges are a prefix); `train_seconds` of a size is the time that one run took to reach it. A
mix's weights multiply each language's pre-token counts, which are counted once per language
and may be counted by the caller (in worker processes).
"""

from __future__ import annotations

import functools
import hashlib
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING, Any, Sequence

from benchmark.adapters.base import Adapter, Recipe, Skipped, readable_bytes
from benchmark.adapters.cache import TrainingCache
from benchmark.adapters.table import TRAINED, Family, file_id

if TYPE_CHECKING:
    from benchmark.adapters.base import TrainingText
    from benchmark.corpora.mixes import TrainingMix

FAMILY = "bpe"  # the cache's folder for every mix; also the family of results made before mixes
MIN_FREQUENCY = 2
MODEL_SUFFIX = ".bpe.json"

# Our BPE is one family per training mix: `bpe-<mix>`, ids `bpe/<mix>-<size>`. The built-in mixes
# (benchmark/corpora/mixes.py) in report order, with how a report names them; any other mix
# sorts after them, as "our BPE (mix <name>)".
BUILT_IN_MIX_NAMES = {"balanced": "balanced", "parity": "parity-aware", "hangul-first": "Hangul first",
                      "english-heavy": "English-heavy", "english-only": "English only"}
FIRST_ORDER = 110


def mix_family(mix_name: str) -> Family:
    """The family of our BPE trained in the mix `mix_name`."""
    names = list(BUILT_IN_MIX_NAMES)
    order = FIRST_ORDER + 10 * (names.index(mix_name) if mix_name in names else len(names))
    display = BUILT_IN_MIX_NAMES.get(mix_name, f"mix {mix_name}")
    return Family(f"{FAMILY}-{mix_name}", f"our BPE ({display})", TRAINED, order, id_prefix=f"{FAMILY}/{mix_name}-",
                  byte_level=True)


def family_of(family: str) -> Family | None:
    """The Family of a `family` column value that names our BPE in some mix (`bpe-eng9-rest1`)."""
    if family.startswith(f"{FAMILY}-") and len(family) > len(FAMILY) + 1:
        return mix_family(family[len(FAMILY) + 1:])
    return None


def family_of_prefix(id_prefix: str) -> Family | None:
    """The Family of our BPE in the mix whose ids start with `id_prefix` (`bpe/eng9-rest1-`), else None."""
    mix_name = id_prefix.removeprefix(f"{FAMILY}/").removesuffix("-")
    if not (id_prefix.startswith(f"{FAMILY}/") and id_prefix.endswith("-") and mix_name):
        return None
    return mix_family(mix_name)


FAMILIES = (*(mix_family(name) for name in BUILT_IN_MIX_NAMES),
            # results of runs made before training mixes: one family, ids bpe/<size>
            Family(FAMILY, "our byte-level BPE", TRAINED, FIRST_ORDER + 10 * len(BUILT_IN_MIX_NAMES),
                   id_prefix=f"{FAMILY}/", byte_level=True))


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
        self._twin = None  # tiktoken_twin, built on first use
        self.settings = {
            "library": "benchmark.bpe (pure Python)",
            "normalizer": None,
            "pre_tokenizer": f"regex split, pattern {model.pattern_name!r}",
            "pattern": model.pattern,
            "model": f"byte-level BPE, {len(model.merges)} merges over 256 byte tokens"
            if model.has_merges else f"byte-level BPE, tiktoken rank table ({model.name})",
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

    def tiktoken_twin(self) -> Adapter | None:
        """This model on tiktoken's engine (`ByteLevelBPE.to_tiktoken`, its own ranks and ids), for
        counting (measure/twins.py checks its ids against ours); None for a custom pattern, which
        tiktoken's regex engine may split otherwise."""
        if self.model.pattern_name == "custom":
            return None
        if self._twin is None:
            from benchmark.adapters.openai_tiktoken import EncodingAdapter

            self._twin = EncodingAdapter(self.model.to_tiktoken(), id=self.id, family=self.family,
                                         fingerprint=self.fingerprint, library="tiktoken",
                                         pre_tokenizer=self.settings["pre_tokenizer"], model=self.settings["model"])
            self._twin.vocab_size = self.vocab_size
        return self._twin

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


PATTERN = "cl100k"  # every mix is split with cl100k's pattern, as HF's byte-level BPE here


# The modules whose code decides a trained model's merges: any edit is a new cache key.
_TRAINER_MODULES = ("train", "pairs", "flat", "parity", "whole_chars", "sweeps", "tables", "patterns")


def trainer_digest() -> str:
    """sha256 of the trainer's sources: our BPE has no library version, so any edit of the code
    that decides the merges is a new cache key (a hand-bumped version would be forgotten)."""
    import importlib

    digest = hashlib.sha256()
    for name in _TRAINER_MODULES:
        digest.update(Path(importlib.import_module(f"benchmark.bpe.{name}").__file__).read_bytes())
    return digest.hexdigest()


def cache_settings(pattern: str, vocab_size: int, *, weights: dict[str, int] | None = None,
                   parity: bool = False, whole_characters: Sequence[str] = ()) -> dict[str, Any]:
    """What decides a trained model besides the text: the pattern *text* (a name can be edited
    under us), the trainer's sources, min_frequency, the size, and the mix (weights, parity)."""
    from benchmark.bpe.patterns import resolve_pattern

    name, pattern_text = resolve_pattern(pattern)
    settings = {"pattern": name, "pattern_text": pattern_text, "min_frequency": MIN_FREQUENCY,
                "trainer_sha256": trainer_digest(), "vocab_size": vocab_size, "weights": weights, "parity": parity}
    if whole_characters:
        settings["whole_characters"] = list(whole_characters)
    return settings


def count_pretokens_by_language(lines_by_language: dict[str, Sequence[str]]) -> dict[str, dict[bytes, int]]:
    """Each training language's pre-token counts under our pattern (one task per language)."""
    from benchmark.bpe import count_pretokens

    return {code: count_pretokens(lines, PATTERN) for code, lines in lines_by_language.items()}


def is_cached(training: TrainingText, mix: TrainingMix, vocab_sizes: Sequence[int], cache: TrainingCache) -> bool:
    """Whether every size of this mix is in the cache (then nothing needs counting or training)."""
    if mix.unavailable_reason(training.languages) is not None:
        return True  # nothing to train: the mix is skipped
    weights = mix.weights(training.lines)
    return all(cache.load(FAMILY, cache.key(FAMILY, texts_sha256=training.sha256,
                                            settings=cache_settings(PATTERN, size, weights=weights, parity=mix.parity,
                                                                    whole_characters=mix.whole_characters),
                                            library_version="benchmark.bpe"), MODEL_SUFFIX) is not None
               for size in vocab_sizes)


def train_mix_sweep(training: TrainingText, mix: TrainingMix, vocab_sizes: Sequence[int], cache: TrainingCache, *,
                    pretoken_counts_by_language: dict[str, dict[bytes, int]] | None = None,
                    progress: bool = False) -> dict[int, Adapter | Skipped]:
    """Our BPE trained in `mix` at every size, from the cache where possible, else from one
    training run (on `pretoken_counts_by_language` when the caller counted them already)."""
    from benchmark.bpe import ByteLevelBPE

    spec = mix_family(mix.name)
    family, trained_id = spec.family, spec.trained_id
    reason = mix.unavailable_reason(training.languages)
    if reason is not None:
        return {size: Skipped(trained_id(size), family, size, reason) for size in vocab_sizes}
    weights = mix.weights(training.lines)
    keys = {size: cache.key(FAMILY, texts_sha256=training.sha256,
                            settings=cache_settings(PATTERN, size, weights=weights, parity=mix.parity,
                                                                    whole_characters=mix.whole_characters),
                            library_version="benchmark.bpe") for size in vocab_sizes}
    found = {size: cache.load(FAMILY, key, MODEL_SUFFIX) for size, key in keys.items()}
    record = {"min_frequency": MIN_FREQUENCY, "training_mix": mix.name, "mix": mix.description,
              "weights": weights, "parity_aware": mix.parity,
              **({"whole_characters": list(mix.whole_characters)} if mix.whole_characters else {}),
              "train_seconds": "time the single training run to the largest size took to reach this size"}
    loaded = None
    if all(hit is not None for hit in found.values()):
        try:
            loaded = {size: (ByteLevelBPE.load(path), meta["train_seconds"]) for size, (path, meta) in found.items()}
        except (ValueError, OSError):  # ModelFileError: damaged with its digest edited to match; trained again
            loaded = None
    if loaded is not None:
        return {size: InhouseBPE(model, id=trained_id(size), family=family, train_seconds=seconds,
                                 extra_settings=_with_whole_characters(record, model, mix))
                for size, (model, seconds) in loaded.items()}
    counts = pretoken_counts_by_language or count_pretokens_by_language(training.lines)
    if mix.parity:
        sweep = ByteLevelBPE.train_parity_sweep(pretoken_counts_by_language=counts, vocab_sizes=vocab_sizes,
                                                pattern=PATTERN, min_frequency=MIN_FREQUENCY, progress=progress)
    else:
        sweep = ByteLevelBPE.train_sweep(pretoken_counts=_weighted_sum(counts, weights), vocab_sizes=vocab_sizes,
                                         pattern=PATTERN, min_frequency=MIN_FREQUENCY,
                                         whole_characters=mix.whole_characters, progress=progress)
    adapters: dict[int, Adapter] = {}
    for size, (model, seconds) in sweep.items():
        with tempfile.TemporaryDirectory() as tmp:
            path = Path(tmp) / f"model{MODEL_SUFFIX}"
            model.save(path)
            cache.store(FAMILY, keys[size], MODEL_SUFFIX, path.read_bytes(), {"train_seconds": seconds})
        adapters[size] = InhouseBPE(model, id=trained_id(size), family=family, train_seconds=seconds,
                                    extra_settings=_with_whole_characters(record, model, mix))
    return adapters


def _with_whole_characters(record: dict[str, Any], model, mix: TrainingMix) -> dict[str, Any]:
    """The record, plus how many entries are one whole character of the mix's scripts (the
    syllables of `hangul-first`: how much of the vocabulary they take at this size)."""
    if not mix.whole_characters:
        return record
    from benchmark.bpe.whole_chars import script_pattern

    is_one = script_pattern(mix.whole_characters).fullmatch
    n_entries = 0
    for token_id in range(256, 256 + len(model.merges)):
        text = model.token_bytes(token_id).decode("utf-8", "replace")
        n_entries += len(text) == 1 and is_one(text) is not None
    return {**record, "whole_character_entries": n_entries}


def _weighted_sum(counts: dict[str, dict[bytes, int]], weights: dict[str, int]) -> dict[bytes, int]:
    """The mix's pre-token counts: each language's counts times its weight, added up."""
    added: dict[bytes, int] = {}
    for code, table in counts.items():
        weight = weights.get(code, 0)
        if weight:
            for data, n in table.items():
                added[data] = added.get(data, 0) + weight * n
    return added


def from_file(path: Path) -> Adapter:
    """One of our model files (written by `ByteLevelBPE.save`)."""
    from benchmark.bpe import ByteLevelBPE

    model = ByteLevelBPE.load(path)
    return InhouseBPE(model, id=file_id(path), family="file-bpe",
                      extra_settings={"source": str(path)})

"""The registry: every tokenizer the benchmark knows, by id, as a factory.

- Pretrained tokenizers are zero-argument factories (tiktoken's registry habit), one per
  production tokenizer of the table (families.py): `tiktoken/cl100k_base`, `tiktoken/o200k_base`,
  `bpe_openai/*`, then the other vendors' vocabularies, each read pinned (benchmark/plumbing/pinned.py):
  `llama/llama3`, `llama/llama4`, `mistral/tekken`, `mistral/sp-v1`, `mistral/sp-v7`, `qwen/qwen`,
  `deepseek/v4`, ...
- Trained families learn from the training text at every size of the sweep: our BPE in each
  training mix (`bpe/balanced-{size}`, `bpe/parity-{size}`, ...; benchmark/corpora/mixes.py),
  `sentencepiece/unigram-{size}`, `hf/wordpiece-{size}`, `hf/bpe-{size}`, `hf/parity-{size}`
  (HF's parity-aware trainer, hf_parity.py).
- A user's file (`--tokenizer-file`) has the id `file/<file name>` (see user_files.py).

Library modules are imported inside the factories, so `import benchmark.adapters` stays light.
"""

from __future__ import annotations

import fnmatch
import importlib
from dataclasses import dataclass
from typing import Callable, Sequence

from benchmark.adapters.base import Adapter, Failed, NotBuilt, Skipped, TrainingText
from benchmark.adapters.cache import TrainingCache
from benchmark.adapters.families import (MODULE_OF, PRETRAINED_TOKENIZERS, PRODUCTION_SELECTOR, VENDOR_VOCABULARIES,
                                         is_trained_id, requested_size)
from benchmark.adapters.inhouse import mix_family
from benchmark.adapters.google_sentencepiece import UNIGRAM
from benchmark.adapters.hf_parity import HF_PARITY
from benchmark.adapters.hf_tokenizers import BPE_FAMILY, WORDPIECE_FAMILY
from benchmark.corpora.mixes import BUILT_IN, TrainingMix
from benchmark.plumbing.errors import BenchmarkError, one_line
from benchmark.plumbing.pinned import PinnedFile

DEFAULT_VOCAB_SIZES = (1024, 2048, 4096, 8192, 16384)
__all__ = ["DEFAULT_VOCAB_SIZES", "PRETRAINED", "TrainedFamily", "bpe_family", "build_tokenizers", "candidate_ids",
           "is_trained_id", "pretrained_file", "requested_size", "run_train_task", "select_ids", "train_tasks",
           "trained_families"]


def _pretrained(module: str, name: str) -> Callable[[], Adapter]:
    def factory() -> Adapter:
        return importlib.import_module(module).load(name)
    return factory


PRETRAINED: dict[str, Callable[[], Adapter]] = {
    tokenizer_id: _pretrained(MODULE_OF[tokenizer_id], spec.name)
    for tokenizer_id, spec in PRETRAINED_TOKENIZERS.items()
}


def pretrained_file(tokenizer_id: str) -> PinnedFile:
    """The file a pretrained tokenizer is read from; nothing is read, no vendor package imported.
    Asked of the module, so a test that swaps a module's pinned file sees it here too."""
    spec = PRETRAINED_TOKENIZERS[tokenizer_id]
    return importlib.import_module(MODULE_OF[tokenizer_id]).vendor_file(spec.name)


def _train_bpe(mix: TrainingMix):
    def train(training: TrainingText, sizes: Sequence[int], cache: TrainingCache, pretoken_counts=None):
        from benchmark.adapters import inhouse

        return inhouse.train_mix_sweep(training, mix, sizes, cache, pretoken_counts_by_language=pretoken_counts)
    return train


def _train_sentencepiece(training: TrainingText, sizes: Sequence[int], cache: TrainingCache, pretoken_counts=None):
    from benchmark.adapters import google_sentencepiece

    return google_sentencepiece.train_sizes(training.texts, training.sha256, sizes, cache)


def _train_hf(family: str):
    def train(training: TrainingText, sizes: Sequence[int], cache: TrainingCache, pretoken_counts=None):
        from benchmark.adapters import hf_tokenizers

        return hf_tokenizers.train_sizes(family, training.texts, training.sha256, sizes, cache)
    return train


def _train_hf_parity(training: TrainingText, sizes: Sequence[int], cache: TrainingCache, pretoken_counts=None):
    from benchmark.adapters import hf_parity

    return hf_parity.train_sizes(training, sizes, cache)


@dataclass(frozen=True)
class TrainedFamily:
    family: str  # the `family` column
    id_prefix: str  # the id is id_prefix + str(vocab_size)
    train: Callable[..., dict[int, Adapter | Skipped]]  # (training, sizes, cache, pretoken_counts=None)
    mix: TrainingMix | None = None  # our BPE's training mix

    def sizes_in(self, ids: Sequence[str]) -> list[int]:
        """The sizes of this family that `ids` ask for (`bpe/parity-4096` -> 4096)."""
        return [int(i[len(self.id_prefix):]) for i in ids
                if i.startswith(self.id_prefix) and i[len(self.id_prefix):].isdigit()]


def trained_families(mixes: Sequence[TrainingMix] = tuple(BUILT_IN.values())) -> tuple[TrainedFamily, ...]:
    """Our BPE in each training mix, then the libraries' trainers (the order training runs in)."""
    ours = tuple(TrainedFamily(bpe_family(mix), mix_family(mix.name).id_prefix, _train_bpe(mix), mix) for mix in mixes)
    return ours + (
        TrainedFamily(UNIGRAM.family, UNIGRAM.id_prefix, _train_sentencepiece),
        TrainedFamily(WORDPIECE_FAMILY.family, WORDPIECE_FAMILY.id_prefix, _train_hf(WORDPIECE_FAMILY.family)),
        TrainedFamily(BPE_FAMILY.family, BPE_FAMILY.id_prefix, _train_hf(BPE_FAMILY.family)),
        TrainedFamily(HF_PARITY.family, HF_PARITY.id_prefix, _train_hf_parity),
    )


def bpe_family(mix: TrainingMix) -> str:
    """The `family` column of our BPE trained in `mix`: `bpe-balanced`, `bpe-parity`, ..."""
    return mix_family(mix.name).family


def candidate_ids(vocab_sizes: Sequence[int] = DEFAULT_VOCAB_SIZES,
                  mixes: Sequence[TrainingMix] = tuple(BUILT_IN.values())) -> list[str]:
    """Every id a run with these sizes and mixes can measure, in report order."""
    ids = [f.id_prefix + str(size) for f in trained_families(mixes) for size in vocab_sizes]
    return ids + list(PRETRAINED)


def select_ids(patterns: Sequence[str] | None, vocab_sizes: Sequence[int], extra_ids: Sequence[str] = (),
               mixes: Sequence[TrainingMix] = tuple(BUILT_IN.values())) -> list[str]:
    """The ids matching `--tokenizers` (exact ids, shell patterns like `hf/*`, or `production`: every
    vendor's vocabulary, once), in report order.

    `extra_ids` are the ids of the user's tokenizer files (`file/<name>`): asked for explicitly,
    they are included unless a pattern picks some of them (`--tokenizers 'file/*'` measures only them,
    `--tokenizers 'file/a.json'` only that one)."""
    ids = candidate_ids(vocab_sizes, mixes)
    extra = [i for i in dict.fromkeys(extra_ids) if i not in ids]
    if not patterns:
        return ids + extra
    selected = set()
    for pattern in patterns:
        # An id given as it is means that id alone, even when it reads as a pattern ('file/[ab].json').
        if pattern == PRODUCTION_SELECTOR:
            matches = list(VENDOR_VOCABULARIES)
        elif pattern in ids + extra:
            matches = [pattern]
        else:
            matches = [i for i in ids + extra if fnmatch.fnmatchcase(i, pattern)]
        if not matches:
            raise BenchmarkError(
                f"unknown tokenizer {pattern!r}; known with --vocab-sizes "
                f"{','.join(map(str, vocab_sizes))}: {', '.join(ids + extra)} (patterns like 'hf/*' work too, "
                f"and {PRODUCTION_SELECTOR!r}: every vendor's vocabulary)"
            )
        selected.update(matches)
    # The user's files are measured unless the patterns choose among them.
    chosen_files = [i for i in extra if i in selected]
    return [i for i in ids if i in selected] + (chosen_files or extra)


@dataclass(frozen=True)
class TrainTask:
    """Train one family at some sizes into the cache (plain data: it runs in a worker)."""

    family: str  # its `family` column (a worker finds the family by it: functions do not pickle)
    mix: TrainingMix | None
    sizes: tuple[int, ...]
    training: TrainingText
    cache: TrainingCache
    pretoken_counts: dict[str, dict[bytes, int]] | None = None  # our BPE's, per language, counted before


def run_train_task(task: TrainTask) -> str | None:
    """Train the task's family into its cache; None when done, else the one-line reason it failed
    (the family is then trained again, and fails again, where it is built: `build_tokenizers`)."""
    family = next(f for f in trained_families((task.mix,) if task.mix else ()) if f.family == task.family)
    try:
        family.train(task.training, list(task.sizes), task.cache, pretoken_counts=task.pretoken_counts)
    except Exception as exc:
        return one_line(exc)
    return None


def train_tasks(ids: Sequence[str], training: TrainingText, cache: TrainingCache,
                families: Sequence[TrainedFamily], pretoken_counts=None) -> list[TrainTask]:
    """One task per trained family that `ids` ask for; our BPE's take `pretoken_counts`."""
    tasks = []
    for family in families:
        sizes = tuple(family.sizes_in(ids))
        if sizes:
            tasks.append(TrainTask(family.family, family.mix, sizes, training, cache,
                                   pretoken_counts if family.mix else None))
    return tasks


def build_tokenizers(
    ids: Sequence[str],
    training: TrainingText | None,
    cache: TrainingCache,
    *,
    families: Sequence[TrainedFamily] | None = None,
    on_step: Callable[[str], None] | None = None,
) -> list[Adapter | NotBuilt]:
    """Train (or read from the cache) and load the tokenizers `ids`, in that order.

    A family whose training raises, or a pretrained tokenizer whose loading does, is `Failed` with
    the reason, and the others are built all the same. `on_step(label)` is called before each
    family is trained or loaded (for a progress bar).
    """
    built: dict[str, Adapter | NotBuilt] = {}
    for family in families if families is not None else trained_families():
        sizes = family.sizes_in(ids)
        if not sizes:
            continue
        if training is None:
            raise BenchmarkError("trained tokenizers need training text; none was given")
        if on_step:
            on_step(f"training (or loading from the cache) {family.family} at {', '.join(map(str, sizes))}")
        try:
            trained = family.train(training, sizes, cache)
        except Exception as exc:  # one family's failure must not cost the others
            trained = {size: Failed(family.id_prefix + str(size), family.family, size, one_line(exc))
                       for size in sizes}
        for size, adapter in trained.items():
            built[family.id_prefix + str(size)] = adapter
    for tokenizer_id in ids:
        if tokenizer_id in PRETRAINED:
            if on_step:
                on_step(f"loading {tokenizer_id}")
            try:
                built[tokenizer_id] = PRETRAINED[tokenizer_id]()
            except Exception as exc:
                built[tokenizer_id] = Failed(tokenizer_id, PRETRAINED_TOKENIZERS[tokenizer_id].family.family, 0,
                                             one_line(exc))
    return [built[i] for i in ids]

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

import dataclasses
import fnmatch
import importlib
from dataclasses import dataclass
from typing import Callable, Sequence

from benchmark.adapters.base import Adapter, Failed, NotBuilt, Skipped, TrainingText
from benchmark.adapters.cache import TrainingCache
from benchmark.adapters.families import (MODULE_OF, PRETRAINED_TOKENIZERS, PRODUCTION_SELECTOR, VENDOR_VOCABULARIES,
                                         parse_trained_id)
from benchmark.adapters.inhouse import mix_family
from benchmark.adapters.google_sentencepiece import UNIGRAM
from benchmark.adapters.hf_parity import HF_PARITY
from benchmark.adapters.hf_tokenizers import BPE_FAMILY, WORDPIECE_FAMILY
from benchmark.adapters.table import Family, TrainedId
from benchmark.corpora.mixes import BUILT_IN, TrainingMix
from benchmark.plumbing.errors import BenchmarkError, one_line
from benchmark.plumbing.pinned import PinnedFile

DEFAULT_VOCAB_SIZES = (1024, 2048, 4096, 8192, 16384)
__all__ = ["DEFAULT_VOCAB_SIZES", "PRETRAINED", "bpe_family", "build_tokenizers", "candidate_ids", "pretrained_file",
           "run_train_task", "select_ids", "train_family", "train_tasks", "trained_families", "trained_in"]


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


# The libraries' trained families, in the order training runs in (after our BPE's mixes).
LIBRARY_FAMILIES = (UNIGRAM, WORDPIECE_FAMILY, BPE_FAMILY, HF_PARITY)
_LIBRARY_TRAINERS = {UNIGRAM.family: _train_sentencepiece, WORDPIECE_FAMILY.family: _train_hf(WORDPIECE_FAMILY.family),
                     BPE_FAMILY.family: _train_hf(BPE_FAMILY.family), HF_PARITY.family: _train_hf_parity}


def trained_families(mixes: Sequence[TrainingMix] = tuple(BUILT_IN.values())) -> tuple[Family, ...]:
    """Our BPE in each training mix (each family holding its mix), then the libraries' trainers
    (the order training runs in)."""
    return tuple(dataclasses.replace(mix_family(mix.name), mix=mix) for mix in mixes) + LIBRARY_FAMILIES


def train_family(family: Family, training: TrainingText, sizes: Sequence[int], cache: TrainingCache,
                 pretoken_counts=None) -> dict[int, Adapter | Skipped]:
    """Train (or read from the cache) one trained family at `sizes`; our BPE on `pretoken_counts`
    when the caller counted them."""
    if family.mix is not None:
        return _train_bpe(family.mix)(training, sizes, cache, pretoken_counts)
    return _LIBRARY_TRAINERS[family.family](training, sizes, cache)


def trained_in(ids: Sequence[str], families: Sequence[Family]) -> dict[Family, list[int]]:
    """The sizes of each of `families` that `ids` ask for, in `families`' order (families none
    of the ids ask for left out)."""
    sizes: dict[Family, list[int]] = {family: [] for family in families}
    for tokenizer_id in ids:
        trained = parse_trained_id(tokenizer_id, families)
        if trained is not None:
            sizes[trained.family].append(trained.vocab_size)
    return {family: found for family, found in sizes.items() if found}


def bpe_family(mix: TrainingMix) -> str:
    """The `family` column of our BPE trained in `mix`: `bpe-balanced`, `bpe-parity`, ..."""
    return mix_family(mix.name).family


def candidate_ids(vocab_sizes: Sequence[int] = DEFAULT_VOCAB_SIZES,
                  mixes: Sequence[TrainingMix] = tuple(BUILT_IN.values())) -> list[str]:
    """Every id a run with these sizes and mixes can measure, in report order."""
    ids = [TrainedId(f, size).id for f in trained_families(mixes) for size in vocab_sizes]
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
            raise BenchmarkError(_unknown(pattern, ids + extra, vocab_sizes, trained_families(mixes)))
        selected.update(matches)
    # The user's files are measured unless the patterns choose among them.
    chosen_files = [i for i in extra if i in selected]
    return [i for i in ids if i in selected] + (chosen_files or extra)


def _unknown(pattern: str, known: Sequence[str], vocab_sizes: Sequence[int], families: Sequence[Family]) -> str:
    """The one line for a `--tokenizers` item that selects nothing: a trained id at a size the run
    does not train, a trained family's id whose size is not ASCII digits, or the known ids."""
    sizes = ",".join(map(str, vocab_sizes))
    trained = parse_trained_id(pattern, families)
    if trained is not None:
        return (f"unknown tokenizer {pattern!r}: the run trains sizes {sizes}, not {trained.vocab_size}; "
                f"add it with --vocab-sizes {sizes},{trained.vocab_size}")
    family = next((f for f in families if pattern.startswith(f.id_prefix)), None)
    if family is not None and not any(c in pattern for c in "*?["):
        return (f"unknown tokenizer {pattern!r}: a trained tokenizer's id ends in its vocabulary size in ASCII "
                f"digits, e.g. {family.trained_id((*vocab_sizes, *DEFAULT_VOCAB_SIZES)[0])}")
    return (f"unknown tokenizer {pattern!r}; known with --vocab-sizes {sizes}: {', '.join(known)} (patterns like "
            f"'hf/*' work too, and {PRODUCTION_SELECTOR!r}: every vendor's vocabulary)")


@dataclass(frozen=True)
class TrainTask:
    """Train one family at some sizes into the cache (plain data: it runs in a worker)."""

    family: Family  # with its mix, for our BPE
    sizes: tuple[int, ...]
    training: TrainingText
    cache: TrainingCache
    pretoken_counts: dict[str, dict[bytes, int]] | None = None  # our BPE's, per language, counted before


def run_train_task(task: TrainTask) -> str | None:
    """Train the task's family into its cache; None when done, else the one-line reason it failed
    (the family is then trained again, and fails again, where it is built: `build_tokenizers`)."""
    try:
        train_family(task.family, task.training, list(task.sizes), task.cache, pretoken_counts=task.pretoken_counts)
    except Exception as exc:
        return one_line(exc)
    return None


def train_tasks(ids: Sequence[str], training: TrainingText, cache: TrainingCache,
                families: Sequence[Family], pretoken_counts=None) -> list[TrainTask]:
    """One task per trained family that `ids` ask for, the slow ones first (`Family.slow_to_train`);
    our BPE's take `pretoken_counts`."""
    tasks = [TrainTask(family, tuple(sizes), training, cache, pretoken_counts if family.mix else None)
             for family, sizes in trained_in(ids, families).items()]
    return sorted(tasks, key=lambda task: not task.family.slow_to_train)  # stable: the rest in plan order


def build_tokenizers(
    ids: Sequence[str],
    training: TrainingText | None,
    cache: TrainingCache,
    *,
    families: Sequence[Family] | None = None,
    on_step: Callable[[str], None] | None = None,
) -> list[Adapter | NotBuilt]:
    """Train (or read from the cache) and load the tokenizers `ids`, in that order.

    A family whose training raises, or a pretrained tokenizer whose loading does, is `Failed` with
    the reason, and the others are built all the same. `on_step(label)` is called before each
    family is trained or loaded (for a progress bar).
    """
    built: dict[str, Adapter | NotBuilt] = {}
    for family, sizes in trained_in(ids, families if families is not None else trained_families()).items():
        if training is None:
            raise BenchmarkError("trained tokenizers need training text; none was given")
        if on_step:
            on_step(f"training (or loading from the cache) {family.family} at {', '.join(map(str, sizes))}")
        try:
            trained = train_family(family, training, sizes, cache)
        except Exception as exc:  # one family's failure must not cost the others
            trained = {size: Failed(family.trained_id(size), family.family, size, one_line(exc)) for size in sizes}
        for size, adapter in trained.items():
            built[family.trained_id(size)] = adapter
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

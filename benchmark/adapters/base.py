"""The small interface every tokenizer is measured through.

The contract is plain text: `encode` takes a sentence and returns ids with no BOS/EOS, no
special-token parsing and no truncation, so every library is counted the same way. `decode`
returns text (lossy where the tokenizer normalises: that is what `roundtrip_rate` measures).
`encode_with_spans` gives the same ids and where each token lies in the sentence's UTF-8 bytes,
which the whole-word figures align with the words (benchmark.words.segmenters).

Each adapter records `settings` in the HF style of named stages (normalizer, pre_tokenizer,
model, decoder) so a reader of results.json can see *why* two tokenizers count differently.
"""

from __future__ import annotations

import functools
import hashlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Mapping, Sequence

from benchmark.adapters.cache import text_digest
from benchmark.plumbing.errors import BenchmarkError

if TYPE_CHECKING:
    from benchmark.plumbing.pinned import PinnedFile
    from benchmark.results.record import SourceInfo


@dataclass(frozen=True)
class NotBuilt:
    """A tokenizer the run has no adapter for: `Skipped` (it cannot exist at this size) or
    `Failed` (it raised while trained or loaded). Its rows carry `status` and no figures."""

    id: str
    family: str
    vocab_size: int
    reason: str
    settings: dict[str, Any] = field(default_factory=dict)

    @property
    def status(self) -> str:
        raise NotImplementedError


@dataclass(frozen=True)
class Skipped(NotBuilt):
    """A tokenizer that cannot exist at this size (e.g. vocabulary below its alphabet)."""

    @property
    def status(self) -> str:
        return f"skipped: {self.reason}"


@dataclass(frozen=True)
class Failed(NotBuilt):
    """A tokenizer that raised while it was trained or loaded: the run goes on without it."""

    @property
    def status(self) -> str:
        return f"failed: {self.reason}"


@dataclass(frozen=True)
class Recipe:
    """How to build an adapter again in another process (a worker, a Dask cluster): call
    `builder` ("module:function") with `args` and `kwargs`. Plain data, so that it pickles: a
    model travels as its file's bytes, a vendor's vocabulary as its name."""

    builder: str
    args: tuple = ()
    kwargs: dict = field(default_factory=dict)

    @property
    def key(self) -> str:
        """Equal for two copies of one recipe (a worker's cache of what it built is keyed by it)."""
        import pickle

        return hashlib.sha256(pickle.dumps((self.builder, self.args, self.kwargs))).hexdigest()

    def build(self) -> Adapter:
        import importlib

        module, _, name = self.builder.partition(":")
        return getattr(importlib.import_module(module), name)(*self.args, **self.kwargs)


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


class Adapter:
    """One tokenizer behind the common interface. Subclasses set the attributes in __init__."""

    id: str  # used everywhere: "bpe/balanced-4096", "tiktoken/o200k_base", ...
    family: str  # "bpe", "tiktoken", "bpe_openai", "sentencepiece-unigram", "hf-wordpiece", ...
    vocab_size: int
    fingerprint: str  # sha256 hex of the model file / ranks, so a changed model is visible
    settings: dict[str, Any]
    train_seconds: float | None = None  # None for tokenizers we did not train
    unk_id: int | None = None  # the unknown token's id, where the model has one
    byte_fallback_ids: frozenset[int] = frozenset()  # SentencePiece-style <0xNN> pieces
    has_cache: bool = False  # True when encode keeps a cache that `reset_cache` empties
    reset_keeps_memory: bool = False  # True when refilling the emptied cache keeps memory (timed in a child)
    recipe: Recipe | None = None  # how a worker builds it again; None: it is counted in this process
    source: SourceInfo | None = None  # a production tokenizer's vocabulary file (package, version, hash)

    def encode(self, text: str) -> list[int]:
        raise NotImplementedError

    def decode(self, ids: Sequence[int]) -> str:
        raise NotImplementedError

    def encode_with_spans(self, text: str) -> tuple[list[int], Sequence[int], Sequence[int]]:
        """`encode(text)`, and the UTF-8 byte span [start, end) of `text` each token stands for:
        (ids, starts, ends). By default from each token's bytes, laid end to end (byte-level BPE,
        whose tokens concatenate to the text); libraries that normalise give their own offsets.

        >>> adapter.encode_with_spans("héllo")  # doctest: +SKIP
        ([71, 19010], [0, 1], [1, 6])
        """
        from itertools import accumulate

        ids = self.encode(text)
        ends = list(accumulate(map(self._byte_lengths.__getitem__, ids)))
        return ids, [0, *ends[:-1]] if ends else [], ends

    def token_bytes(self, token_id: int) -> bytes | None:
        """The bytes this token adds to decoded text; None for a token that adds none (a special
        or control token)."""
        raise NotImplementedError

    def entry_text(self, token_id: int) -> str | None:
        """The text this vocabulary entry is on its own, which encoding should turn into exactly
        this token; None for an entry that cannot stand alone (a special token, part of a
        character). Adapters whose pieces depend on context (word-initial or not) narrow it."""
        data = self.token_bytes(token_id)
        if not data:
            return None
        try:
            return data.decode("utf-8")
        except UnicodeDecodeError:
            return None

    entry_text_rule = "every entry whose bytes are whole UTF-8 (special tokens left out)"

    @functools.cached_property
    def _byte_lengths(self) -> list[int]:
        return [len(self.token_bytes(i) or b"") for i in range(self.vocab_size)]

    @functools.cached_property
    def partial_char_ids(self) -> frozenset[int]:
        """Tokens whose bytes are not valid UTF-8 on their own: part of a character (a byte-level
        fragment, a byte-fallback piece of a multi-byte character)."""
        out = []
        for i in range(self.vocab_size):
            data = self.token_bytes(i)
            if data:
                try:
                    data.decode("utf-8")
                except UnicodeDecodeError:
                    out.append(i)
        return frozenset(out)

    def token_strings(self, text: str) -> list[str]:
        """The text split at token boundaries, for a person to read: ["Once", " upon", ...].

        A token that is part of a character (a byte-level token splitting a UTF-8 sequence)
        is shown as its bytes in hex, e.g. "<e3 81>"."""
        return [self.token_text(i) for i in self.encode(text)]

    def token_text(self, token_id: int) -> str:
        raise NotImplementedError

    file_suffix: str = ""  # the usual ending of the file `save` writes, e.g. ".model"

    def save(self, path: Path) -> None:
        """Write the tokenizer's model file (a format `load_tokenizer_file` reads back)."""
        raise BenchmarkError(f"{self.id}: {type(self).__name__} has no model file format; it cannot be saved")

    def reset_cache(self) -> None:
        """Empty any encode cache, so timing sees text for the first time (no-op by default)."""

    def describe(self) -> dict[str, Any]:
        """The tokenizer's entry in the run record (a production tokenizer's with its models)."""
        from benchmark.adapters.models import models_of

        return {
            "family": self.family,
            "vocab_size": self.vocab_size,
            "fingerprint": self.fingerprint,
            "train_seconds": self.train_seconds,
            "settings": self.settings,
            "status": "ok",
            "source": self.source,
            "models": models_of(self.id) if self.source is not None else (),
        }

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.id!r} vocab_size={self.vocab_size}>"


def readable_bytes(data: bytes) -> str:
    """Bytes of one token as a person should see them: the text if it is whole UTF-8,
    otherwise hex (`<e3 81>`), because a replacement character would hide what the token is."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return "<" + " ".join(f"{b:02x}" for b in data) + ">"


def source_info(file: PinnedFile) -> SourceInfo:
    """The record's word on a pinned file: package, installed version, file, the hash it was
    checked against and its provenance (nothing is read)."""
    from benchmark.plumbing.pinned import installed_version
    from benchmark.results.record import SourceInfo

    return SourceInfo(package=file.package, version=installed_version(file.package), file=file.file,
                      sha256=file.sha256, provenance=file.provenance)


def sha256_hex(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()

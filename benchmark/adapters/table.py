"""What a module under benchmark/adapters/ declares about the tokenizers it gives: plain data, no
imports of its own beyond the pinned-file record, so every module can declare and the families
table (families.py) can collect.

- `Family`: a value of the `family` column, how a report names it, where it sorts, and what kind
  of tokenizer it is; a trained family also the prefix its ids start with (`id_prefix + size`).
- `Pretrained`: one production tokenizer: its id, its family, the name its module's `load(name)`
  takes, and the pinned file it is counted from.
"""

from __future__ import annotations

from dataclasses import dataclass

from benchmark.plumbing.pinned import PinnedFile

PRODUCTION = "production"  # a vendor's fixed vocabulary
TRAINED = "trained"  # trained here, at each size of the sweep
FILE = "file"  # a user's file (`--tokenizer-file`)
KINDS = (PRODUCTION, TRAINED, FILE)
# How the bytes of a vendor's file are tied to the vendor, when checked against its own repository.
VENDOR_GITHUB = "equal to the vendor's file in its GitHub repository (same git blob id)"


@dataclass(frozen=True)
class Family:
    """One family. `family` is also its stable key: a report derives a colour from the key and
    `order` (report order: production first, then trained, then users' files)."""

    family: str  # the `family` column of a result row: "llama", "bpe-balanced", ...
    display_name: str  # how reports name it: "Meta Llama"
    kind: str  # one of KINDS
    order: int  # report order, across every family (smaller first)
    id_prefix: str | None = None  # a trained family's ids are id_prefix + str(vocab_size)

    def __post_init__(self) -> None:
        assert self.kind in KINDS, self.kind
        assert (self.id_prefix is not None) == (self.kind == TRAINED), self

    @property
    def key(self) -> str:
        return self.family

    def trained_id(self, vocab_size: int) -> str:
        """`sentencepiece/unigram-4096`: the id of this family's tokenizer at a size."""
        return f"{self.id_prefix}{vocab_size}"

    def size_of(self, tokenizer_id: str) -> int | None:
        """The size a trained id of this family asks for (`bpe/parity-4096` -> 4096), else None."""
        if self.id_prefix is None or not tokenizer_id.startswith(self.id_prefix):
            return None
        rest = tokenizer_id[len(self.id_prefix):]
        return int(rest) if rest.isdigit() and rest.isascii() else None


@dataclass(frozen=True)
class Pretrained:
    """One production tokenizer: `<module>.load(name)` builds it from `file` (read pinned)."""

    id: str  # "llama/llama3"
    family: Family
    name: str  # what the module's `load` takes: "llama3"
    file: PinnedFile  # the vocabulary it is counted from
    note: str = ""  # a caveat every label of it carries, e.g. "only accurate for older models"
    same_ids_as: str | None = None  # another engine of that tokenizer's vocabulary: measured for speed, counted once


FILE_ID_PREFIX = "file/"


def file_id(path) -> str:
    """The id of a user's tokenizer file: `file/<file name>`."""
    from pathlib import Path

    return f"{FILE_ID_PREFIX}{Path(path).name}"


def pick_file(files: dict[str, PinnedFile], name: str, vendor: str) -> PinnedFile:
    """`files[name]`, or the one-line error naming the vendor's known vocabularies."""
    from benchmark.plumbing.errors import BenchmarkError

    try:
        return files[name]
    except KeyError:
        raise BenchmarkError(f"unknown {vendor} vocabulary {name!r}; known: {', '.join(files)}") from None


def pretrained(family: Family, files: dict[str, PinnedFile], notes: dict[str, str] | None = None,
               ) -> tuple[Pretrained, ...]:
    """A module's tokenizers, one per file: ids `<family>/<name>`."""
    return tuple(Pretrained(f"{family.family}/{name}", family, name, file, (notes or {}).get(name, ""))
                 for name, file in files.items())

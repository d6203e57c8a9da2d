"""What a module under benchmark/adapters/ declares about the tokenizers it gives: plain data, no
imports of its own beyond the pinned-file record, so every module can declare and the families
table (families.py) can collect.

- `Family`: a value of the `family` column, how a report names it, where it sorts, and what kind
  of tokenizer it is; a trained family also the prefix its ids start with (`id_prefix + size`)
  and, for our BPE, the training mix it learns from.
- `TrainedId`: one trained tokenizer, as data: its family and the vocabulary size asked for. Its
  id (`bpe/balanced-4096`) is built from them for display and keys, and read back by one
  parser (families.parse_trained_id), whose sizes are `parse_size`'s.
- `Pretrained`: one production tokenizer: its id, its family, the name its module's `load(name)`
  takes, and the pinned file it is counted from.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from benchmark.plumbing.pinned import PinnedFile

if TYPE_CHECKING:
    from benchmark.corpora.mixes import TrainingMix

PRODUCTION = "production"  # a vendor's fixed vocabulary
TRAINED = "trained"  # trained here, at each size of the sweep
FILE = "file"  # a user's file (`--tokenizer-file`)
KINDS = (PRODUCTION, TRAINED, FILE)
# How the bytes of a vendor's file are tied to the vendor, when checked against its own repository.
VENDOR_GITHUB = "equal to the vendor's file in its GitHub repository (same git blob id)"
# What decode(encode(text)) gives back: the text itself, or what the family's normaliser makes
# of it (`round_trips` says which texts pass; tests/adapters/test_conformance.py checks each family).
EXACT = "the text"
NFC = "the text in NFC"  # Qwen's encoder normalises first
NFKC = "the text in NFKC"  # "ﬁ" -> "fi"
NFKC_SPACES = "the text in NFKC, each run of white space one space, none at the ends"  # SentencePiece's nmt_nfkc
SPACES = "the text with the spaces between its words changed"  # WordPiece's decoder joins words with spaces
ROUND_TRIPS = (EXACT, NFC, NFKC, NFKC_SPACES, SPACES)


@dataclass(frozen=True)
class Family:
    """One family. `family` is also its stable key: a report derives a colour from the key and
    `order` (report order: production first, then trained, then users' files)."""

    family: str  # the `family` column of a result row: "llama", "bpe-balanced", ...
    display_name: str  # how reports name it: "Meta Llama"
    kind: str  # one of KINDS
    order: int  # report order, across every family (smaller first)
    id_prefix: str | None = None  # a trained family's ids are id_prefix + str(vocab_size)
    round_trip: str = EXACT  # what decode(encode(text)) gives back, one of ROUND_TRIPS
    byte_level: bool = False  # each token is its own bytes of the text: the tokens' bytes join to the text's
    # Our BPE's training mix; not part of what the family is (the `family` column names the mix).
    mix: TrainingMix | None = field(default=None, compare=False, repr=False)
    # Training takes many times the others' (HF's parity-aware trainer 13 s, SentencePiece Unigram
    # 6 s, our BPE's mixes under 1 s on the six dev files): handed to a worker first, so the run's
    # training does not end with one core busy alone.
    slow_to_train: bool = field(default=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        assert self.kind in KINDS, self.kind
        assert (self.id_prefix is not None) == (self.kind == TRAINED), self
        assert self.mix is None or self.kind == TRAINED, self
        assert not self.slow_to_train or self.kind == TRAINED, self
        assert self.round_trip in ROUND_TRIPS, self

    @property
    def key(self) -> str:
        return self.family

    def trained_id(self, vocab_size: int) -> str:
        """`sentencepiece/unigram-4096`: the id of this family's tokenizer at a size."""
        return TrainedId(self, vocab_size).id


@dataclass(frozen=True)
class TrainedId:
    """A trained tokenizer's identity: `TrainedId(UNIGRAM, 4096).id == "sentencepiece/unigram-4096"`."""

    family: Family  # a trained family
    vocab_size: int  # the size asked for (a model may stop below it: measure/run.py says so)

    def __post_init__(self) -> None:
        assert self.family.kind == TRAINED and type(self.vocab_size) is int and self.vocab_size > 0, self

    @property
    def id(self) -> str:
        return f"{self.family.id_prefix}{self.vocab_size}"


def round_trips(round_trip: str, text: str, decoded: str) -> bool:
    """Whether `decoded` is what a tokenizer whose `round_trip` is this gives back for `text`."""
    import unicodedata

    if round_trip == SPACES:
        return "".join(decoded.split()) == "".join(text.split())
    form = {NFC: "NFC", NFKC: "NFKC", NFKC_SPACES: "NFKC"}.get(round_trip)
    expected = unicodedata.normalize(form, text) if form else text
    return decoded == (" ".join(expected.split()) if round_trip == NFKC_SPACES else expected)


def parse_size(text: str) -> int | None:
    """A vocabulary size as written in an id or an option: ASCII digits, no sign, no leading
    zero (`"4096"` -> 4096); None for anything else (`"٤٠٩٦"`, `"²"`, `"4_096"`, `"04096"`), so
    that every size read back builds the same id again."""
    if not (text.isascii() and text.isdigit()) or text.startswith("0"):
        return None
    return int(text)


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

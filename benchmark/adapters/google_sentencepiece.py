"""SentencePiece Unigram, trained on our text at each size, and user `.model` files.

Training choices (recorded in each tokenizer's settings):
- `num_threads=1`: SentencePiece's result depends on the thread count (checked: 1 and 2 threads
  give different models), so one thread keeps the counts reproducible on any machine.
- `character_coverage=0.9995`, SentencePiece's recommendation for languages with large
  alphabets: the rarest 0.05% of characters are left out of the vocabulary...
- ...and `byte_fallback=True` spells those as UTF-8 byte pieces (`<0xE3>`) instead of `<unk>`,
  as Llama-style models do; `byte_fallback_rate` counts them. The 256 byte pieces take room in
  the vocabulary, which is why small sizes are skipped for Japanese and Korean character sets.
- `hard_vocab_limit=True`: a size that cannot hold the required characters is an error, which
  becomes a `skipped: ...` row rather than a model of a different size; so does a size above
  what the text supports. Any other training error is raised (a BenchmarkError), not skipped.
- The default `nmt_nfkc` normalisation and the dummy prefix space are kept (that is what a user
  of SentencePiece gets); both can change the text, which the round-trip column shows.
- No BOS/EOS/PAD: the plain-text contract. Every sentence is used (no sampling, no shuffling).
"""

from __future__ import annotations

import functools
import io
import re
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Sequence

from benchmark.adapters.base import Adapter, Recipe, Skipped, sha256_hex
from benchmark.adapters.cache import TrainingCache
from benchmark.adapters.table import NFKC_SPACES, TRAINED, Family, file_id
from benchmark.plumbing.errors import BenchmarkError

if TYPE_CHECKING:
    from benchmark.plumbing.pinned import PinnedFile

UNIGRAM = Family("sentencepiece-unigram", "SentencePiece Unigram", TRAINED, order=190,
                 id_prefix="sentencepiece/unigram-", round_trip=NFKC_SPACES, slow_to_train=True)
FAMILIES = (UNIGRAM,)
FAMILY = UNIGRAM.family
MODEL_SUFFIX = ".model"

TRAINING_OPTIONS = {
    "model_type": "unigram",
    "character_coverage": 0.9995,
    "byte_fallback": True,
    "normalization_rule_name": "nmt_nfkc",
    "add_dummy_prefix": True,
    "num_threads": 1,
    "hard_vocab_limit": True,
    "input_sentence_size": 0,
    "shuffle_input_sentence": False,
    "bos_id": -1,
    "eos_id": -1,
    "pad_id": -1,
    "unk_id": 0,
}


class SentencePieceAdapter(Adapter):
    def __init__(self, model_proto: bytes, *, id: str, family: str, train_seconds: float | None,
                 settings: dict) -> None:
        import sentencepiece as spm

        self.processor = spm.SentencePieceProcessor(model_proto=model_proto)
        self.recipe = Recipe(f"{__name__}:SentencePieceAdapter", (model_proto,),
                             {"id": id, "family": family, "train_seconds": train_seconds, "settings": settings})
        self.id = id
        self.family = family
        self.vocab_size = self.processor.get_piece_size()
        self.fingerprint = sha256_hex(model_proto)
        self.train_seconds = train_seconds
        self.unk_id = self.processor.unk_id()
        # EncodeAsIds takes no per-call options: no BOS/EOS unless set on the processor (never here).
        self._encode = self.processor.EncodeAsIds
        summary = model_summary(model_proto)  # one pass over the model's fields, not one per question
        self.dummy_prefix = summary.dummy_prefix
        self.settings = {
            "library": f"sentencepiece {spm.__version__}",
            "normalizer": summary.normalizer,
            "pre_tokenizer": "whitespace as ▁, " + ("dummy prefix" if self.dummy_prefix else "no dummy prefix"),
            "model": summary.model_type,
            "decoder": "pieces joined, ▁ -> space",
            "byte_fallback": summary.has_byte_pieces,
            **settings,
        }

    # The tables over every piece are built when first asked (a piece at a time through the library:
    # 0.3-0.9 s for Gemma 4's 262,144 on this VM), so counting alone (`cost --file`) builds none.
    @functools.cached_property
    def byte_fallback_ids(self) -> frozenset[int]:
        return frozenset(i for i in range(self.vocab_size) if self.processor.IsByte(i))

    @functools.cached_property
    def _pieces(self) -> list[str]:
        return [self.processor.IdToPiece(i) for i in range(self.vocab_size)]

    @functools.cached_property
    def _no_text_ids(self) -> frozenset[int]:
        processor = self.processor
        return frozenset(i for i in range(self.vocab_size)
                         if processor.IsControl(i) or processor.IsUnknown(i) or processor.IsUnused(i))

    @functools.cached_property
    def _marker_ids(self) -> frozenset[int]:
        """A piece that is only the space marker stands for a space, or for the dummy prefix (no text)."""
        return frozenset(i for i, piece in enumerate(self._pieces) if piece == "\u2581")

    @functools.cached_property
    def partial_char_ids(self) -> frozenset[int]:
        return frozenset(i for i in self.byte_fallback_ids if int(self._pieces[i][3:5], 16) >= 0x80)

    def encode(self, text: str) -> list[int]:
        return self._encode(text)

    def decode(self, ids: Sequence[int]) -> str:
        return self.processor.DecodeIds(list(ids))

    def encode_with_spans(self, text: str) -> tuple[list[int], Sequence[int], Sequence[int]]:
        """SentencePiece's own offsets: the UTF-8 bytes of the original text each piece came from.
        It gives no bytes to the dummy prefix, to byte pieces before a character's last, nor to
        pieces that normalisation added (NFKC's "ﬁ" -> "fi"): such a piece takes the bytes of the
        piece after it when that one starts at the same place, so the character's pieces all
        count for its word; the space marker alone keeps none (it belongs to no word)."""
        mapped = self.processor.encode(text, return_type="offset_mapping", return_bytes=True)
        ids = list(mapped["ids"])
        starts = [a for a, _ in mapped["offsets"]]
        ends = [b for _, b in mapped["offsets"]]
        next_start = next_end = -1
        for k in range(len(ids) - 1, -1, -1):
            if starts[k] < ends[k]:
                next_start, next_end = starts[k], ends[k]
            elif starts[k] == next_start and ids[k] not in self._marker_ids:
                ends[k] = next_end
        return ids, starts, ends

    def token_bytes(self, token_id: int) -> bytes | None:
        if token_id in self._no_text_ids:
            return None
        piece = self._pieces[token_id]
        if token_id in self.byte_fallback_ids:
            return bytes([int(piece[3:5], 16)])
        return piece.replace("\u2581", " ").encode("utf-8")

    @property
    def entry_text_rule(self) -> str:
        if not self.dummy_prefix:
            return "every piece, as its text (no dummy prefix); control, unknown and byte pieces left out"
        return "pieces that start a word (▁...), control, unknown and byte pieces left out"

    def entry_text(self, token_id: int) -> str | None:
        """A word-initial piece without its marker ("▁the" -> "the": encoding adds the dummy
        prefix); None for pieces inside a word, which encoding never starts a text with. A model
        without the dummy prefix (Gemma) starts a text with any piece: its text, ▁ as a space."""
        piece = self._pieces[token_id]
        if token_id in self._no_text_ids or token_id in self.byte_fallback_ids:
            return None
        if not self.dummy_prefix:
            return piece.replace("\u2581", " ")
        if not piece.startswith("\u2581") or piece == "\u2581":
            return None
        return piece[1:].replace("\u2581", " ")

    file_suffix = ".model"

    def save(self, path: Path) -> None:
        from benchmark.plumbing.fileio import atomic_write_bytes

        atomic_write_bytes(Path(path), self.processor.serialized_model_proto())

    def token_text(self, token_id: int) -> str:
        if token_id in self.byte_fallback_ids:
            return f"<{self.processor.IdToPiece(token_id)[3:5].lower()}>"  # "<0xE3>" -> "<e3>"
        return self.processor.IdToPiece(token_id).replace("\u2581", " ")


def adds_dummy_prefix(model_proto: bytes) -> bool:
    """Whether encoding puts a ▁ before the text (NormalizerSpec field 3, add_dummy_prefix; true
    when unset, as in sentencepiece_model.proto)."""
    return model_summary(model_proto).dummy_prefix


def vendor_sentencepiece(file: PinnedFile, *, id: str, family: str, vocabulary: str, vendor: str,
                         recipe: Recipe) -> Adapter:
    """A vendor's SentencePiece model from its pinned file, counted as the vendor's own encoder
    counts (`encode` with no BOS/EOS); the user-defined pieces it matches inside text are named."""
    from benchmark.adapters.base import source_info
    from benchmark.plumbing.pinned import read_pinned

    model_proto = read_pinned(file)
    matched = user_defined_pieces(model_proto)
    shown = ", ".join(repr(piece) if piece.isspace() else piece for piece in matched[:3])
    settings = {
        "vocabulary": vocabulary,
        "special_tokens": ("not added (no BOS/EOS); control pieces are never matched in text"
                           + (f"; its {len(matched)} user-defined pieces ({shown}, ...) are, "
                              f"as in {vendor}'s own encoder" if matched else "")),
    }
    adapter = SentencePieceAdapter(model_proto, id=id, family=family, train_seconds=None, settings=settings)
    adapter.recipe = recipe
    adapter.source = source_info(file)
    return adapter


_MODEL_TYPES = {1: "unigram", 2: "BPE", 3: "word", 4: "char"}  # sentencepiece_model.proto, TrainerSpec.ModelType
USER_DEFINED, BYTE = 4, 6  # sentencepiece_model.proto, ModelProto.SentencePiece.Type
# A piece's type is its field 3, a varint: tag 0x18, then the type (one byte). A piece holding neither
# byte pair cannot be of that type, so only the few that do are parsed (a C-level search first).
_TYPE_FIELD = {USER_DEFINED: b"\x18\x04", BYTE: b"\x18\x06"}


@dataclass(frozen=True)
class ModelSummary:
    """What the settings say of a SentencePiece model, read in one pass over its protobuf fields
    (straight from the wire format: sentencepiece's own reader needs the protobuf package)."""

    normalizer: str  # ModelProto field 3 = normalizer_spec, its field 1 = name
    model_type: str  # field 2 = trainer_spec, its field 3 = model_type (unigram if unset)
    dummy_prefix: bool  # normalizer_spec field 3 = add_dummy_prefix (true if unset)
    user_defined: tuple[str, ...]  # field 1 = pieces, each with field 1 = piece and field 3 = type
    has_byte_pieces: bool  # a piece of type BYTE (<0x00>...): byte fallback


def _piece_of_type(piece: bytes, wanted: int) -> bytes | None:
    """The piece's text if its type (field 3) is `wanted`, else None (field 1 is its text)."""
    fields = dict((n, v) for n, v in _protobuf_fields(piece) if n in (1, 3))
    return fields[1] if fields.get(3) == wanted and isinstance(fields.get(1), bytes) else None


_UNSET = object()


@functools.lru_cache(maxsize=2)  # a vendor's model is read by vendor_sentencepiece, then the adapter
def model_summary(model_proto: bytes) -> ModelSummary:
    # subtle: _protobuf_fields' walk, inlined: this loop runs once per piece (262,144 in Gemma 4), and a
    # piece is looked into only when it holds its type's tag and value (bytes.find, no copy).
    data, pos, end = model_proto, 0, len(model_proto)
    first = {2: _UNSET, 3: _UNSET}  # trainer_spec, normalizer_spec: the first field of each number
    user_defined, has_bytes = [], False
    try:
        while pos < end:
            tag = data[pos]
            tag, pos = (tag, pos + 1) if tag < 0x80 else _varint(data, pos)
            number, wire_type = tag >> 3, tag & 7
            if wire_type == 2:
                length = data[pos]
                length, pos = (length, pos + 1) if length < 0x80 else _varint(data, pos)
                stop = pos + length
                if number == 1:
                    if data.find(_TYPE_FIELD[USER_DEFINED], pos, stop) >= 0:
                        found = _piece_of_type(data[pos:stop], USER_DEFINED)
                        if found is not None:
                            user_defined.append(found.decode("utf-8", "replace"))
                    if not has_bytes and data.find(_TYPE_FIELD[BYTE], pos, stop) >= 0:
                        has_bytes = _piece_of_type(data[pos:stop], BYTE) is not None
                elif first.get(number, None) is _UNSET:
                    first[number] = data[pos:stop]
                pos = stop
            elif wire_type == 0:
                value, pos = _varint(data, pos)
                if first.get(number, None) is _UNSET:
                    first[number] = value
            elif wire_type in (1, 5):
                pos += 8 if wire_type == 1 else 4
                if first.get(number, None) is _UNSET:
                    first[number] = None
            else:
                break
    except IndexError:
        pass
    trainer, normalizer = first[2], first[3]
    name = _protobuf_first(normalizer, 1) if isinstance(normalizer, bytes) else None
    model_type = _protobuf_first(trainer, 3) if isinstance(trainer, bytes) else None
    dummy = _protobuf_first(normalizer, 3) if isinstance(normalizer, bytes) else None
    return ModelSummary(
        normalizer=name.decode("utf-8", "replace") if isinstance(name, bytes) and name else "unknown",
        model_type=_MODEL_TYPES.get(model_type if isinstance(model_type, int) else 1, "unknown"),
        dummy_prefix=dummy != 0, user_defined=tuple(user_defined), has_byte_pieces=has_bytes)


def user_defined_pieces(model_proto: bytes) -> tuple[str, ...]:
    """The model's USER_DEFINED pieces: sentencepiece matches them inside any text (no switch turns
    that off), so they are the exception to 'no special tokens'."""
    return model_summary(model_proto).user_defined


def _protobuf_first(data: bytes, wanted: int) -> bytes | int | None:
    """The first field number `wanted` of a protobuf message (bytes or an int), or None."""
    return next((value for number, value in _protobuf_fields(data) if number == wanted), None)


def _varint(data: bytes, pos: int) -> tuple[int, int]:
    """The varint at `pos` and the position after it (IndexError past the end)."""
    value = shift = 0
    while True:
        byte = data[pos]
        value |= (byte & 0x7F) << shift
        pos += 1
        shift += 7
        if byte < 0x80:
            return value, pos


def _protobuf_fields(data: bytes):
    """(field number, value) of a protobuf message, in order: bytes for length-delimited fields,
    ints for varints, None for fixed-width ones; a damaged message ends the sequence."""
    def varint(pos: int) -> tuple[int, int]:
        return _varint(data, pos)

    pos, end = 0, len(data)
    try:
        while pos < end:
            tag = data[pos]  # one byte in nearly every field: read inline, the loop runs per piece
            tag, pos = (tag, pos + 1) if tag < 0x80 else varint(pos)
            number, wire_type = tag >> 3, tag & 7
            if wire_type == 0:
                value, pos = varint(pos)
                yield number, value
            elif wire_type == 1:
                pos += 8
                yield number, None
            elif wire_type == 5:
                pos += 4
                yield number, None
            elif wire_type == 2:
                length = data[pos]
                length, pos = (length, pos + 1) if length < 0x80 else varint(pos)
                yield number, data[pos : pos + length]
                pos += length
            else:
                return
    except IndexError:
        return


def train_sizes(texts: Sequence[str], texts_sha256: str, vocab_sizes: Sequence[int], cache: TrainingCache,
                ) -> dict[int, Adapter | Skipped]:
    """One training run per size (SentencePiece cannot cut a Unigram model to a smaller size)."""
    import sentencepiece as spm

    from benchmark.adapters.trained import load_or_train

    settings = {"training": dict(TRAINING_OPTIONS)}
    return load_or_train(
        UNIGRAM, vocab_sizes, cache, texts_sha256=texts_sha256, library_version=spm.__version__, suffix=MODEL_SUFFIX,
        key_settings=lambda size: {**TRAINING_OPTIONS, "vocab_size": size},
        train=lambda size: _train(texts, size),
        build=lambda model, size, seconds: SentencePieceAdapter(model, id=UNIGRAM.trained_id(size), family=FAMILY,
                                                                train_seconds=seconds, settings=settings),
        settings=lambda size: settings)


def _train(texts: Sequence[str], vocab_size: int) -> tuple[bytes, float] | str:
    """(model bytes, seconds), or the reason this size cannot be trained."""
    import time

    import sentencepiece as spm

    model = io.BytesIO()
    started = time.perf_counter()
    try:
        spm.SentencePieceTrainer.train(
            sentence_iterator=iter(texts), model_writer=model, vocab_size=vocab_size,
            minloglevel=2, **TRAINING_OPTIONS,
        )
    except RuntimeError as exc:
        message = str(exc)
        needed = re.search(r"smaller than required_chars\. (\d+) vs (\d+)", message)
        if needed:
            return (f"vocab_size {vocab_size} is below the {needed.group(2)} pieces SentencePiece must "
                    f"hold (characters at coverage {TRAINING_OPTIONS['character_coverage']}, "
                    "256 byte-fallback pieces, <unk>)")
        too_big = re.search(r"Vocabulary size too high \(\d+\)\. Please set it to a value <= (\d+)", message)
        if too_big:
            return (f"vocab_size {vocab_size} is more than the training text supports "
                    f"(SentencePiece can make at most {too_big.group(1)} pieces from it)")
        # Anything else is a real failure, not a size this text cannot have: say so, don't skip.
        last_line = message.strip().splitlines()[-1][:200] if message.strip() else type(exc).__name__
        raise BenchmarkError(f"{UNIGRAM.trained_id(vocab_size)}: SentencePiece training failed ({last_line})") from None
    return model.getvalue(), time.perf_counter() - started


def from_file(path: Path) -> Adapter:
    """A user's SentencePiece `.model` file (any model type), encoded without BOS/EOS."""
    data = Path(path).read_bytes()
    return SentencePieceAdapter(data, id=file_id(path), family="file-sentencepiece",
                                train_seconds=None, settings={"source": str(path)})

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

import io
import re
from pathlib import Path
from typing import TYPE_CHECKING, Sequence

from benchmark.adapters.base import Adapter, Recipe, Skipped, sha256_hex
from benchmark.adapters.cache import TrainingCache
from benchmark.adapters.table import NFKC_SPACES, TRAINED, Family, file_id
from benchmark.plumbing.errors import BenchmarkError

if TYPE_CHECKING:
    from benchmark.plumbing.pinned import PinnedFile

UNIGRAM = Family("sentencepiece-unigram", "SentencePiece Unigram", TRAINED, order=190,
                 id_prefix="sentencepiece/unigram-", round_trip=NFKC_SPACES)
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
        self.byte_fallback_ids = frozenset(i for i in range(self.vocab_size) if self.processor.IsByte(i))
        # EncodeAsIds takes no per-call options: no BOS/EOS unless set on the processor (never here).
        self._encode = self.processor.EncodeAsIds
        processor = self.processor
        self._pieces = [processor.IdToPiece(i) for i in range(self.vocab_size)]
        self._no_text_ids = frozenset(i for i in range(self.vocab_size)
                                      if processor.IsControl(i) or processor.IsUnknown(i) or processor.IsUnused(i))
        # A piece that is only the space marker stands for a space, or for the dummy prefix (no text).
        self._marker_ids = frozenset(i for i, piece in enumerate(self._pieces) if piece == "\u2581")
        self.partial_char_ids = frozenset(i for i in self.byte_fallback_ids if int(self._pieces[i][3:5], 16) >= 0x80)
        self.dummy_prefix = adds_dummy_prefix(model_proto)
        self.settings = {
            "library": f"sentencepiece {spm.__version__}",
            "normalizer": _normalizer_of(model_proto),
            "pre_tokenizer": "whitespace as ▁, " + ("dummy prefix" if self.dummy_prefix else "no dummy prefix"),
            "model": _model_type_of(model_proto),
            "decoder": "pieces joined, ▁ -> space",
            "byte_fallback": bool(self.byte_fallback_ids),
            **settings,
        }

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
    spec = _protobuf_first(model_proto, 3)
    value = _protobuf_first(spec, 3) if isinstance(spec, bytes) else None
    return value != 0


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


def _normalizer_of(model_proto: bytes) -> str:
    """The normalisation rule name stored in the model (a user's model may use another).

    Read straight from the protobuf wire format (ModelProto field 3 = normalizer_spec, whose
    field 1 = name), because sentencepiece's own reader needs the protobuf package."""
    spec = _protobuf_first(model_proto, 3)
    name = _protobuf_first(spec, 1) if isinstance(spec, bytes) else None
    return name.decode("utf-8", "replace") if isinstance(name, bytes) and name else "unknown"


_MODEL_TYPES = {1: "unigram", 2: "BPE", 3: "word", 4: "char"}  # sentencepiece_model.proto, TrainerSpec.ModelType


def _model_type_of(model_proto: bytes) -> str:
    """The algorithm (ModelProto field 2 = trainer_spec, its field 3 = model_type; unigram if unset)."""
    spec = _protobuf_first(model_proto, 2)
    model_type = _protobuf_first(spec, 3) if isinstance(spec, bytes) else None
    return _MODEL_TYPES.get(model_type if isinstance(model_type, int) else 1, "unknown")


def user_defined_pieces(model_proto: bytes) -> tuple[str, ...]:
    """The model's USER_DEFINED pieces: sentencepiece matches them inside any text (no switch turns
    that off), so they are the exception to 'no special tokens'. ModelProto field 1 = pieces, each
    with field 1 = piece and field 3 = type (4 = USER_DEFINED)."""
    found = []
    for number, value in _protobuf_fields(model_proto):
        if number == 1 and isinstance(value, bytes):
            fields = dict((n, v) for n, v in _protobuf_fields(value) if n in (1, 3))
            if fields.get(3) == 4 and isinstance(fields.get(1), bytes):
                found.append(fields[1].decode("utf-8", "replace"))
    return tuple(found)


def _protobuf_first(data: bytes, wanted: int) -> bytes | int | None:
    """The first field number `wanted` of a protobuf message (bytes or an int), or None."""
    return next((value for number, value in _protobuf_fields(data) if number == wanted), None)


def _protobuf_fields(data: bytes):
    """(field number, value) of a protobuf message, in order: bytes for length-delimited fields,
    ints for varints, None for fixed-width ones; a damaged message ends the sequence."""
    def varint(pos: int) -> tuple[int, int]:
        value = shift = 0
        while True:
            byte = data[pos]
            value |= (byte & 0x7F) << shift
            pos += 1
            shift += 7
            if byte < 0x80:
                return value, pos

    pos = 0
    try:
        while pos < len(data):
            tag, pos = varint(pos)
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
                length, pos = varint(pos)
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

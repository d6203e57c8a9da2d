"""The SentencePiece model summary (adapters/google_sentencepiece.py: normaliser, model type, dummy
prefix, user-defined pieces, byte pieces), read in one inlined pass, equals a plain walk of the
protobuf fields on every vendor's model, and the adapter's per-piece tables, built when first
asked, equal what the library says piece by piece."""

from __future__ import annotations

import pytest

from benchmark.adapters import google_sentencepiece as sp
from benchmark.adapters.families import PRETRAINED_TOKENIZERS
from benchmark.adapters.registry import pretrained_file
from benchmark.plumbing.pinned import read_pinned

SENTENCEPIECE = [i for i, spec in PRETRAINED_TOKENIZERS.items()
                 if pretrained_file(i).path.endswith((".model", ".model.gz")) or ".model." in pretrained_file(i).path]


def plain_summary(data: bytes) -> sp.ModelSummary:
    """The same facts from `_protobuf_fields`, one question at a time."""
    fields = list(sp._protobuf_fields(data))
    pieces = [dict((n, v) for n, v in sp._protobuf_fields(value) if n in (1, 3))
              for number, value in fields if number == 1 and isinstance(value, bytes)]
    first = {number: next((v for n, v in fields if n == number), None) for number in (2, 3)}
    normalizer, trainer = first[3], first[2]
    name = sp._protobuf_first(normalizer, 1) if isinstance(normalizer, bytes) else None
    model_type = sp._protobuf_first(trainer, 3) if isinstance(trainer, bytes) else None
    return sp.ModelSummary(
        normalizer=name.decode("utf-8", "replace") if isinstance(name, bytes) and name else "unknown",
        model_type=sp._MODEL_TYPES.get(model_type if isinstance(model_type, int) else 1, "unknown"),
        dummy_prefix=(sp._protobuf_first(normalizer, 3) if isinstance(normalizer, bytes) else None) != 0,
        user_defined=tuple(p[1].decode("utf-8", "replace") for p in pieces
                           if p.get(3) == sp.USER_DEFINED and isinstance(p.get(1), bytes)),
        has_byte_pieces=any(p.get(3) == sp.BYTE for p in pieces))


def test_the_vendors_sentencepiece_models_are_all_here():
    assert {"mistral/sp-v1", "mistral/sp-v7", "google/gemma4", "xai/grok1"} <= set(SENTENCEPIECE)


@pytest.mark.parametrize("tokenizer_id", SENTENCEPIECE)
def test_the_summary_equals_a_plain_walk(tokenizer_id):
    data = read_pinned(pretrained_file(tokenizer_id))
    sp.model_summary.cache_clear()
    assert sp.model_summary(data) == plain_summary(data)


def test_damaged_and_odd_messages_read_as_a_plain_walk():
    piece = b"\x0a\x03abc\x15\x00\x00\x00\x00\x18\x04"  # a user-defined piece "abc"
    byte_piece = b"\x0a\x06<0x41>\x18\x06"
    normalizer = b"\x0a\x08nmt_nfkc\x18\x00"  # no dummy prefix
    cases = [
        b"", b"\x0a", b"\x0a\x7f" + piece,  # truncated
        b"\x0a" + bytes([len(piece)]) + piece + b"\x0a" + bytes([len(byte_piece)]) + byte_piece
        + b"\x1a" + bytes([len(normalizer)]) + normalizer,
        b"\x10\x05" + b"\x1a\x02\x18\x00",  # field 2 as a varint first: the first field 2 is not a message
        b"\x1d\x00\x00\x00\x00\x1a\x02\x18\x00",  # field 3 fixed-width first
        b"\x0a\x05\x0a\x01x\x18\x04\x0f",  # an unknown wire type ends the message
        b"\x0a\x84\x00" + b"\x0a\x02ab",  # a length written in two varint bytes
    ]
    for data in cases:
        sp.model_summary.cache_clear()
        assert sp.model_summary(data) == plain_summary(data), data


def test_the_tables_built_when_asked_equal_the_librarys_answers():
    adapter = sp.vendor_sentencepiece(pretrained_file("mistral/sp-v7"), id="mistral/sp-v7", family="mistral",
                                      vocabulary="v7", vendor="Mistral", recipe=None)
    assert "byte_fallback_ids" not in vars(adapter)  # nothing over every piece is built to load it
    processor = adapter.processor
    ids = range(processor.get_piece_size())
    assert adapter.byte_fallback_ids == {i for i in ids if processor.IsByte(i)}
    assert adapter.settings["byte_fallback"] is bool(adapter.byte_fallback_ids)
    assert adapter._pieces == [processor.IdToPiece(i) for i in ids]
    assert adapter.partial_char_ids == {i for i in adapter.byte_fallback_ids
                                        if int(processor.IdToPiece(i)[3:5], 16) >= 0x80}
    assert len(adapter.partial_char_ids) == 128

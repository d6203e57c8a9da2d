"""Vocabulary health: entries that plain text can never produce, and entries that are part of a
character.

- Unreachable: an entry whose own text, encoded on its own, does not give back that one token
  (tiktoken's o200k_base has 12: e.g. " I'" encodes as " I" and "'"). Such an entry is never
  produced from its own text; it may still be produced inside longer text, or never at all.
  Only entries that can stand alone are checked (`Adapter.entry_text`): for SentencePiece the
  word-initial pieces ("▁the"), for WordPiece the entries without "##".
- Partial-character entries: bytes that are not valid UTF-8 on their own (the 128 bytes >= 0x80
  and the fragments of multi-byte characters a byte-level BPE merged; byte-fallback pieces).
  They are reachable, inside text, but never text alone. The "several hundred" or "over a
  thousand" odd tokens people quote for cl100k and o200k are these (773 and 1,562), not
  unreachable ones (0 and 12).
"""

from __future__ import annotations

from dataclasses import dataclass

from benchmark.adapters.base import Adapter
from benchmark.measure.batches import encode_each

N_EXAMPLES = 12  # unreachable entries named per tokenizer (the first ones, in id order)


@dataclass(frozen=True)
class VocabularyHealth:
    n_partial_char_entries: int
    n_entries_checked: int  # entries that can stand alone (`Adapter.entry_text` is not None)
    n_unreachable: int  # of those, the ones whose text does not encode to exactly that token
    unreachable_examples: tuple[str, ...]  # 'id "text" -> ids', the first N_EXAMPLES
    entries_checked: str  # which entries were checked (`Adapter.entry_text_rule`)


def vocabulary_health(adapter: Adapter, *, n_examples: int = N_EXAMPLES) -> VocabularyHealth:
    """Encode every entry that can stand alone, on its own (in one library call where it has one,
    measure/batches.py), and count those that do not come back as exactly themselves."""
    entry_text = adapter.entry_text
    entries = [(token_id, text) for token_id in range(adapter.vocab_size) if (text := entry_text(token_id)) is not None]
    unreachable: list[str] = []
    n_unreachable = 0
    for (token_id, text), ids in zip(entries, encode_each(adapter, [text for _, text in entries])):
        if len(ids) != 1 or ids[0] != token_id:
            n_unreachable += 1
            if len(unreachable) < n_examples:
                unreachable.append(f"{token_id} {_quoted(text)} -> {' '.join(map(str, ids)) or 'nothing'}")
    return VocabularyHealth(n_partial_char_entries=len(adapter.partial_char_ids), n_entries_checked=len(entries),
                            n_unreachable=n_unreachable, unreachable_examples=tuple(unreachable),
                            entries_checked=adapter.entry_text_rule)


def _quoted(text: str) -> str:
    """The text in double quotes, what a reader cannot see escaped ("\\n//"); spaces stay."""
    return '"' + "".join(ch if ch.isprintable() else ch.encode("unicode_escape").decode("ascii") for ch in text) + '"'

"""The reference encoder (benchmark.bpe.reference) over many lines, each distinct pre-token replayed
once: `reference_encode` splits a text with the pattern and replays every merge over each piece
alone, so a piece met again gives the same ids (" the", "," and "." recur on every line).

Use `Replay(merges, pattern).encode(text)` where a test compares our encoder with the reference
on many lines of real text: it equals `reference_encode(text, merges, pattern)`, in less time."""

from __future__ import annotations

from benchmark.bpe.reference import reference_encode


class Replay:
    def __init__(self, merges, pattern) -> None:
        self.merges, self.pattern = merges, pattern
        self._ids: dict[str, list[int]] = {}

    def encode(self, text: str) -> list[int]:
        pieces = [text] if self.pattern is None else self.pattern.findall(text)
        ids: list[int] = []
        for piece in pieces:
            if piece not in self._ids:
                self._ids[piece] = reference_encode(piece, self.merges, None)
            ids.extend(self._ids[piece])
        return ids

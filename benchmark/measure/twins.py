"""Counting our BPE on tiktoken's engine, checked on the very text it counts.

Counting needs only a model's ids; our pure-Python encoder stays what `speed` and the throughput
columns time. `InhouseBPE.tiktoken_twin` runs the same model in tiktoken's Rust engine, on the
model's own ranks (tiktoken's byte rule, which gives our ids on the models our trainer makes:
docs/bpe.md). That is checked, not assumed: before the twin counts a language's lines, our own
encoder encodes `CHECK_LINES` of them, evenly spread, and every id must equal the twin's. A line
that differs fails that row (`TwinMismatch`, naming the line), and the row is never counted by the
other engine instead. Our own encoder still checks the vocabulary (an entry alone is where the
byte rule and ours part, if anywhere).

    >>> checked_lines(10, 4)
    [0, 2, 5, 7]
"""

from __future__ import annotations

from typing import Sequence

from benchmark.adapters.base import Adapter

CHECK_LINES = 64  # lines per language our encoder encodes to check the twin (a run's text: 6% of FLORES's 1,012)


class TwinMismatch(ValueError):
    """tiktoken's engine and our encoder gave different ids on a line: that row is not counted."""


def counting_twin(adapter: Adapter) -> Adapter | None:
    """The adapter to count `adapter` with in its place (tiktoken's engine on its ranks), or None:
    count with `adapter` itself."""
    twin = getattr(adapter, "tiktoken_twin", None)
    return twin() if twin is not None else None


def checked_lines(n_lines: int, n_checked: int = CHECK_LINES) -> list[int]:
    """`n_checked` line numbers evenly spread over `n_lines` (every line when there are fewer)."""
    if n_lines <= n_checked:
        return list(range(n_lines))
    return [k * n_lines // n_checked for k in range(n_checked)]


def check_twin(adapter: Adapter, twin: Adapter, texts: Sequence[str], *, n_checked: int = CHECK_LINES) -> int:
    """Raise TwinMismatch at the first checked line whose ids differ between `adapter` (our
    encoder) and `twin`; return the number of lines checked otherwise."""
    lines = checked_lines(len(texts), n_checked)
    for k in lines:
        ours, theirs = adapter.encode(texts[k]), twin.encode(texts[k])
        if ours != theirs:
            at = next((j for j, (a, b) in enumerate(zip(ours, theirs)) if a != b), min(len(ours), len(theirs)))
            raise TwinMismatch(f"tiktoken's engine on {adapter.id}'s ranks gave other ids than our encoder on line "
                               f"{k + 1} (token {at + 1}: {ours[at:at + 3]} against {theirs[at:at + 3]}); not counted")
    return len(lines)


def proven_twin(adapter: Adapter, texts: Sequence[str]) -> Adapter:
    """What counts `texts` for `adapter`: its twin once checked on them (TwinMismatch if it
    differs), or `adapter` itself when it has none."""
    twin = counting_twin(adapter)
    if twin is None:
        return adapter
    check_twin(adapter, twin, texts)
    return twin


def describe(tokenizer_ids: Sequence[str]) -> str | None:
    """The record's word on which rows the twin counted (None: none)."""
    if not tokenizer_ids:
        return None
    import tiktoken

    return (f"{len(tokenizer_ids)} of our BPE models (bpe/*) counted by tiktoken {tiktoken.__version__}'s engine on "
            f"each model's own ranks (ByteLevelBPE.to_tiktoken): before a language's lines are counted, our encoder "
            f"encodes {CHECK_LINES} of them, evenly spread, and every id must equal the engine's, or the row fails; "
            "the same check precedes the rare-entry count on the training text. Our encoder checks the "
            "vocabulary and is what the throughput columns time")

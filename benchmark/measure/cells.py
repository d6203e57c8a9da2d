"""Which cells (tokenizer x language) a run times, and how many of a cell's sentences.

A throughput is a rate: it needs enough timed text to be steady, not every cell of a run.

- Cells: every tokenizer we did not train (production vocabularies, users' files) on every timed
  language; a trained family at its largest size on every timed language, and at its other sizes
  on the reference language only. The throughput table and plot show each family at every size
  in the reference language, and every family in every language at its largest size; a family's
  sizes share one encoder, so they differ by their vocabulary alone. `--quick` times the largest
  size only. The record lists the cells (`settings.timing.timed_cells`).
- Sentences: a cell's budget is `CELL_BUDGET_SECONDS` of the encoder's own timed seconds over the
  floor of repeats (`--repeats`). Its sample (`plan.timed_texts`, at most 256 sentences evenly
  spread) is timed whole when it fits, else as many whole turns with the yardstick as fit (at least
  one): every other sentence of the sample for half of it, and so on, so the sentences stay
  spread over the text. The speed the budget is judged by is the warm-up's. An encoder as fast as
  tiktoken's is timed on the whole sample, so the tie margin (tiktoken against itself) is that of
  the whole sample.

    >>> spread_turns(list(range(256)), 1, turn=128)[:3]
    [0, 2, 4]
"""

from __future__ import annotations

from typing import Sequence

CELL_BUDGET_SECONDS = 0.06  # the encoder's timed seconds per cell, over the floor of repeats: tiktoken's sample fits
DESCRIPTION = (f"cells: every tokenizer not trained here on every timed language; a trained family at its largest "
               "size on every timed language and at its other sizes on the reference only (--quick: its largest "
               f"size only). A cell's budget is {CELL_BUDGET_SECONDS} s of the tokenizer's own timed seconds over "
               "the floor of repeats: its sample is timed whole if it fits at the warm-up's speed, else as many "
               "whole turns with the yardstick as fit, at least one, spread over the sample "
               "(settings.timing.timed_cells)")


def timed_cells(tokenizers: Sequence, languages: Sequence[str], reference: str, *, quick: bool,
                is_trained) -> dict[str, tuple[str, ...]]:
    """tokenizer id -> the timed languages (`languages`, in run order) its throughput is timed on;
    a tokenizer left out is not timed. `is_trained(family)` tells a trained family."""
    largest: dict[str, object] = {}
    for tokenizer in tokenizers:
        if is_trained(tokenizer.family):
            kept = largest.get(tokenizer.family)
            if kept is None or tokenizer.vocab_size > kept.vocab_size:
                largest[tokenizer.family] = tokenizer
    cells = {}
    for tokenizer in tokenizers:
        if not is_trained(tokenizer.family) or largest[tokenizer.family] is tokenizer:
            cells[tokenizer.id] = tuple(languages)
        elif not quick and reference in languages:
            cells[tokenizer.id] = (reference,)
    return cells


def turns_in_budget(n_texts: int, n_bytes: int, seconds_per_byte: float | None, *, repeats: int, turn: int,
                    budget_seconds: float = CELL_BUDGET_SECONDS) -> int:
    """How many turns of `turn` texts of a sample of `n_texts` (`n_bytes`) fit the budget over
    `repeats` repeats at the speed `seconds_per_byte` (None: unknown, the whole sample)."""
    n_turns = -(-n_texts // turn)
    if seconds_per_byte is None or n_turns <= 1 or n_bytes <= 0:
        return n_turns
    seconds_per_turn = seconds_per_byte * n_bytes / n_turns
    return max(1, min(n_turns, int(budget_seconds / max(1, repeats) / max(seconds_per_turn, 1e-9))))


def spread_turns(texts: Sequence[str], n_turns: int, *, turn: int) -> list[str]:
    """`n_turns` turns' worth of `texts`, spread over them: every k-th text."""
    keep = n_turns * turn
    if keep >= len(texts):
        return list(texts)
    step = len(texts) / keep
    return [texts[int(k * step)] for k in range(keep)]

"""The tables a model derives from its state, and what that state must be to make a vocabulary.

What this module adds: a model's state is its ordered merges (or a rank table imported from
tiktoken); everything else is rebuilt from it here, never stored twice: the id -> bytes table, the
bytes -> rank table and, for merges, the length of each token's left part (the pair rule of
encode.py). It refuses a state that cannot be a vocabulary: a merge that uses an id not made
before it or makes bytes that are already a token, and a rank table with a rank that is negative
or used twice, or without every single byte.

What it leaves out: reading files (files.py, openai_ranks.py) and encoding (encode.py).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence


def merged_bytes(merges: Sequence[tuple[int, int]]) -> list[bytes]:
    """The bytes of every token, ids 0..255 (the bytes) then one per merge (merge k makes 256 + k).

    Refused: an id not made before its merge, and a merge that makes bytes already a token (two ids
    with the same bytes would make encoding by bytes ambiguous)."""
    vocab: list[bytes] = [bytes([b]) for b in range(256)]
    known: set[bytes] = set()
    for k, (left, right) in enumerate(merges):
        new_id = 256 + k
        if not (0 <= left < new_id and 0 <= right < new_id):
            raise ValueError(f"merge {k + 1} ({left}, {right}) uses an id not made before it (< {new_id})")
        data = vocab[left] + vocab[right]
        if data in known:
            raise ValueError(f"merge {k + 1} ({left}, {right}) makes {data!r}, which is already a token")
        known.add(data)
        vocab.append(data)
    return vocab


def tables_from_merges(
    merges: Sequence[tuple[int, int]],
) -> tuple[list[bytes | None], dict[bytes, int], dict[bytes, int]]:
    """(id -> bytes, bytes -> rank, token bytes -> length of its left part) for `merges`."""
    vocab: list[bytes | None] = list(merged_bytes(merges))
    left_lengths = {vocab[256 + k]: len(vocab[left]) for k, (left, _) in enumerate(merges)}
    ranks = {data: i for i, data in enumerate(vocab)}
    return vocab, ranks, left_lengths


def tables_from_ranks(ranks: Mapping[bytes, int]) -> tuple[list[bytes | None], dict[bytes, int]]:
    """(id -> bytes, bytes -> rank) for a rank table; the id -> bytes table holds None where no
    token has that id."""
    if not ranks:
        raise ValueError("an empty rank table")
    vocab: list[bytes | None] = [None] * (max(ranks.values()) + 1)
    for data, rank in ranks.items():
        if rank < 0 or vocab[rank] is not None:
            raise ValueError(f"rank {rank} is negative or used twice in the rank table")
        vocab[rank] = data
    missing = [b for b in range(256) if bytes([b]) not in ranks]
    if missing:
        raise ValueError(f"the rank table lacks single-byte tokens (e.g. {missing[:5]}); it cannot encode every text")
    return vocab, dict(ranks)


def special_token_list(special_tokens: Sequence[str]) -> list[str]:
    """The special tokens as a list of distinct str (their ids follow this order)."""
    if isinstance(special_tokens, str):
        raise TypeError(f"special_tokens is a sequence of str, got the str {special_tokens!r}; write [{special_tokens!r}]")
    tokens = list(special_tokens)
    for token in tokens:
        if not isinstance(token, str):
            raise TypeError(f"a special token must be a str, got {type(token).__name__} {token!r}")
    repeated = sorted({token for token in tokens if tokens.count(token) > 1})
    if repeated:
        raise ValueError(f"special tokens listed twice: {repeated}")
    return tokens

"""The tables a model derives from its state, and what that state must be to make a vocabulary.

What this module adds: a model's state is its ordered merges (or a rank table imported from
tiktoken); everything else is rebuilt from it here, never stored twice: the id -> bytes table, the
bytes -> rank table and, for merges, the length of each token's left part (the pair rule of
encode.py). It refuses, by value, a state that cannot be a vocabulary: an id that is not an int
(`True`, `"256"` and `256.7` are not ids), a merge that uses an id not made before it or makes
bytes that are already a token, and a rank table with a rank that is negative, used twice or so
large that the table would be mostly holes.

The density rule: a rank table of n tokens holds ranks below 2n (at least half of the ids below
the largest are used). The id -> bytes table is a list as long as the largest rank, so one edited
rank (3,000,000,000) would otherwise ask for a 24 GB list before anything else is checked.
OpenAI's, Llama's and Qwen's tables are dense from 0, so the rule refuses only broken tables.

What it leaves out: reading files (files.py, openai_ranks.py) and encoding (encode.py).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from operator import index


# Special ids beyond the mergeable tokens: tiktoken's leave gaps (o200k's reach 200,018 after 199,998
# mergeable tokens, Llama 3's 256 reserved ones), never millions.
MAX_SPECIAL_GAP = 1 << 16


def as_id(value: object, what: str) -> int:
    """`value` as an int: an int or an int-like such as numpy's int64, never a bool, str or float.

    subtle: `operator.index(True)` is 1, so a bool must be refused before it is asked."""
    if type(value) is int:
        return value
    if isinstance(value, bool):
        raise TypeError(f"{what} is the bool {value!r}; ids are ints")
    try:
        return index(value)
    except TypeError:
        raise TypeError(f"{what} is {type(value).__name__} {value!r}; ids are ints") from None


def as_token_id(value: object) -> int:
    """An int-like id (numpy's int64) as an int; a bool, a float or a str is refused.

    subtle: index(True) is 1, so a bool is refused before it is asked."""
    if not isinstance(value, bool):
        try:
            return index(value)
        except TypeError:
            pass
    raise TypeError(f"token ids are ints, got {type(value).__name__} {value!r}")


def as_merges(merges: Sequence[tuple[int, int]]) -> list[tuple[int, int]]:
    """`merges` as a list of pairs of ints (int-likes such as numpy's int64 become ints)."""
    checked = []
    for k, (left, right) in enumerate(merges):
        if type(left) is not int or type(right) is not int:  # the common case costs no message
            left, right = as_id(left, f"merge {k + 1}'s left id"), as_id(right, f"merge {k + 1}'s right id")
        checked.append((left, right))
    return checked


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


def rank_limit(n_ranks: int) -> int:
    """Every rank of a table of `n_ranks` tokens is below this (the module's density rule)."""
    return 2 * n_ranks


def check_rank_table(ranks: Mapping[bytes, int]) -> None:
    """Refuse a rank table that cannot be a byte-level vocabulary, before anything is sized by it."""
    if not ranks:
        raise ValueError("an empty rank table")
    limit = rank_limit(len(ranks))
    seen: set[int] = set()
    for data, rank in ranks.items():
        if not isinstance(data, bytes):
            raise TypeError(f"a rank table maps token bytes to ranks; {data!r} is a {type(data).__name__}")
        rank = as_id(rank, f"the rank of {data!r}")
        if rank < 0:
            raise ValueError(f"the rank of {data!r} is {rank}; ranks are 0 or more")
        if rank >= limit:
            raise ValueError(
                f"the rank of {data!r} is {rank}, but a table of {len(ranks)} tokens holds ranks below "
                f"{limit} (at least half the ids below the largest must be used): an edited or corrupt table"
            )
        if rank in seen:
            raise ValueError(f"rank {rank} is used twice in the rank table")
        seen.add(rank)
    missing = [b for b in range(256) if bytes([b]) not in ranks]
    if missing:
        raise ValueError(f"the rank table lacks single-byte tokens (e.g. {missing[:5]}); it cannot encode every text")


def tables_from_ranks(ranks: Mapping[bytes, int]) -> tuple[list[bytes | None], dict[bytes, int]]:
    """(id -> bytes, bytes -> rank) for a rank table, after `check_rank_table`; the id -> bytes
    table holds None where no token has that id, and the ranks become plain ints."""
    check_rank_table(ranks)
    rank_of = {data: index(rank) for data, rank in ranks.items()}
    vocab: list[bytes | None] = [None] * (max(rank_of.values()) + 1)
    for data, rank in rank_of.items():
        vocab[rank] = data
    return vocab, rank_of


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


# The two id layouts. bytes-first (the default): bytes 0-255, merge k is 256 + k, special tokens
# after the merges (tiktoken's, so ids equal tiktoken's where ranks come from it). specials-first
# (the Korean notes'): the special tokens at 0..n-1, bytes at n..n+255, merge k at n + 256 + k.
ID_LAYOUTS = ("bytes-first", "specials-first")
SPECIALS_FIRST_TOKENS = ("<pad>", "<unk>", "<bos>", "<eos>")


def first_byte_id(id_layout: str, special_tokens: dict[str, int] | Sequence[str]) -> int:
    """The id of byte 0 in this layout: 0, or the number of special tokens (specials-first)."""
    if id_layout not in ID_LAYOUTS:
        raise ValueError(f"unknown id_layout {id_layout!r}; use one of {', '.join(ID_LAYOUTS)}")
    return 0 if id_layout == "bytes-first" else len(special_tokens or SPECIALS_FIRST_TOKENS)


def layout_special_ids(id_layout: str, special_tokens: dict[str, int] | Sequence[str],
                       n_mergeable: int) -> dict[str, int]:
    """{special token: id} for the layout: after the `n_mergeable` ids (bytes-first), or 0..n-1 in
    the order given (specials-first, the notes' four by default)."""
    if isinstance(special_tokens, dict):
        special_token_list(list(special_tokens))  # every text a str
        ids = {text: as_id(token_id, f"the id of special token {text!r}") for text, token_id in special_tokens.items()}
        if id_layout == "specials-first" and sorted(ids.values()) != list(range(len(ids))):
            raise ValueError(f"the specials-first layout puts the special tokens at 0..{len(ids) - 1}, got {ids}")
        return ids
    names = special_token_list(special_tokens)
    if id_layout == "specials-first":
        return {text: i for i, text in enumerate(names or SPECIALS_FIRST_TOKENS)}
    return {text: n_mergeable + i for i, text in enumerate(names)}

"""The two exact shortcuts of the encoder for non-ASCII pre-tokens, with their proofs.

What this module adds: `SafeSplitter`, which (1) cuts a pre-token where no token of the vocabulary
can sit over the cut, so that BPE of the whole equals BPE of the pieces, and (2) starts a
multi-byte character as one part when its own merges provably come first. Both give exactly the
ids of merging one part per byte (the proofs are in `SafeSplitter`'s docstring;
tests/bpe/test_against_tiktoken.py checks them against tiktoken on corpora and random text).

What it leaves out: the merge loops themselves (encode.py) and the caches of whole pre-tokens and
segments (tokenizer.py); it keeps only its own memos, keyed by characters.
"""

from __future__ import annotations

from itertools import compress
from operator import add

import regex

from benchmark.bpe.encode import BYTE_PARTS, NO_MERGE, max_merge_rank

MEMO_ENTRIES = 1 << 17  # bound of the memo keyed by pairs of characters (cleared when full)


def _is_continuation(byte: int) -> bool:
    return 0x80 <= byte < 0xC0


# Lead byte -> the length in bytes of the UTF-8 character it starts (0 for a continuation byte):
# a table, as a function call per character cost Russian 1.8% of its instructions.
CHAR_WIDTH = bytes([1] * 0x80 + [0] * 0x40 + [2] * 0x20 + [3] * 0x10 + [4] * 0x10)


class SafeSplitter:
    """Two exact shortcuts for non-ASCII pre-tokens: safe cuts, and whole characters as first parts.

    Cuts. A Japanese or Chinese pre-token is a whole clause (`\\p{L}++` runs on until
    punctuation), so it is seldom seen twice and costs one merge per byte. But if no token of the
    vocabulary can sit over position p (a substring of the text crossing p), no merge can ever join
    a part ending at p to one starting at p; and since merges on either side never depend on each
    other, BPE of the whole equals BPE of the left side followed by BPE of the right side, exactly.
    The short sides repeat, so they hit the cache. Cuts are tried between two multi-byte characters
    A and B: a token T sits over that junction iff T has a junction of its own (a continuation byte
    then a lead byte) where what comes before agrees with A (T's last character there is A, or T
    starts inside A) and what comes after agrees with B (T's next character is B, or T ends inside
    B). `_junctions` holds every token's junctions reduced to exactly that, so the test is a few set
    lookups, and it is sound: it may keep a cut that is safe (it ignores text beyond A and B), never
    makes one that is not.

    Whole characters. A multi-byte character c (bytes d) would first merge its own bytes in most
    texts; starting with c as one part saves those merges, and is exact when: (1) d alone merges
    into the single token c, the largest rank used being R; (2) every token that could join a byte
    of c to a byte outside it has rank above R. Why (2) suffices: until c is whole, one of its own
    merges (rank <= R) is always available, so no crossing merge (rank > R) is ever picked, and c's
    own merges happen in the same order as for d alone. Every other merge picked meanwhile has rank
    <= R, so the candidates (L, c) and (c, R') that the whole-c start offers early (their tokens
    also cross c's edge, rank > R) never win in its place: both runs pick the same merges elsewhere,
    in the same order, and agree once c is whole. The first crossing merge makes a token that ends
    with x + d[:i] (x: the byte before c) or starts with d[i:] + y (y: the byte after c); so (2) is
    checked from the minimum rank of the tokens with each such suffix or prefix, `_min_rank_ending`
    and `_min_rank_starting`. The same holds under the pair rule (it only forbids merges). The
    answer depends on x, c and y alone, so `initial_parts` memoizes c's starting parts by those
    bytes: one slice and one lookup per character. A pre-token's leading ASCII byte and the
    two-byte character after it (the space and first letter of " слово") are one more such unit,
    with no byte before it: `_lead_parts_of`.

    Coarse cuts. Testing every pair of characters costs about as much as the rest of the encoder on
    CJK text, so `coarse_split` first makes the cuts that one character decides alone, in C: a
    character A with no junction after it in any token (`_afters_of(A)` empty) may be cut after,
    whatever multi-byte character follows; a character B none of whose heads follows a junction in
    any token may be cut before, whatever precedes. `str.translate` marks those places and
    `str.split` cuts there. Any subset of safe cuts is exact, so the pair test then runs only on the
    coarse segments not seen before (most repeat: they are words and particles).
    """

    def __init__(self, ranks: dict[bytes, int], left_lengths: dict[bytes, int] | None = None) -> None:
        self._ranks = ranks
        self._left_lengths = left_lengths
        junctions: set[bytes] = set()
        ending: dict[bytes, int] = {}  # x + a character's first bytes -> least rank of a token ending so
        starting: dict[bytes, int] = {}  # a character's last bytes + y -> least rank of a token starting so
        for token, rank in ranks.items():
            n = len(token)
            if n < 2 or token.isascii():
                continue
            for q in range(1, n):
                if token[q] < 0xC0:
                    continue
                # token[q] is a lead byte: a character starts at q.
                if n - q <= 4 and ending.get(key := token[q - 1 :], NO_MERGE) > rank:
                    ending[key] = rank
                if _is_continuation(token[q - 1]):
                    junctions.add(_junction_key(token, q))
            if token[0] >= 0x80:
                for q in range(1, min(n, 5)):
                    if not _is_continuation(token[q]) and starting.get(key := token[: q + 1], NO_MERGE) > rank:
                        starting[key] = rank
            elif 0xC0 <= token[1] < 0xE0 and n >= 4:
                # An ASCII byte, a two-byte character and the next byte (`_lead_parts_of` takes
                # only two-byte characters); these keys start with an ASCII byte, the others above
                # with a byte >= 0x80.
                if starting.get(key := token[:4], NO_MERGE) > rank:
                    starting[key] = rank
        # Junctions grouped by what comes before: before -> the set of what may come after.
        self._junctions: dict[bytes, set[bytes]] = {}
        for key in junctions:
            cut = max(i for i in range(len(key)) if key[i] >= 0xC0)  # the key's last lead byte
            self._junctions.setdefault(key[:cut], set()).add(key[cut:])
        self._min_rank_ending = ending
        self._min_rank_starting = starting
        # Every head that some token has right after a junction, whatever comes before it.
        self._any_after: frozenset[bytes] = frozenset().union(*self._junctions.values())
        self._cut_memo: dict[str, bool] = {}  # two characters -> may we cut between them?
        self._afters: dict[str, frozenset[bytes] | None] = {}  # character -> `_afters_of`
        self._heads: dict[str, tuple[bytes, ...] | None] = {}  # character -> `_heads_of`
        self._whole_rank: dict[bytes, int | None] = {}  # unit -> R of (1), None if it fails (1)
        self._char_parts: dict[bytes, tuple[bytes, ...]] = {}  # character and the byte each side -> its parts
        self._lead_parts: dict[bytes, bytes] = {}  # ASCII byte, character, next byte -> `_lead_parts_of`
        self._cut_marks = _CutMarks(self)  # code point -> the character, with its own safe cuts marked

    def _memos(self) -> tuple[dict, ...]:
        """Every memo filled from the text seen (all of them: snapshots must miss none)."""
        return (self._cut_memo, self._afters, self._heads, self._char_parts, self._lead_parts, self._whole_rank,
                self._cut_marks)

    def coarse_split(self, piece: str) -> list[str] | None:
        """`piece` cut where one character alone shows the cut is safe (see the class docstring);
        None if `piece` holds an ASCII character after its first (no cut next to one is proven)."""
        if _ASCII_CHAR.search(piece, 1) is not None:
            return None
        if len(piece) < 2:
            return [piece]
        head = piece[0] if piece[0].isascii() else ""  # a leading space or mark: never cut after it
        marked = piece[len(head):].translate(self._cut_marks)
        segments = [segment for segment in marked.split(CUT_MARK) if segment]
        segments[0] = head + segments[0]
        return segments

    def clear_memo(self) -> None:
        for memo in self._memos():
            memo.clear()

    def memo_snapshot(self) -> tuple[dict, ...]:
        return tuple(dict(memo) for memo in self._memos())

    def restore_memo(self, snapshot: tuple[dict, ...]) -> None:
        memos = self._memos()
        if len(snapshot) != len(memos):
            raise ValueError(f"a splitter snapshot has {len(snapshot)} memos, expected {len(memos)}")
        for memo, saved in zip(memos, snapshot):
            memo.clear()
            memo.update(saved)

    def split(self, piece: str) -> list[str]:
        """`piece` cut at every safe position between two non-ASCII characters."""
        memo = self._cut_memo
        pairs = list(map(add, piece, piece[1:]))  # every two adjacent characters
        cut_here = list(map(memo.get, pairs))
        if None in cut_here:
            if len(memo) >= MEMO_ENTRIES:
                memo.clear()
            afters, heads = self._afters, self._heads
            for i, pair in enumerate(pairs):
                if cut_here[i] is None:
                    # Per character, not per pair: new pairs of known characters are common.
                    left, right = afters.get(pair[0], False), heads.get(pair[1], False)
                    if left is False:
                        left = afters[pair[0]] = self._afters_of(pair[0])
                    if right is False:
                        right = heads[pair[1]] = _heads_of(pair[1])
                    cut_here[i] = memo[pair] = left is not None and right is not None and left.isdisjoint(right)
        if True not in cut_here:
            return [piece]
        ends = [*compress(range(1, len(piece)), cut_here), len(piece)]
        return list(map(piece.__getitem__, map(slice, [0, *ends], ends)))

    def initial_parts(self, data: bytes) -> list[bytes]:
        """The starting parts of `data` (valid UTF-8): one part per byte, except a multi-byte
        character that may start whole (see the class docstring)."""
        memo = self._char_parts
        if len(memo) >= MEMO_ENTRIES:
            memo.clear()
        if len(self._lead_parts) >= MEMO_ENTRIES:
            self._lead_parts.clear()
        parts: list[bytes] = []
        append, extend = parts.append, parts.extend
        position, n = 0, len(data)
        if n > 2 and data[0] < 0x80 and 0xC0 <= data[1] < 0xE0:
            # A leading ASCII byte (the space of " слово") and the two-byte character after it
            # may start as one part too: the same two conditions, with nothing before them.
            # (Measured: with a three-byte character, a space and a Hangul syllable or a kana
            # seldom make one token, and trying cost Korean 2% more instructions.)
            end = 3
            lead_parts = self._lead_parts.get(key := data[: end + 1])
            if lead_parts is None:
                lead_parts = self._lead_parts[key] = self._lead_parts_of(data[:end], key[end:])
            if lead_parts:
                append(lead_parts)
                position = end
        while position < n:
            lead = data[position]
            if lead < 0x80:
                append(BYTE_PARTS[lead])
                position += 1
                continue
            end = position + CHAR_WIDTH[lead]
            # The character with the byte on each side (none at an edge) decides it: one key.
            # subtle: the key says where the character is: it starts with a lead byte iff there is
            # no byte before (a byte before ends a character: ASCII or a continuation byte), and
            # ends with a continuation byte iff there is no byte after.
            key = data[position - 1 if position else 0 : end + 1]
            char_parts = memo.get(key)
            if char_parts is None:
                char_parts = memo[key] = self._parts_of(data[position:end], key)
            extend(char_parts)
            position = end
        return parts

    def _parts_of(self, char: bytes, key: bytes) -> tuple[bytes, ...]:
        """The starting parts of `char` with the bytes around it in `key` (see `initial_parts`)."""
        before = key[:1] if key[0] < 0xC0 else b""
        after = key[-1:] if not _is_continuation(key[-1]) else b""
        if self._starts_whole(char, before, after):
            return (char,)
        return tuple(map(BYTE_PARTS.__getitem__, char))

    def _lead_parts_of(self, lead: bytes, after: bytes) -> bytes:
        """`lead` (an ASCII byte and a character, first in a pre-token) if it may start as one part,
        with the byte `after` it (none at the end); b"" if not."""
        return lead if self._starts_whole(lead, b"", after) else b""

    def _starts_whole(self, unit: bytes, before: bytes, after: bytes) -> bool:
        """Conditions (1) and (2) of the class docstring for `unit` (a character, or
        `_lead_parts_of`'s pair) between the bytes `before` and `after` (b"" where there is none)."""
        rank = self._whole_rank.get(unit, NO_MERGE)
        if rank == NO_MERGE:
            rank = self._whole_rank[unit] = max_merge_rank(unit, self._ranks, self._left_lengths)
        return (
            rank is not None  # condition (1), then (2) on each side that has a byte
            and (not before or self._may_start_whole(unit, rank, before, b""))
            and (not after or self._may_start_whole(unit, rank, b"", after))
        )

    def _may_start_whole(self, unit: bytes, rank: int, before: bytes, after: bytes) -> bool:
        """Condition (2) for `unit`, which meets (1) with largest rank `rank`, with the byte
        `before` it or the byte `after` it."""
        if before:
            ending = self._min_rank_ending
            return all(ending.get(before + unit[:i], NO_MERGE) > rank for i in range(1, len(unit) + 1))
        starting = self._min_rank_starting
        return all(starting.get(unit[i:] + after, NO_MERGE) > rank for i in range(len(unit)))

    def _afters_of(self, char: str) -> frozenset[bytes] | None:
        """Everything a token may have right after a junction that follows `char` (or a tail of it:
        the token starts inside `char`); None for an ASCII character (no cut next to it).

        A cut between characters A and B is safe iff `_afters_of(A)` holds none of B's heads (see
        `_heads_of`): the per-pair test of the class docstring, split into a part per character.
        """
        left = char.encode("utf-8")
        if len(left) < 2:
            return None  # ASCII junctions: not worth it
        junctions = self._junctions
        found: set[bytes] = set()
        for i in range(len(left)):
            found.update(junctions.get(left[i:], ()))
        return frozenset(found)


# `coarse_split` marks cuts with an ASCII character: it only works on pieces with no ASCII
# character after the first, so the mark cannot be part of the text it cuts.
CUT_MARK = "\x00"
_ASCII_CHAR = regex.compile(r"[\x00-\x7f]")


class _CutMarks(dict):
    """The translation table of `SafeSplitter.coarse_split`: code point -> its character, with
    CUT_MARK after it if a cut after it is always safe, before it if a cut before it is. Filled on
    first sight: `str.translate` asks `__missing__` for a code point not in the table.

    (Measured: filling the table ahead for the vocabulary's characters and learning the others only
    when a segment is new made Japanese slower, as a new character's first segments are cut
    without it and their shapes never come again.)"""

    def __init__(self, splitter: SafeSplitter) -> None:
        super().__init__()
        self._splitter = splitter

    def __missing__(self, code: int) -> str:
        char = marked = chr(code)
        if not char.isascii():
            splitter = self._splitter
            if not splitter._afters_of(char):
                marked = marked + CUT_MARK
            if splitter._any_after.isdisjoint(_heads_of(char)):
                marked = CUT_MARK + marked
        self[code] = marked
        return marked


def _heads_of(char: str) -> tuple[bytes, ...] | None:
    """What a token may have from a junction before `char`: all of it, or a head of it (the token
    ends inside `char`); None for an ASCII character."""
    right = char.encode("utf-8")
    if len(right) < 2:
        return None
    return tuple(right[:j] for j in range(1, len(right) + 1))


def _junction_key(token: bytes, q: int) -> bytes:
    """Token's junction at q (a continuation byte then a lead byte), reduced to what `_afters_of`
    compares: its last character before q (or all of it before q, if it starts inside a
    character) and its first character from q (or all of it from q, if it ends inside it).

    subtle: the key is unambiguous without a separator: the part after the junction holds
    exactly one lead byte, at its start, so the junction is at the key's last lead byte.
    """
    start = q - 1
    while start > 0 and _is_continuation(token[start]):
        start -= 1
    if _is_continuation(token[start]):
        start = 0  # no lead byte before q: the token starts inside a character
    end = q + 1
    while end < len(token) and _is_continuation(token[end]):
        end += 1
    return token[start:end]

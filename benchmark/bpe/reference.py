"""A deliberately naive byte-level BPE trainer and encoder, to check the fast ones against.

What this module adds: the plain algorithm, shipped beside the fast one (as tiktoken ships
`_educational.py`) so that a reader can see what the fast code must compute, and the tests and
`python -m benchmark speed` can check it. Nothing here is clever on purpose: the trainer recounts
every pair of the frequency table for each merge, and the encoder replays every learned merge, in
order, over each pre-token (minbpe's textbook encoder); the parity-aware trainer recounts every
language's pairs and parity tokens for each merge (its rules are parity.py's). What it leaves out:
speed, caches, model files. They follow the rules written in train.py's docstring:

- ids 0..255 are bytes, merge k creates id 256 + k; merges stay inside a pre-token;
- a pair's count is count x occurrences, every adjacent position counted (`a a a` holds (a, a)
  twice);
- highest count wins, ties go to the smallest (left_id, right_id);
- a pair whose merged bytes are already a token is skipped;
- stop after n_merges or when the best count is below min_frequency;
- a merge is applied left to right, non-overlapping.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import regex


def merge(ids: list[int], pair: tuple[int, int], new_id: int) -> list[int]:
    """Replace every occurrence of `pair` in `ids`, left to right, non-overlapping (minbpe)."""
    merged = []
    i = 0
    while i < len(ids):
        if i + 1 < len(ids) and (ids[i], ids[i + 1]) == pair:
            merged.append(new_id)
            i += 2
        else:
            merged.append(ids[i])
            i += 1
    return merged


def reference_train(
    pretoken_counts: Mapping[bytes, int], n_merges: int, *, min_frequency: int = 2,
    first_merges: Sequence[tuple[int, int]] = (),
) -> tuple[list[tuple[int, int]], dict[bytes, list[int]]]:
    """Return (merges, final ids of each pre-token), recounting every pair for every merge.
    `first_merges` are made first, as given (whole characters: `reference_whole_character_merges`)."""
    words = {data: list(data) for data in pretoken_counts}
    token_bytes = [bytes([i]) for i in range(256)]
    merges: list[tuple[int, int]] = []
    for pair in list(first_merges)[:n_merges]:
        merges.append(pair)
        token_bytes.append(token_bytes[pair[0]] + token_bytes[pair[1]])
        words = {data: merge(ids, pair, 255 + len(merges)) for data, ids in words.items()}
    while len(merges) < n_merges:
        pair_counts: dict[tuple[int, int], int] = {}
        for data, ids in words.items():
            for pair in zip(ids, ids[1:]):
                pair_counts[pair] = pair_counts.get(pair, 0) + pretoken_counts[data]
        # Best first: highest count, then smallest pair.
        candidates = sorted(pair_counts.items(), key=lambda item: (-item[1], item[0]))
        chosen = None
        for pair, count in candidates:
            if count < min_frequency:
                break
            if token_bytes[pair[0]] + token_bytes[pair[1]] in token_bytes:
                continue  # would duplicate an existing token's bytes
            chosen = pair
            break
        if chosen is None:
            break
        new_id = 256 + len(merges)
        merges.append(chosen)
        token_bytes.append(token_bytes[chosen[0]] + token_bytes[chosen[1]])
        words = {data: merge(ids, chosen, new_id) for data, ids in words.items()}
    return merges, words


def reference_whole_character_merges(
    pretoken_counts: Mapping[bytes, int], scripts: Sequence[str], *, min_frequency: int = 2
) -> list[tuple[int, int]]:
    """whole_chars.py's first merges, naively: count each character of the scripts one at a time,
    sort, and give each character, in turn, the merges of its byte prefixes not yet made."""
    is_wanted = [regex.compile(rf"\p{{Script={name}}}") for name in scripts]
    counts: dict[str, int] = {}
    for data, n in pretoken_counts.items():
        for char in data.decode("utf-8", "replace"):
            if any(pattern.fullmatch(char) for pattern in is_wanted):
                counts[char] = counts.get(char, 0) + n
    token_bytes = [bytes([i]) for i in range(256)]
    merges: list[tuple[int, int]] = []
    for char in sorted(counts, key=lambda c: (-counts[c], ord(c))):
        if counts[char] < min_frequency:
            break
        data = char.encode("utf-8")
        for end in range(2, len(data) + 1):
            if data[:end] not in token_bytes:
                merges.append((token_bytes.index(data[:end - 1]), data[end - 1]))
                token_bytes.append(data[:end])
    return merges


def reference_encode(text: str, merges: list[tuple[int, int]], pattern) -> list[int]:
    """Encode `text`: split with `pattern` (None = no split), then replay every merge in order.

    `pattern` is a compiled `regex` pattern. Slow by design: O(len(merges)) passes per pre-token.
    """
    pieces = [text] if pattern is None else pattern.findall(text)
    ids: list[int] = []
    for piece in pieces:
        piece_ids = list(piece.encode("utf-8"))
        for k, pair in enumerate(merges):
            if len(piece_ids) < 2:
                break
            piece_ids = merge(piece_ids, pair, 256 + k)
        ids.extend(piece_ids)
    return ids


def reference_train_parity(
    pretoken_counts_by_language: Mapping[str, Mapping[bytes, int]],
    n_merges: int,
    *,
    parity_counts_by_language: Mapping[str, Mapping[bytes, int]] | None = None,
    global_merges: int = 0,
    min_frequency: int = 2,
) -> tuple[list[tuple[int, int]], list[str | None]]:
    """Parity-aware BPE (parity.py's rules), naively: for every merge, recount every language's
    parity tokens and pairs. Returns (merges, the language each merge was chosen for, None for a
    merge of the global phase)."""
    languages = sorted(pretoken_counts_by_language)
    counts = pretoken_counts_by_language
    parity = parity_counts_by_language if parity_counts_by_language is not None else counts
    words = {language: {data: list(data) for data in counts[language]} for language in languages}
    parity_words = {language: {data: list(data) for data in parity[language]} for language in languages}
    token_bytes = [bytes([i]) for i in range(256)]
    merges: list[tuple[int, int]] = []
    chosen_for: list[str | None] = []

    def pair_counts(language_list: list[str]) -> dict[tuple[int, int], int]:
        found: dict[tuple[int, int], int] = {}
        for language in language_list:
            for data, ids in words[language].items():
                for pair in zip(ids, ids[1:]):
                    found[pair] = found.get(pair, 0) + counts[language][data]
        return found

    def best_pair(found: dict[tuple[int, int], int]) -> tuple[int, int] | None:
        for pair, count in sorted(found.items(), key=lambda item: (-item[1], item[0])):
            if count < min_frequency:
                return None
            if token_bytes[pair[0]] + token_bytes[pair[1]] not in token_bytes:
                return pair
        return None

    while len(merges) < n_merges:
        chosen, language = None, None
        if len(merges) < global_merges:
            chosen = best_pair(pair_counts(languages))
        else:
            n_tokens = {
                name: sum(parity[name][data] * len(ids) for data, ids in parity_words[name].items())
                for name in languages
            }
            for name in sorted(languages, key=lambda name: (-n_tokens[name], name)):
                chosen = best_pair(pair_counts([name]))
                if chosen is not None:
                    language = name
                    break
        if chosen is None:
            break
        new_id = 256 + len(merges)
        merges.append(chosen)
        chosen_for.append(language)
        token_bytes.append(token_bytes[chosen[0]] + token_bytes[chosen[1]])
        for table in (*words.values(), *parity_words.values()):
            for data, ids in table.items():
                table[data] = merge(ids, chosen, new_id)
    return merges, chosen_for

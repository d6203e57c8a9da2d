"""How a `ByteLevelBPE` is trained: its training constructors, one run for several sizes.

What this module adds: `train`, `train_sweep`, `train_parity` and `train_parity_sweep`, each a
function of the class it builds (`cls`), which `ByteLevelBPE` takes as its classmethods in its
own body (tokenizer.py: `train = classmethod(sweeps.train)`), so `ByteLevelBPE.train(...)` is
where a reader looks and tokenizer.py still reads as the model and its encoder. Each checks what
it is asked for before any work, counts pre-tokens if given texts (or takes the caller's counts),
runs one trainer to the largest size and cuts its merge list at every size: BPE merges are a
prefix, for standard and parity-aware training alike, so the model at 4,096 is the first 3,840
merges of the run to 16,384 and the time to reach a size is what training to that size alone
would take.

What it leaves out: the trainers themselves (train.py, parity.py) and the model (tokenizer.py).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from benchmark.bpe.parity import train_parity_merges
from benchmark.bpe.patterns import resolve_pattern
from benchmark.bpe.tables import first_byte_id, special_token_list
from benchmark.bpe.train import count_pretokens, train_merges
from benchmark.bpe.whole_chars import script_pattern, train_whole_character_merges

Counts = Mapping[bytes, int]


# Each function takes the class it builds, `cls(pattern=..., merges=..., special_tokens=...)`, first:
# ByteLevelBPE makes them its classmethods. They call `cls.train_sweep`, not the function, so a
# subclass's (or a test's) train_sweep is the one train uses.


def train(
    cls: type,
    texts: Iterable[str] | None = None,
    vocab_size: int | None = None,
    *,
    pretoken_counts: Counts | None = None,
    pattern: str | None = "cl100k",
    min_frequency: int = 2,
    special_tokens: Sequence[str] = (),
    whole_characters: Sequence[str] = (),
    id_layout: str = "bytes-first",
    progress: bool = False,
) -> Any:
    """Learn merges up to `vocab_size` tokens from `texts` (any iterable of str, streamed), or
    from `pretoken_counts=` ({pre-token bytes: positive int count}, as `count_pretokens` makes
    it with this `pattern`: counted in shards, or weighted, by the caller).

    `vocab_size` counts the 256 bytes, the merges and the special tokens. Training stops early
    when the most frequent pair occurs fewer than `min_frequency` times; `.vocab_size` then says
    the size actually reached.

    `whole_characters=("Hangul",)` (or other Unicode script names) first gives every character
    of those scripts seen `min_frequency` times a token, most frequent first, then merges by
    frequency (whole_chars.py).
    """
    return cls.train_sweep(texts, [vocab_size], pretoken_counts=pretoken_counts, pattern=pattern,
                           min_frequency=min_frequency, special_tokens=special_tokens,
                           whole_characters=whole_characters, id_layout=id_layout,
                           progress=progress)[vocab_size][0]


def train_sweep(
    cls: type,
    texts: Iterable[str] | None = None,
    vocab_sizes: Sequence[int] = (),
    *,
    pretoken_counts: Counts | None = None,
    pattern: str | None = "cl100k",
    min_frequency: int = 2,
    special_tokens: Sequence[str] = (),
    whole_characters: Sequence[str] = (),
    id_layout: str = "bytes-first",
    progress: bool = False,
) -> dict[int, tuple[Any, float]]:
    """Train once to the largest size; return each size's model and the seconds to reach it
    (counting included). Texts or counts, and `whole_characters`, as for `train`."""
    _exactly_one("texts", texts, "pretoken_counts=", pretoken_counts)
    if texts is not None:
        check_texts(texts)
    if isinstance(whole_characters, str) or whole_characters:
        script_pattern(whole_characters)  # an unknown script is refused before the work

    def count() -> Counts:
        return pretoken_counts if texts is None else count_pretokens(texts, pattern)

    def run(counts: Counts, n_merges: int, checkpoints: list[int]):
        if whole_characters:
            return train_whole_character_merges(counts, n_merges, scripts=whole_characters,
                                                min_frequency=min_frequency, progress=progress,
                                                checkpoints=checkpoints)
        return train_merges(counts, n_merges, min_frequency=min_frequency, progress=progress,
                            checkpoints=checkpoints)

    return _sweep(cls, vocab_sizes, special_tokens, pattern, count, run, id_layout)


def train_parity(
    cls: type,
    texts_by_language: Mapping[str, Iterable[str]] | None = None,
    vocab_size: int | None = None,
    *,
    pretoken_counts_by_language: Mapping[str, Counts] | None = None,
    parity_texts_by_language: Mapping[str, Iterable[str]] | None = None,
    parity_counts_by_language: Mapping[str, Counts] | None = None,
    global_merges: int = 0,
    pattern: str | None = "cl100k",
    min_frequency: int = 2,
    special_tokens: Sequence[str] = (),
    id_layout: str = "bytes-first",
    progress: bool = False,
) -> Any:
    """Parity-aware BPE (parity.py): every merge is the most frequent pair of the language whose
    parity text is now the most tokens. `texts_by_language` maps a language's name to its
    training texts, or `pretoken_counts_by_language=` to its counts. The parity text is the
    training text unless `parity_texts_by_language=` (or `parity_counts_by_language=`) gives
    parallel text for the same languages: give it when the training counts are weighted.
    `global_merges=M` chooses the first M merges by the count over all languages."""
    return cls.train_parity_sweep(
        texts_by_language, [vocab_size], pretoken_counts_by_language=pretoken_counts_by_language,
        parity_texts_by_language=parity_texts_by_language, parity_counts_by_language=parity_counts_by_language,
        global_merges=global_merges, pattern=pattern, min_frequency=min_frequency,
        special_tokens=special_tokens, id_layout=id_layout, progress=progress,
    )[vocab_size][0]


def train_parity_sweep(
    cls: type,
    texts_by_language: Mapping[str, Iterable[str]] | None = None,
    vocab_sizes: Sequence[int] = (),
    *,
    pretoken_counts_by_language: Mapping[str, Counts] | None = None,
    parity_texts_by_language: Mapping[str, Iterable[str]] | None = None,
    parity_counts_by_language: Mapping[str, Counts] | None = None,
    global_merges: int = 0,
    pattern: str | None = "cl100k",
    min_frequency: int = 2,
    special_tokens: Sequence[str] = (),
    id_layout: str = "bytes-first",
    progress: bool = False,
) -> dict[int, tuple[Any, float]]:
    """`train_parity` once to the largest size, cut at each size, as `train_sweep`."""
    _exactly_one("texts_by_language", texts_by_language, "pretoken_counts_by_language=",
                 pretoken_counts_by_language)
    if parity_texts_by_language is not None and parity_counts_by_language is not None:
        raise TypeError("give at most one of parity_texts_by_language= or parity_counts_by_language=")
    for what, texts in (("texts_by_language", texts_by_language),
                        ("parity_texts_by_language", parity_texts_by_language)):
        if texts is not None:
            _check_languages(texts, what)

    def count() -> tuple[Mapping[str, Counts], Mapping[str, Counts] | None]:
        counts = pretoken_counts_by_language
        if texts_by_language is not None:
            counts = {language: count_pretokens(texts, pattern) for language, texts in texts_by_language.items()}
        parity = parity_counts_by_language
        if parity_texts_by_language is not None:
            parity = {language: count_pretokens(texts, pattern)
                      for language, texts in parity_texts_by_language.items()}
        return counts, parity

    def run(counted, n_merges: int, checkpoints: list[int]):
        counts, parity = counted
        return train_parity_merges(counts, n_merges, parity_counts_by_language=parity,
                                   global_merges=global_merges, min_frequency=min_frequency,
                                   progress=progress, checkpoints=checkpoints)

    return _sweep(cls, vocab_sizes, special_tokens, pattern, count, run, id_layout)


def _sweep(
    cls: type,
    vocab_sizes: Sequence[int],
    special_tokens: Sequence[str],
    pattern: str | None,
    count: Callable[[], Any],
    run: Callable[[Any, int, list[int]], tuple[list[tuple[int, int]], dict[int, float]]],
    id_layout: str = "bytes-first",
) -> dict[int, tuple[Any, float]]:
    """Check the sizes, special tokens and pattern; count (timed); one run; a model per size.
    In the specials-first layout a size below the bytes and special tokens keeps them all
    (no merges): the base never shrinks, and `.vocab_size` says the real id range."""
    special_tokens = special_token_list(special_tokens)
    sizes = sorted(set(vocab_sizes))
    if not sizes:
        raise ValueError("train_sweep needs at least one vocabulary size")
    n_front = first_byte_id(id_layout, special_tokens)
    wanted = {size: n_merges_for(max(size, 256 + n_front), n_front) if n_front
              else n_merges_for(size, len(special_tokens)) for size in sizes}
    resolve_pattern(pattern)  # a bad pattern is refused before the work, not after it
    started = time.perf_counter()
    counted = count()
    count_seconds = time.perf_counter() - started
    merges, seconds_at = run(counted, max(wanted.values()), sorted(set(wanted.values())))
    sweep = {}
    for size, n_merges in wanted.items():
        n = min(n_merges, len(merges))  # fewer when training stopped early (min_frequency)
        model = cls(pattern=pattern, merges=merges[:n], special_tokens=tuple(special_tokens), id_layout=id_layout)
        model.train_seconds = count_seconds + seconds_at[n]
        sweep[size] = (model, model.train_seconds)
    return sweep


def _exactly_one(name: str, value: object, other_name: str, other: object) -> None:
    if (value is None) == (other is None):
        raise TypeError(f"give exactly one of {name} or {other_name}")


def _check_languages(texts_by_language: object, what: str) -> None:
    if not isinstance(texts_by_language, Mapping):
        raise TypeError(f"{what} must map each language's name to its texts, got a {type(texts_by_language).__name__}")
    for language, texts in texts_by_language.items():
        check_texts(texts, f"{what}[{language!r}]")


def check_texts(texts: object, what: str = "texts") -> Any:
    """`texts`, unless it is a str or bytes: a str is an iterable of str too, and training on it
    would learn from its single characters."""
    if isinstance(texts, (str, bytes)):
        raise TypeError(
            f"{what} must be an iterable of str (one per line or document), got a {type(texts).__name__}; "
            "wrap it in a list: [text]"
        )
    return texts


def n_merges_for(vocab_size: int, n_special: int) -> int:
    """How many merges make `vocab_size` tokens with the 256 bytes and `n_special` special tokens."""
    if not isinstance(vocab_size, int) or isinstance(vocab_size, bool):
        raise TypeError(f"vocab_size must be an int, got {vocab_size!r}")
    n_merges = vocab_size - 256 - n_special
    if n_merges < 0:
        raise ValueError(
            f"vocab_size {vocab_size} is below the 256 byte tokens plus {n_special} special tokens; "
            f"use at least {256 + n_special}"
        )
    return n_merges

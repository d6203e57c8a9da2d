"""`ByteLevelBPE`: our byte-level BPE tokenizer, with a tiktoken-like interface.

The state is a few plain structures: the pre-tokenization pattern, the ordered merges (or, for a
vocabulary imported from tiktoken, its rank table) and the special tokens. Everything else (the
id -> bytes table, the bytes -> rank table) is rebuilt from them (tables.py), never stored twice.

- Base vocabulary: the 256 byte values, so every valid `str` round-trips and there is no unknown
  token. Merge k (0-based) makes token 256 + k. Special tokens take the ids after the merges.
- Encoding: split with the pattern, then merge each pre-token by rank (see `encode.py`), with a
  bounded cache of pre-token -> ids and, for non-ASCII pre-tokens, the exact shortcuts of
  `shortcuts.py`.
- Special tokens: their text in user input is ordinary text unless `allowed_special` lets it in.

What this module adds: the model object, its encoder and decoder, and its training constructors
(`train`, `train_sweep`, `train_parity`, `train_parity_sweep`: classmethods here, their code in
sweeps.py). What it leaves out: the trainers, model files (files.py), other libraries' formats
(export.py), and on purpose normalisation (byte-level BPE needs none), truncation, BOS/EOS.
"""

from __future__ import annotations

import codecs
from collections.abc import Callable, Collection, Iterable, Sequence
from dataclasses import dataclass
from itertools import islice
from pathlib import Path
from typing import Literal

import regex

from benchmark.bpe.encode import LONG_PIECE_BYTES, merge_parts, merge_piece
from benchmark.bpe.export import tiktoken_encoding, write_tokenizer_json
from benchmark.bpe.files import ModelContent, ModelFileError, fingerprint_of, load_model, save_model, save_tiktoken_ranks
from benchmark.bpe.openai_ranks import load_ranks, spec
from benchmark.bpe.patterns import PATTERNS, bounded_findall, compile_pattern, findall_of, resolve_pattern
from benchmark.bpe.shortcuts import SafeSplitter
from benchmark.bpe import sweeps
from benchmark.bpe.sweeps import check_texts
from benchmark.bpe.tables import (MAX_SPECIAL_GAP, as_merges, as_token_id, first_byte_id, layout_special_ids,
                                  tables_from_merges, tables_from_ranks)

DEFAULT_CACHE_ENTRIES = 1 << 17


class ByteLevelBPE:
    """A byte-level BPE: learned merges (or OpenAI's ranks), a pattern and special tokens.

    >>> bpe = ByteLevelBPE.train(["low lower lowest"] * 10, vocab_size=260, pattern="gpt2")
    >>> bpe.decode(bpe.encode("lowest slow"))
    'lowest slow'
    """

    # Training: one run to the largest size, its merges cut at every size (sweeps.py).
    train = classmethod(sweeps.train)
    train_sweep = classmethod(sweeps.train_sweep)
    train_parity = classmethod(sweeps.train_parity)
    train_parity_sweep = classmethod(sweeps.train_parity_sweep)

    def __init__(
        self,
        *,
        pattern: str | None = "cl100k",
        merges: Sequence[tuple[int, int]] | None = None,
        ranks: dict[bytes, int] | None = None,
        special_tokens: dict[str, int] | Sequence[str] = (),
        name: str | None = None,
        cache_entries: int = DEFAULT_CACHE_ENTRIES,
        id_layout: str = "bytes-first",
    ) -> None:
        """Build from merges (our models) or from a rank table (tiktoken's), not both.

        `special_tokens` is a sequence of strings (given ids after the merges, in order) or a
        mapping string -> id (as tiktoken's encodings fix them). `id_layout="specials-first"` (the
        Korean notes' layout, for merges only) puts them at 0..n-1 (`<pad> <unk> <bos> <eos>` if
        none are given), the bytes at n..n+255 and the merges after (tables.py).
        """
        if (merges is None) == (ranks is None):
            raise ValueError("give exactly one of merges= (a trained model) or ranks= (a tiktoken table)")
        self._offset = first_byte_id(id_layout, special_tokens)
        if self._offset and ranks is not None:
            raise ValueError("id_layout='specials-first' is for trained merges; a rank table keeps its own ids")
        self.id_layout = id_layout
        self.pattern_name, self.pattern = resolve_pattern(pattern)
        self.name = name
        self._split = _splitter(compile_pattern(self.pattern), self.pattern)
        if merges is not None:
            self.merges: list[tuple[int, int]] = as_merges(merges)
            self._vocab, self._ranks, self._left_lengths = tables_from_merges(self.merges)
        else:
            self.merges = []
            self._vocab, self._ranks = tables_from_ranks(ranks)
            self._left_lengths = None  # tiktoken's rule: any concatenation that is a token merges
        n_mergeable = len(self._vocab)
        self.special_tokens = layout_special_ids(id_layout, special_tokens, n_mergeable)
        if len(set(self.special_tokens.values())) != len(self.special_tokens):
            raise ValueError(f"special tokens share an id: {self.special_tokens}")
        for text, token_id in self.special_tokens.items():
            if not text:
                raise ValueError("a special token cannot be the empty string")
            if not 0 <= token_id < self._offset + n_mergeable + MAX_SPECIAL_GAP:
                # Ids size the vocabulary: 10**12 would make every id table a trillion entries.
                raise ValueError(f"special token {text!r} has id {token_id}; ids run from 0 and special tokens "
                                 f"follow the {n_mergeable:,} mergeable ones (at most {MAX_SPECIAL_GAP:,} past them)")
            if 0 <= token_id - self._offset < n_mergeable and self._vocab[token_id - self._offset] is not None:
                raise ValueError(f"special token {text!r} reuses id {token_id} of a mergeable token")
        self._special_decoder = {i: t.encode("utf-8") for t, i in self.special_tokens.items()}
        self._cache: dict[str, list[int]] = {}
        # Derived from the vocabulary like _vocab (not a cache): where pre-tokens may be cut.
        self._splitter = SafeSplitter(self._ranks, self._left_lengths)
        self._segment_cache: dict[str, list[int]] = {}
        self._cache_entries = cache_entries
        self._fingerprint: str | None = None
        self.train_seconds: float | None = None

    # ---------------------------------------------------------------- constructors

    @classmethod
    def from_tiktoken(cls, name: str) -> ByteLevelBPE:
        """OpenAI's `cl100k_base` or `o200k_base`, offline (ranks from the bpe-openai package)."""
        encoding = spec(name)
        return cls(
            pattern=encoding.pattern,
            ranks=load_ranks(name),
            special_tokens=encoding.special_tokens,
            name=name,
        )

    @classmethod
    def load(cls, path: str | Path) -> ByteLevelBPE:
        """Read a model file written by `save`; refuses a wrong version or fingerprint, or anything
        that is not such a file, with a one-line ModelFileError naming the file."""
        content = load_model(Path(path))
        try:
            return cls(pattern=content.pattern, merges=content.merges, ranks=content.ranks,
                       special_tokens=content.special_tokens, name=content.name, id_layout=content.id_layout)
        except (TypeError, ValueError) as exc:
            raise ModelFileError(f"{path}: malformed model file ({type(exc).__name__}: {exc})") from None

    def save(self, path: str | Path) -> None:
        """Write the versioned JSON model file (temp file, then rename)."""
        save_model(Path(path), self._content())

    def save_tiktoken(self, path: str | Path) -> None:
        """Write the rank table in tiktoken's format (`base64(token) rank` per line)."""
        save_tiktoken_ranks(Path(path), self.mergeable_ranks())

    def save_hf(self, path: str | Path) -> None:
        """Write a HuggingFace `tokenizer.json` that gives our ids (`Tokenizer.from_file(path)
        .encode(text, add_special_tokens=False).ids`; see export.py). Only for merges: a rank
        table (`from_tiktoken`) has no merge list for HF's BPE model."""
        if not self.has_merges:
            raise ValueError(
                f"{self.name or 'this model'} is a tiktoken rank table, without the merge list HF's BPE "
                "model needs; export it with save_tiktoken or to_tiktoken instead"
            )
        write_tokenizer_json(Path(path), pattern=self.pattern, merges=self.merges, special_tokens=self.special_tokens,
                             first_id=self._offset)

    # ---------------------------------------------------------------- encoding

    def encode(self, text: str, *, allowed_special: Literal["all"] | Collection[str] = ()) -> list[int]:
        """Token ids for `text`.

        Special tokens' text is encoded as ordinary text unless listed in `allowed_special`
        (or `allowed_special="all"`), so user input cannot inject them.
        """
        if allowed_special == "all":
            allowed = set(self.special_tokens)
        else:
            allowed = set(allowed_special)
            unknown = allowed - self.special_tokens.keys()
            if unknown:
                raise ValueError(
                    f"allowed_special names tokens this model does not have: {sorted(unknown)}; "
                    f"its special tokens are {sorted(self.special_tokens)}"
                )
        if not allowed:
            return self.encode_ordinary(text)
        # Longest first, so that a special token that contains another one wins.
        special_re = regex.compile("|".join(regex.escape(t) for t in sorted(allowed, key=len, reverse=True)))
        ids: list[int] = []
        start = 0
        for match in special_re.finditer(text):
            ids.extend(self.encode_ordinary(text[start : match.start()]))
            ids.append(self.special_tokens[match.group()])
            start = match.end()
        ids.extend(self.encode_ordinary(text[start:]))
        return ids

    def encode_ordinary(self, text: str) -> list[int]:
        """Token ids for `text`, with every special token's text treated as ordinary text."""
        cache = self._cache
        ids: list[int] = []
        extend = ids.extend
        try:
            for piece in self._split(text):
                cached = cache.get(piece)
                if cached is None:
                    cached = self._encode_piece(piece)
                extend(cached)
        except UnicodeEncodeError:
            raise _surrogate_error(text) from None
        return ids

    def encode_batch(
        self, texts: Iterable[str], *, allowed_special: Literal["all"] | Collection[str] = ()
    ) -> list[list[int]]:
        """`encode` over many texts (one thread: the cache is shared between them)."""
        check_texts(texts)
        return [self.encode(text, allowed_special=allowed_special) for text in texts]

    def _encode_piece(self, piece: str) -> list[int]:
        data = piece.encode("utf-8")
        ranks, left_lengths = self._ranks, self._left_lengths
        if left_lengths is None and (rank := ranks.get(data)) is not None:
            # subtle: tiktoken returns a pre-token that is itself a token as that token, without
            # running the merges; with its byte rule the merges could split it differently.
            ids = [rank]
        elif piece.isascii() or (len(data) > LONG_PIECE_BYTES and len(data) <= 2 * len(piece)):
            ids = merge_piece(data, ranks, left_lengths)
        elif len(data) > 2 * len(piece) > 2:
            # Cuts fall only between two multi-byte characters: look for them where most
            # characters take three bytes (CJK, Hangul), not in Latin words with an accent or two,
            # nor in two-byte scripts, where cuts are rare (1.17 segments per capitalised Russian
            # word) and the search cost Russian unseen text 7-12% of its time.
            segments = self._splitter.coarse_split(piece) or [piece]
            ids = self._encode_segments(segments, self._encode_coarse_segment)
        else:
            ids = merge_parts(self._splitter.initial_parts(data), ranks, left_lengths)
        cache = self._cache
        if len(cache) >= self._cache_entries:
            # Bounded: drop the oldest quarter (dicts keep insertion order).
            for key in list(islice(cache, self._cache_entries // 4 or 1)):
                del cache[key]
        if self._offset:
            ids = [i + self._offset for i in ids]
        cache[piece] = ids
        return ids

    def _encode_segments(self, segments: list[str], encode_new: Callable[[str], list[int]]) -> list[int]:
        """Ids of consecutive segments of a pre-token, cut at safe places, each cached on its own;
        `encode_new` encodes a segment the cache does not hold.

        subtle: a segment is merged even if it is a whole token (tiktoken's shortcut applies to
        pre-tokens only), so segments have their own cache."""
        segment_cache = self._segment_cache
        if len(segment_cache) >= self._cache_entries:
            segment_cache.clear()
        ids: list[int] = []
        for segment in segments:
            segment_ids = segment_cache.get(segment)
            if segment_ids is None:
                segment_ids = segment_cache[segment] = encode_new(segment)
            ids.extend(segment_ids)
        return ids

    def _encode_coarse_segment(self, segment: str) -> list[int]:
        """A coarse segment alone: cut again at every safe pair of characters, then merged."""
        finer = self._splitter.split(segment)
        if len(finer) == 1:
            return self._merge_segment(segment)
        return self._encode_segments(finer, self._merge_segment)  # no safe cut is left inside these

    def _merge_segment(self, segment: str) -> list[int]:
        data = segment.encode("utf-8")
        return merge_piece(data, self._ranks, self._left_lengths, self._splitter.initial_parts(data))

    def clear_cache(self) -> None:
        """Forget every cached pre-token (for timing a cold encoder)."""
        self._cache.clear()
        self._segment_cache.clear()
        self._splitter.clear_memo()

    def cache_snapshot(self) -> CacheSnapshot:
        """A copy of everything the encoder has learnt from the text it saw (pre-tokens, segments,
        the splitter's memos), so that timing can repeat "warm up, then time new text" without
        encoding the warm-up again: `restore_cache(snapshot)` puts the encoder back exactly."""
        return CacheSnapshot(dict(self._cache), dict(self._segment_cache), self._splitter.memo_snapshot())

    def restore_cache(self, snapshot: CacheSnapshot) -> None:
        """Put every cache back as it was when `snapshot` was taken."""
        self._cache.clear()
        self._cache.update(snapshot.pretokens)
        self._segment_cache.clear()
        self._segment_cache.update(snapshot.segments)
        self._splitter.restore_memo(snapshot.splitter_memo)

    # ---------------------------------------------------------------- decoding

    def decode_bytes(self, ids: Iterable[int]) -> bytes:
        """The bytes that `ids` stand for."""
        return b"".join(self.token_bytes(i) for i in ids)

    def decode(self, ids: Iterable[int], *, errors: str = "replace") -> str:
        """Text for `ids`; bytes that are not valid UTF-8 become U+FFFD (`errors="strict"` raises)."""
        return self.decode_bytes(ids).decode("utf-8", errors=errors)

    def token_bytes(self, token_id: int) -> bytes:
        """The bytes of one token."""
        vocab = self._vocab
        if type(token_id) is not int:
            token_id = as_token_id(token_id)
        index = token_id - self._offset
        if 0 <= index < len(vocab) and (data := vocab[index]) is not None:
            return data
        try:
            return self._special_decoder[token_id]
        except (KeyError, TypeError):
            raise ValueError(f"token id {token_id!r} is not in this vocabulary (size {self.vocab_size})") from None

    def decoder(self) -> StreamingDecoder:
        """An incremental decoder: feed ids one at a time, get text at whole characters."""
        return StreamingDecoder(self)

    # ---------------------------------------------------------------- facts

    @property
    def vocab_size(self) -> int:
        """Number of ids: one more than the largest id (as tiktoken's `n_vocab`)."""
        largest = max(self._special_decoder, default=-1)
        return max(len(self._vocab) + self._offset, largest + 1)

    @property
    def has_merges(self) -> bool:
        """True for our merges, False for an imported rank table."""
        return self._left_lengths is not None

    @property
    def fingerprint(self) -> str:
        """SHA-256 over the canonical content: pattern, merges (or ranks), special tokens."""
        if self._fingerprint is None:
            self._fingerprint = fingerprint_of(self._content())
        return self._fingerprint

    def _content(self) -> ModelContent:
        """What a model file holds (files.py knows nothing of this class)."""
        return ModelContent(pattern=self.pattern, special_tokens=dict(self.special_tokens), name=self.name,
                            merges=self.merges if self.has_merges else None,
                            ranks=None if self.has_merges else self._ranks, id_layout=self.id_layout)

    def mergeable_ranks(self) -> dict[bytes, int]:
        """token bytes -> id for every non-special token (tiktoken's `mergeable_ranks`)."""
        return {data: rank + self._offset for data, rank in self._ranks.items()}

    def to_tiktoken(self):  # -> tiktoken.Encoding
        """A `tiktoken.Encoding` running this model (tiktoken's byte rule; see encode.py).

        A named pattern gives our ids exactly. A custom regex runs in tiktoken's Rust regex
        engine, whose syntax differs from the `regex` package's in places (POSIX classes such as
        `[[:alpha:]]`, for one): check its ids on your text. A pattern that can match the empty
        string is refused (tiktoken panics on one; see `export.tiktoken_encoding`)."""
        return tiktoken_encoding(
            name=self.name or f"bpe-{self.pattern_name}-{self.vocab_size}",
            pattern=self.pattern,
            ranks=self.mergeable_ranks(),
            special_tokens=self.special_tokens,
        )

    def __repr__(self) -> str:
        kind = f"merges={len(self.merges)}" if self.has_merges else f"ranks={len(self._ranks)}"
        return (
            f"ByteLevelBPE(name={self.name!r}, pattern={self.pattern_name!r}, {kind}, "
            f"special_tokens={len(self.special_tokens)}, vocab_size={self.vocab_size})"
        )


@dataclass(frozen=True)
class CacheSnapshot:
    pretokens: dict[str, list[int]]
    segments: dict[str, list[int]]
    splitter_memo: tuple[dict, ...]


class StreamingDecoder:
    """Decode ids as they arrive; emit text only at complete UTF-8 characters.

    A token can end inside a character (a CJK character is 3 bytes and may be split over two
    tokens), so bytes are held back until the character is complete.

    >>> bpe = ByteLevelBPE(merges=[], pattern="none")
    >>> d = bpe.decoder()
    >>> [d.feed(i) for i in "é".encode()] + [d.flush()]
    ['', 'é', '']
    """

    def __init__(self, model: ByteLevelBPE) -> None:
        self._model = model
        self._utf8 = codecs.getincrementaldecoder("utf-8")(errors="replace")

    def feed(self, token_id: int) -> str:
        return self._utf8.decode(self._model.token_bytes(token_id))

    def flush(self) -> str:
        """Whatever is left; an unfinished character becomes U+FFFD."""
        return self._utf8.decode(b"", final=True)


# -------------------------------------------------------------------- plumbing


def _splitter(compiled: regex.Pattern[str] | None, pattern: str | None):
    if compiled is None:
        return lambda text: [text] if text else []
    if pattern in PATTERNS.values():
        return findall_of(compiled)  # a published pattern: no backtracking to bound, no limit to pay for
    return bounded_findall(compiled, pattern)


def _surrogate_error(text: str) -> ValueError:
    for position, char in enumerate(text):
        if 0xD800 <= ord(char) <= 0xDFFF:
            return ValueError(
                f"text has a lone surrogate U+{ord(char):04X} at index {position}, which UTF-8 cannot "
                "encode; fix the input, e.g. text.encode('utf-16', 'surrogatepass').decode('utf-16', 'replace') "
                "(joins a surrogate pair split in two, replaces a lone one with U+FFFD)"
            )
    return ValueError("text cannot be encoded as UTF-8")

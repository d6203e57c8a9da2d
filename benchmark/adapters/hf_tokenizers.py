"""HuggingFace `tokenizers`: WordPiece and byte-level BPE trained at each size, and user
`tokenizer.json` files.

- WordPiece is set up as multilingual BERT (cased) is: BERT normaliser without lowercasing or
  accent stripping (an uncased model would fold Czech and Spanish accents and decompose Korean
  syllables), BERT pre-tokeniser (splits at spaces and punctuation, every CJK ideograph alone),
  `[UNK]` for a word it cannot spell, `##` continuation pieces. Its decoder joins words with
  spaces, so `decode(encode(s)) != s` wherever punctuation touches a word: that is the documented
  exception to the round-trip rule, and the reason WordPiece's round-trip rate is low.
- Byte-level BPE uses the same pre-tokenisation as our `bpe/<mix>-*` (the cl100k regex, then
  GPT-2's byte-to-character map) and the same `min_frequency=2`, so it is the reference our
  trainer should match in compression.

WordPiece is trained by hf_wordpiece.py, HF's WordPieceTrainer step for step with its `##` forms
numbered in code point order: HF's own numbers them in hash-map order, which changes from one
training to the next and breaks ties between pairs, so the same text gave a different file each
time (huggingface/tokenizers#1794). Byte-level BPE is trained by HF's BpeTrainer, which is
deterministic (its alphabet is sorted and it has no `##` forms).

Encoding is `add_special_tokens=False` (no [CLS]/[SEP]), without truncation or padding. HF runs
on one thread here: `RAYON_NUM_THREADS=1` and `TOKENIZERS_PARALLELISM=false` are set before the
library is first imported (measure timings are single-thread for every tokenizer).
"""

from __future__ import annotations

import json
import os
import time
from functools import lru_cache
from pathlib import Path
from typing import Any, Callable, NamedTuple, Sequence

from benchmark.adapters.base import Adapter, Recipe, Skipped, readable_bytes, sha256_hex
from benchmark.adapters.cache import TrainingCache
from benchmark.adapters.table import SPACES, TRAINED, Family, file_id

WORDPIECE_FAMILY = Family("hf-wordpiece", "HF WordPiece", TRAINED, order=200, id_prefix="hf/wordpiece-",
                          round_trip=SPACES)
BPE_FAMILY = Family("hf-bpe", "HF byte-level BPE", TRAINED, order=170, id_prefix="hf/bpe-", byte_level=True)
FAMILIES = (BPE_FAMILY, WORDPIECE_FAMILY)
WORDPIECE = WORDPIECE_FAMILY.family
BPE = BPE_FAMILY.family
MODEL_SUFFIX = ".tokenizer.json"
UNK = "[UNK]"
MIN_FREQUENCY = 2


def _import_tokenizers():
    # Before the first import: rayon reads these when it builds its thread pool.
    os.environ.setdefault("RAYON_NUM_THREADS", "1")
    os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
    import tokenizers

    return tokenizers


@lru_cache(maxsize=1)
def _byte_decoder() -> dict[str, int]:
    """GPT-2's byte-level map, reversed: the printable character HF shows -> the byte."""
    tokenizers = _import_tokenizers()
    alphabet = tokenizers.pre_tokenizers.ByteLevel.alphabet()
    # ByteLevel.alphabet() is unordered; rebuild GPT-2's bytes_to_unicode to get the pairing.
    printable = list(range(ord("!"), ord("~") + 1)) + list(range(ord("¡"), ord("¬") + 1)) + list(range(ord("®"), ord("ÿ") + 1))
    chars = printable[:]
    n = 0
    for b in range(256):
        if b not in printable:
            printable.append(b)
            chars.append(256 + n)
            n += 1
    mapping = {chr(c): b for b, c in zip(printable, chars)}
    assert set(mapping) == set(alphabet), "GPT-2 byte map does not match tokenizers' ByteLevel alphabet"
    return mapping


class HFAdapter(Adapter):
    def __init__(self, tokenizer_json: str, *, id: str, family: str, train_seconds: float | None,
                 settings: dict[str, Any]) -> None:
        tokenizers = _import_tokenizers()
        self.tokenizer = tokenizers.Tokenizer.from_str(tokenizer_json)
        self.recipe = Recipe(f"{__name__}:HFAdapter", (tokenizer_json,),
                             {"id": id, "family": family, "train_seconds": train_seconds, "settings": settings})
        self.id = id
        self.family = family
        self.vocab_size = self.tokenizer.get_vocab_size(with_added_tokens=True)
        self.fingerprint = sha256_hex(tokenizer_json.encode("utf-8"))
        self.train_seconds = train_seconds
        config = json.loads(tokenizer_json)
        model = config.get("model") or {}
        unk_token = model.get("unk_token")
        self.unk_id = self.tokenizer.token_to_id(unk_token) if unk_token else None
        self._byte_level = _uses_byte_level(config)
        self.has_cache = model.get("type") == "BPE"  # HF's BPE model caches words
        # Every refill after `_clear_cache` keeps ~4 MB (tokenizers 0.23.3): timed in a child process.
        self.reset_keeps_memory = self.has_cache
        self._continuation = model.get("continuing_subword_prefix") if model.get("type") == "WordPiece" else None
        if model.get("byte_fallback"):
            vocab = self.tokenizer.get_vocab(with_added_tokens=False)
            self.byte_fallback_ids = frozenset(i for piece, i in vocab.items() if _is_byte_piece(piece))
        self.settings = {
            "library": f"tokenizers {tokenizers.__version__}",
            "normalizer": _stage(config.get("normalizer")),
            "pre_tokenizer": _stage(config.get("pre_tokenizer")),
            "model": _stage({k: v for k, v in model.items() if k not in ("vocab", "merges")}),
            "decoder": _stage(config.get("decoder")),
            "special_tokens": "not added (add_special_tokens=False)",
            **settings,
        }
        encode = self._encode_encoding = _without_panics(self.tokenizer.encode)
        self._encode = lambda text: encode(text, add_special_tokens=False).ids
        self._added_ids = frozenset(self.tokenizer.get_added_tokens_decoder())
        # Whether the tokens' bytes laid end to end are the text: byte-level, nothing normalised.
        self._bytes_are_text = self._byte_level and config.get("normalizer") is None
        self.tokenizer.no_truncation()
        self.tokenizer.no_padding()

    def encode(self, text: str) -> list[int]:
        return self._encode(text)

    def decode(self, ids: Sequence[int]) -> str:
        return self.tokenizer.decode(list(ids), skip_special_tokens=False)

    def token_text(self, token_id: int) -> str:
        piece = self.tokenizer.id_to_token(token_id)
        if piece is None:
            return f"<id {token_id}>"
        if self._byte_level:
            table = _byte_decoder()
            if all(ch in table for ch in piece):
                return readable_bytes(bytes(table[ch] for ch in piece))
        if token_id in self.byte_fallback_ids:
            return f"<{piece[3:5].lower()}>"
        return piece

    def encode_with_spans(self, text: str) -> tuple[list[int], Sequence[int], Sequence[int]]:
        """Byte-level models without a normaliser: each token's bytes, end to end (exact, also
        for a token holding part of a character). Others: HF's offsets, characters of the
        original text, turned into UTF-8 bytes."""
        if self._bytes_are_text:
            return super().encode_with_spans(text)
        encoding = self._encode_encoding(text, add_special_tokens=False)
        offsets = encoding.offsets
        if text.isascii():
            return encoding.ids, [a for a, _ in offsets], [b for _, b in offsets]
        to_byte = char_to_byte_offsets(text)
        return encoding.ids, [to_byte[a] for a, _ in offsets], [to_byte[b] for _, b in offsets]

    def token_bytes(self, token_id: int) -> bytes | None:
        return self._piece_bytes(token_id, self.tokenizer.id_to_token(token_id))

    def _piece_bytes(self, token_id: int, piece: str | None) -> bytes | None:
        """`token_bytes` from the entry's piece, read once by the caller."""
        if token_id in self._added_ids or piece is None:
            return None
        if token_id in self.byte_fallback_ids:
            return bytes([int(piece[3:5], 16)])
        if self._byte_level:
            table = _byte_decoder()
            if all(ch in table for ch in piece):
                return bytes(table[ch] for ch in piece)
        if self._continuation and piece.startswith(self._continuation):
            piece = piece[len(self._continuation):]
        return piece.replace("\u2581", " ").encode("utf-8")

    def entry_text(self, token_id: int) -> str | None:
        piece = self.tokenizer.id_to_token(token_id)
        if self._continuation and piece is not None and piece.startswith(self._continuation):
            return None  # a continuation piece: never the start of a word, so never alone
        data = self._piece_bytes(token_id, piece)  # the piece read once, not again by token_bytes
        if not data:
            return None
        try:
            return data.decode("utf-8")
        except UnicodeDecodeError:
            return None

    @property
    def entry_text_rule(self) -> str:
        if self._continuation:
            return f"entries that start a word (no {self._continuation}), whole UTF-8, special tokens left out"
        return super().entry_text_rule

    def token_strings(self, text: str) -> list[str]:
        if self._continuation is None:
            return super().token_strings(text)
        # WordPiece drops spaces and marks continuations with "##"; the offsets give back the
        # original text of each token, with the gap before it, so the pieces read like the
        # sentence ("Once", " upon", ","). An unknown word shows as [UNK].
        encoding = self._encode_encoding(text, add_special_tokens=False)
        out = []
        previous_end = 0
        for token_id, (start, end) in zip(encoding.ids, encoding.offsets):
            gap = text[previous_end:start] if start >= previous_end else ""
            piece = self.token_text(token_id) if token_id == self.unk_id else text[start:end]
            out.append(gap + piece)
            previous_end = max(previous_end, end)
        return out

    file_suffix = ".tokenizer.json"

    def save(self, path: Path) -> None:
        from benchmark.plumbing.fileio import atomic_write_bytes

        atomic_write_bytes(Path(path), self.tokenizer.to_str().encode("utf-8"))

    def reset_cache(self) -> None:
        # HF's BPE model keeps a word -> tokens cache; empty it for "unseen text" timing.
        clear = getattr(self.tokenizer.model, "_clear_cache", None)
        if clear is not None:
            clear()


def char_to_byte_offsets(text: str) -> list[int]:
    """UTF-8 byte offset of every character offset of `text`, 0 to len(text) included."""
    offsets = [0]
    total = 0
    for ch in text:
        total += len(ch.encode("utf-8"))
        offsets.append(total)
    return offsets


def _stage(config: Any) -> Any:
    """A pipeline stage's settings as HF stores them (without large tables)."""
    if config is None:
        return None
    return json.loads(json.dumps(config))


def _uses_byte_level(config: dict) -> bool:
    text = json.dumps({k: config.get(k) for k in ("pre_tokenizer", "decoder")})
    return '"ByteLevel"' in text


def _is_byte_piece(piece: str) -> bool:
    return len(piece) == 6 and piece.startswith("<0x") and piece.endswith(">")


def _new_wordpiece():
    tokenizers = _import_tokenizers()
    from tokenizers import decoders, models, normalizers, pre_tokenizers

    tok = tokenizers.Tokenizer(models.WordPiece(unk_token=UNK))
    tok.normalizer = normalizers.BertNormalizer(clean_text=True, handle_chinese_chars=True,
                                                strip_accents=False, lowercase=False)
    tok.pre_tokenizer = pre_tokenizers.BertPreTokenizer()
    tok.decoder = decoders.WordPiece()
    return tok


def wordpiece_from_vocab(vocab: Sequence[str]):
    """Our WordPiece pipeline holding `vocab` (entry i with id i), as HF's trainer leaves it."""
    from tokenizers import models

    tok = _new_wordpiece()
    tok.model = models.WordPiece({token: i for i, token in enumerate(vocab)}, unk_token=UNK)
    tok.add_special_tokens([UNK])  # as train_from_iterator adds its trainer's special tokens
    return tok


def _wordpiece_trainer(texts: Sequence[str], sizes: Sequence[int]):
    """size -> (tokenizer, seconds), every size cut from one run to the largest, made at the first
    call: a run stops at its size, so a smaller one's vocabulary is a larger one's first entries (a
    size below the alphabet keeps the alphabet whole, and is skipped). A size's seconds are
    counting the words, then the run until it reached that size."""
    from benchmark.adapters import hf_wordpiece

    swept: dict[int, tuple[Any, float]] = {}

    def train(size: int) -> tuple[Any, float]:
        if not swept:
            started = time.perf_counter()
            word_counts = hf_wordpiece.count_words(_new_wordpiece(), texts)
            counted = time.perf_counter() - started
            run = hf_wordpiece.train_vocab(word_counts, vocab_size=max(sizes), min_frequency=MIN_FREQUENCY,
                                           special_tokens=[UNK], checkpoints=sizes)
            swept.update({n: (wordpiece_from_vocab(run.vocab[:max(n, run.n_initial)]), counted + run.seconds_at[n])
                          for n in sizes})
        return swept[size]

    return train


def _new_bpe():
    tokenizers = _import_tokenizers()
    from tokenizers import Regex, decoders, models, pre_tokenizers

    from benchmark.bpe.patterns import CL100K_PATTERN

    tok = tokenizers.Tokenizer(models.BPE())
    tok.pre_tokenizer = pre_tokenizers.Sequence([
        pre_tokenizers.Split(Regex(CL100K_PATTERN), behavior="isolated"),
        pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=False),
    ])
    tok.decoder = decoders.ByteLevel()
    return tok


def _bpe_trainer(texts: Sequence[str], sizes: Sequence[int]):
    """size -> (tokenizer, seconds): HF's BpeTrainer, once per size."""
    from tokenizers import pre_tokenizers, trainers

    def train(size: int) -> tuple[Any, float]:
        started = time.perf_counter()
        tok = _new_bpe()
        tok.train_from_iterator(texts, trainer=trainers.BpeTrainer(
            vocab_size=size, min_frequency=MIN_FREQUENCY, show_progress=False,
            initial_alphabet=pre_tokenizers.ByteLevel.alphabet()))
        return tok, time.perf_counter() - started

    return train


def _wordpiece_trainer_source() -> dict[str, str]:
    """Our WordPiece trainer has no library version: any edit of its code is a new cache key."""
    from benchmark.adapters import hf_wordpiece

    return {"trainer_sha256": sha256_hex(Path(hf_wordpiece.__file__).read_bytes())}


class _Pipeline(NamedTuple):
    family: Family
    new: Callable[[], Any]  # the untrained pipeline
    trainer: Callable[[Sequence[str], Sequence[int]], Callable[[int], tuple[Any, float]]]  # (texts, sizes) -> train
    settings: dict[str, Any]  # in the rows and the cache key: WordPiece's trainer is ours, not HF's
    key: Callable[[], dict[str, Any]]  # in the cache key only


WORDPIECE_SETTINGS = {
    "trainer": "benchmark.adapters.hf_wordpiece: HF's WordPieceTrainer, ## forms in code point order",
    "train_seconds": "counting the words, then the single training run to the largest size until it reached this size",
}
PIPELINES = {
    WORDPIECE: _Pipeline(WORDPIECE_FAMILY, _new_wordpiece, _wordpiece_trainer, WORDPIECE_SETTINGS,
                         _wordpiece_trainer_source),
    BPE: _Pipeline(BPE_FAMILY, _new_bpe, _bpe_trainer, {}, dict),
}


def train_sizes(family: str, texts: Sequence[str], texts_sha256: str, vocab_sizes: Sequence[int],
                cache: TrainingCache) -> dict[int, Adapter | Skipped]:
    """Each size from the cache, else trained (BPE: one run per size; WordPiece: one run for all).
    A WordPiece alphabet larger than the size is a skip: the trainer would silently return a
    bigger vocabulary than asked for."""
    from benchmark.adapters.trained import load_or_train

    tokenizers = _import_tokenizers()
    pipeline = PIPELINES[family]
    spec = pipeline.family
    recipe = json.loads(pipeline.new().to_str())  # the untrained pipeline: part of the cache key
    key_extra = {**pipeline.settings, **pipeline.key()}

    def settings(size: int) -> dict[str, Any]:
        return {"min_frequency": MIN_FREQUENCY, "trained_vocab_size": size, **pipeline.settings}

    train_at = pipeline.trainer(texts, vocab_sizes)

    def train(size: int) -> tuple[bytes, float] | str:
        tok, seconds = train_at(size)
        n_vocab = tok.get_vocab_size(with_added_tokens=True)
        if n_vocab > size:
            return (f"vocab_size {size} is below the WordPiece alphabet of the training text "
                    f"({n_vocab} entries: its characters, their ## forms and [UNK])")
        return tok.to_str().encode("utf-8"), seconds

    return load_or_train(
        spec, vocab_sizes, cache, texts_sha256=texts_sha256, library_version=tokenizers.__version__,
        suffix=MODEL_SUFFIX, key_settings=lambda size: {"recipe": recipe, "min_frequency": MIN_FREQUENCY,
                                                        "vocab_size": size, **key_extra},
        train=train,
        build=lambda model, size, seconds: HFAdapter(model.decode("utf-8"), id=spec.trained_id(size), family=family,
                                                     train_seconds=seconds, settings=settings(size)),
        settings=settings)


def from_file(path: Path) -> Adapter:
    """A user's `tokenizer.json` (any HF model type), encoded without special tokens."""
    text = Path(path).read_text(encoding="utf-8")
    return HFAdapter(text, id=file_id(path), family="file-hf", train_seconds=None, settings={"source": str(path)})


def is_panic(exc: BaseException) -> bool:
    """A Rust panic in HF tokenizers: pyo3's PanicException, a BaseException of a module made at run time."""
    return type(exc).__name__ == "PanicException"


class GaveUp(ValueError):
    """HF tokenizers gave up on a text (a Rust panic, turned into an ordinary error)."""


def _without_panics(encode):
    """`encode`, with the Rust panic HF raises on a regex it gives up on (a PanicException, which
    is not an Exception) as a GaveUp error: the tokenizer fails on that text, the run goes on."""
    def guarded(text: str, **options):
        try:
            return encode(text, **options)
        except BaseException as exc:
            if not is_panic(exc):
                raise
            raise GaveUp(f"HF tokenizers gave up on this text ({str(exc).strip().splitlines()[0][:120]})") from None

    return guarded

"""tiktoken's `cl100k_base` and `o200k_base`, built offline, other vendors' rank files, and user
rank files.

`tiktoken.get_encoding` would download the rank file on first use; we build `tiktoken.Encoding`
from the ranks `benchmark.bpe.openai_ranks` reads (hash-checked) from the bpe-openai package.
Other vendors' tiktoken-format vocabularies (Llama 3 and 4, Qwen, Mistral's Tekken) are built the
same way by `vendor_rank_adapter`, with the vendor's own pattern.
Encoding uses `encode_ordinary`: special tokens' text is ordinary text, as the contract says.
"""

from __future__ import annotations

import functools
import unicodedata
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Sequence

from benchmark.adapters.base import Adapter, Recipe, readable_bytes, sha256_hex, source_info
from benchmark.adapters.table import PRODUCTION, Family, Pretrained, file_id
from benchmark.bpe.openai_ranks import ENCODINGS, rank_file
from benchmark.plumbing.errors import BenchmarkError
from benchmark.plumbing.pinned import PinnedFile

FAMILY = Family("tiktoken", "tiktoken (OpenAI)", PRODUCTION, order=10, byte_level=True)
TOKENIZERS = tuple(Pretrained(f"{FAMILY.family}/{name}", FAMILY, name, rank_file(name)) for name in ENCODINGS)


class EncodingAdapter(Adapter):
    """Anything with tiktoken's `Encoding` API (tiktoken's, bpe_openai's) behind the interface:
    `encode_ordinary`, `decode(errors="replace")`, `decode_single_token_bytes`."""

    file_suffix = ".tiktoken"

    def __init__(self, encoding, *, id: str, family: str, fingerprint: str, library: str, pre_tokenizer: str,
                 model: str) -> None:
        self.encoding = encoding
        self.id = id
        self.family = family
        self.vocab_size = encoding.n_vocab
        self.fingerprint = fingerprint
        self._encode = encoding.encode_ordinary
        self.settings = {
            "library": library,
            "normalizer": None,
            "pre_tokenizer": pre_tokenizer,
            "model": model,
            "decoder": "bytes, UTF-8 with replacement",
            "special_tokens": "not parsed (encode_ordinary)",
        }

    def encode(self, text: str) -> list[int]:
        return self._encode(text)

    def decode(self, ids: Sequence[int]) -> str:
        return self.encoding.decode(ids, errors="replace")

    def token_text(self, token_id: int) -> str:
        return readable_bytes(self.encoding.decode_single_token_bytes(token_id))

    def token_bytes(self, token_id: int) -> bytes | None:
        return self._ordinary_bytes.get(token_id)  # special tokens are not text under the contract

    @functools.cached_property
    def _ordinary_bytes(self) -> dict[int, bytes]:
        return {rank: token for token, rank in self.encoding._mergeable_ranks.items()}

    @functools.cached_property
    def _byte_lengths(self) -> list[int]:
        lengths = [0] * self.vocab_size
        for token, rank in self.encoding._mergeable_ranks.items():
            lengths[rank] = len(token)
        return lengths

    def save(self, path: Path) -> None:
        """The ranks as a tiktoken rank file (`<base64 token> <rank>` lines); the pattern is not in it."""
        import base64

        from benchmark.plumbing.fileio import atomic_write_bytes

        ranks = sorted(self.encoding._mergeable_ranks.items(), key=lambda item: item[1])
        atomic_write_bytes(Path(path), b"".join(base64.b64encode(token) + b" %d\n" % rank for token, rank in ranks))


class TiktokenAdapter(EncodingAdapter):
    def __init__(self, encoding, *, id: str, family: str, fingerprint: str, source: str) -> None:
        import tiktoken

        super().__init__(encoding, id=id, family=family, fingerprint=fingerprint,
                         library=f"tiktoken {tiktoken.__version__}", pre_tokenizer="regex split",
                         model=f"byte-level BPE ranks ({source})")
        self.settings["pattern"] = encoding._pat_str


class NFCTiktokenAdapter(TiktokenAdapter):
    """A vocabulary whose vendor NFC-normalises text before encoding (Qwen): so does this adapter,
    and `decode` gives the NFC text back (the round-trip column shows it on text not in NFC)."""

    def __init__(self, encoding, **kwargs) -> None:
        super().__init__(encoding, **kwargs)
        encode_ordinary, normalize = encoding.encode_ordinary, unicodedata.normalize
        self._encode = lambda text: encode_ordinary(normalize("NFC", text))
        self.settings["normalizer"] = "NFC (unicodedata.normalize), as the vendor's encoder does"

    def encode_with_spans(self, text: str) -> tuple[list[int], Sequence[int], Sequence[int]]:
        """The tokens' bytes lie end to end over the NFC text: map each span back to `text`, one
        grapheme cluster at a time (NFC composes within a cluster; a token that starts or ends
        inside a cluster that normalisation changed gets the whole cluster)."""
        ids, starts, ends = super().encode_with_spans(text)
        if unicodedata.is_normalized("NFC", text):
            return ids, starts, ends
        import bisect

        import regex

        original, normal = [0], [0]  # byte offsets where each cluster ends, in text and in its NFC
        for cluster in regex.findall(r"\X", text):
            original.append(original[-1] + len(cluster.encode("utf-8")))
            normal.append(normal[-1] + len(unicodedata.normalize("NFC", cluster).encode("utf-8")))
        if normal[-1] != (ends[-1] if ends else 0):  # composition crossed a cluster: no map
            return ids, [0] * len(ids), [original[-1]] * len(ids)

        def back(offset: int, *, at_end: bool) -> int:
            k = bisect.bisect_left(normal, offset)
            if k < len(normal) and normal[k] == offset:
                return original[k]
            return original[k] if at_end else original[k - 1]

        return ids, [back(a, at_end=False) for a in starts], [back(b, at_end=True) for b in ends]


@dataclass(frozen=True)
class RankVocabulary:
    """A vendor's tiktoken-format vocabulary, as its own code builds it: token bytes -> id, the
    pre-tokenisation regex, and the model's vocabulary size (the ranks and the special ids)."""

    ranks: dict[bytes, int]
    pattern: str
    n_vocab: int
    special_ids: str  # where the vendor's special tokens sit, e.g. "128000-128255"


def vendor_rank_adapter(vocabulary: RankVocabulary, vendor_file: PinnedFile, *, id: str, family: str,
                        recipe: Recipe, nfc: bool = False) -> Adapter:
    """tiktoken on a vendor's ranks and pattern. The special tokens are left out of the encoding
    (the contract parses none), but `vocab_size` counts them: it is the model's embedding table."""
    import tiktoken

    encoding = tiktoken.Encoding(name=id, pat_str=vocabulary.pattern, mergeable_ranks=vocabulary.ranks,
                                 special_tokens={})
    adapter_class = NFCTiktokenAdapter if nfc else TiktokenAdapter
    adapter = adapter_class(encoding, id=id, family=family, fingerprint=vendor_file.sha256,
                            source=f"{vendor_file.file}, sha256-checked")
    adapter.vocab_size = vocabulary.n_vocab
    adapter.settings["special_tokens"] = (f"not parsed (encode_ordinary); the vendor's special tokens are ids "
                                          f"{vocabulary.special_ids}, counted in vocab_size")
    adapter.source = source_info(vendor_file)
    adapter.recipe = recipe
    return adapter


def rank_file_patterns() -> tuple[str, ...]:
    """Names of the patterns a bare tiktoken rank file can be split with (`benchmark.bpe.PATTERNS`,
    minus "none": tiktoken needs a regex)."""
    from benchmark.bpe.patterns import PATTERNS

    return tuple(name for name, text in PATTERNS.items() if text is not None)


def check_rank_file_pattern(pattern: str) -> str:
    """The pattern's regex text, or a BenchmarkError naming the known names."""
    from benchmark.bpe.patterns import PATTERNS

    if pattern not in rank_file_patterns():
        raise BenchmarkError(
            f"unknown rank-file pattern {pattern!r}; use one of {', '.join(rank_file_patterns())}"
        )
    return PATTERNS[pattern]



def vendor_file(name: str) -> PinnedFile:
    """Where OpenAI's `name` ranks are read from (benchmark.bpe.openai_ranks reads and checks them)."""
    return rank_file(name)


@lru_cache(maxsize=None)
def rank_file_fingerprint(name: str) -> str:
    """sha256 of the uncompressed official rank file (shared with the bpe_openai adapter)."""
    from benchmark.bpe.openai_ranks import read_rank_file

    return sha256_hex(read_rank_file(name))


@lru_cache(maxsize=None)
def _encoding(name: str):  # -> tiktoken.Encoding
    """tiktoken's Encoding for `name`, built once a process: it is immutable, and each build parses
    and checks the whole rank file again (a run loads cl100k_base as its yardstick too)."""
    import tiktoken

    from benchmark.bpe.openai_ranks import load_ranks, spec

    encoding_spec = spec(name)
    return tiktoken.Encoding(
        name=name,
        pat_str=encoding_spec.pattern,
        mergeable_ranks=load_ranks(name),
        special_tokens=dict(encoding_spec.special_tokens),
    )


def load(name: str) -> Adapter:
    """`tiktoken/<name>` from the offline rank file."""
    fingerprint = rank_file_fingerprint(name)
    encoding = _encoding(name)
    adapter = TiktokenAdapter(encoding, id=f"{FAMILY.family}/{name}", family=FAMILY.family, fingerprint=fingerprint,
                              source=f"{name}, from bpe_openai/data, sha256-checked")
    adapter.recipe = Recipe(f"{__name__}:load", (name,))
    adapter.source = source_info(vendor_file(name))
    return adapter


def from_rank_file(path: Path, *, pattern: str = "cl100k") -> Adapter:
    """A tiktoken rank file (`<base64 token> <rank>` lines), split with a named pattern."""
    return from_rank_bytes(Path(path).read_bytes(), source=str(path), pattern=pattern)


def from_rank_bytes(data: bytes, *, source: str, pattern: str = "cl100k") -> Adapter:
    """`from_rank_file` of the file's bytes (`source` is its path, for the id and messages)."""
    import tiktoken

    from benchmark.bpe.openai_ranks import parse_rank_file

    pattern_text = check_rank_file_pattern(pattern)
    ranks = parse_rank_file(data, source=source)
    encoding = tiktoken.Encoding(name=Path(source).stem, pat_str=pattern_text, mergeable_ranks=ranks,
                                 special_tokens={})
    adapter = TiktokenAdapter(encoding, id=file_id(source), family="file-tiktoken",
                              fingerprint=sha256_hex(data), source=source)
    adapter.settings["pattern_name"] = pattern
    adapter.recipe = Recipe(f"{__name__}:from_rank_bytes", (data,), {"source": source, "pattern": pattern})
    return adapter

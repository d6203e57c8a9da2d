"""On-disk cache of what a run measured, so a rerun counts only what changed.

Three kinds of entry, each keyed by a SHA-256 of everything its figures depend on:

- `counts`: one tokenizer's counts on one language (`Counts`): the tokenizer's identity, the
  language's measured sentences and their word spans.
- `vocabulary`: one tokenizer's vocabulary check (`VocabularyHealth`): its identity alone.
- `words`: one language's word segmentation (`LanguageWords`): its sentences and the segmenters.
- `rare` (measure/rare_entries.py): a trained tokenizer's rare-entry share; `calibration-lines`
  (measure/calibration.py): a production tokenizer's tokens on each of one language's fit lines; `timing`
  (measure/timing_reuse.py): a tokenizer's timings, read only with `run --reuse-timing`.

A tokenizer's identity is its fingerprint (the SHA-256 of its model file or pinned ranks), its
vocabulary size, settings and adapter class; every identity also holds the versions of the
libraries that decide counts and a digest of this suite's own code that does (adapters/, bpe/,
words/, the counting modules), so an upgrade or an edit is a miss, never a stale figure. A
tokenizer without a fingerprint is never cached.

An entry is one file of data, never code: a header line with its seal (plumbing/sealed.py: an
HMAC-SHA256 under the cache's own key over the entry's key and body), then the zlib-compressed
JSON of {"kind": the value's type, "value": its fields} (results.record.to_plain). The key is the
digest of the code and inputs the value was computed from, so an entry that was edited (its plain
digest recomputed or not), moved under another key, short, unreadable or of another type is a
miss: the value is computed again and the entry rewritten, never a wrong figure. Files are written
whole (temporary name, rename). The folder is bounded (`max_bytes`): after a run the least
recently used entries go.
Timing is measured every run unless `run --reuse-timing` asks for the kept timings.
Location: `<training cache>/results/`.
"""

from __future__ import annotations

import hashlib
import json
import os
import zlib
from functools import lru_cache
from pathlib import Path
from typing import Any, Iterable, Sequence

from benchmark.adapters.families import vendor_packages
from benchmark.plumbing.fileio import atomic_write_bytes
from benchmark.plumbing.pinned import installed_versions
from benchmark.plumbing.sealed import Seal
from benchmark.results.plain import RecordError, from_plain, to_plain

# History: 1 pickled values under a plain SHA-256; 2 JSON data under a keyed seal.
RESULTS_CACHE_FORMAT = 2  # bump when an entry's layout changes, to orphan old entries
DEFAULT_MAX_BYTES = 512 * 1024 * 1024
_MAGIC = b"tokencost-results 2 "
_MAX_ENTRY_BYTES = 256 * 1024 * 1024  # far above any entry (a language's word spans: a few MB)
_SUFFIX = ".entry"
# This suite's code that decides counts, vocabulary checks, word spans, rare entries and the
# calibration (relative to benchmark/): every module those import, at any depth, but plumbing/
# (errors, files, the seal: no figure) and corpora/ (the texts, whose digest is in each key);
# tests/measure/test_results_cache_code.py derives that closure from the imports and checks it.
_CODE = ("adapters", "bpe", "words", "results", "measure/counting.py", "measure/id_counts.py", "measure/vocabulary.py",
         "measure/batches.py", "measure/twins.py", "measure/renyi_interval.py", "measure/cells.py", "measure/timing.py",
         "measure/executors.py", "measure/dask_cluster.py", "measure/results_cache.py", "measure/rare_entries.py",
         "measure/calibration.py")
# The engines that turn text into ids and word spans, then every package a production tokenizer's
# file is read from (the tokenizer table's, so a new vendor's package is in the key), then the word
# segmenters (a missing one is recorded as such).
_ENGINES = ("tiktoken", "bpe-openai", "sentencepiece", "tokenizers", "regex", "numpy")
_SEGMENTERS = ("fugashi", "unidic-lite", "jieba", "pythainlp", "laonlp", "khmercut", "burmesenlp")


def counting_packages() -> tuple[str, ...]:
    """The distributions whose versions are in every key."""
    return tuple(dict.fromkeys((*_ENGINES, *vendor_packages(), *_SEGMENTERS)))


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
    return installed_versions(counting_packages())


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
        self._seal = Seal(self.root) if self.root is not None else None

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

    def get(self, key: str | None, kind: Any) -> Any:
        """The stored value of type `kind` (a dataclass, `float`, ...) if the entry is sealed, whole
        and of that type; else None (a miss)."""
        if key is None or not self.read:
            return None
        value = self._read(key, kind)
        if value is None:
            self.n_misses += 1
            return None
        try:
            os.utime(self._path(key))  # recently used: kept when the folder is pruned
        except OSError:
            pass
        self.n_hits += 1
        return value

    def _read(self, key: str, kind: Any) -> Any:
        try:
            with open(self._path(key), "rb") as handle:
                blob = handle.read(_MAX_ENTRY_BYTES + 1)
        except OSError:
            return None
        header, _, body = blob.partition(b"\n")
        if not header.startswith(_MAGIC) or len(blob) > _MAX_ENTRY_BYTES:
            return None
        if not self._seal.opens(key, body, header[len(_MAGIC):].decode("ascii", "replace")):
            return None
        try:
            document = json.loads(zlib.decompress(body))
            if not isinstance(document, dict) or document.get("kind") != _kind_name(kind):
                return None
            return from_plain(kind, document.get("value"), "entry")
        except (zlib.error, ValueError, RecordError, RecursionError, TypeError):
            return None  # sealed by our key, yet not what this code reads: computed again

    def put(self, key: str | None, value: Any) -> None:
        if key is None or self.root is None:
            return
        try:
            document = json.dumps({"kind": _kind_name(type(value)), "value": to_plain(value)},
                                  allow_nan=False, separators=(",", ":"))
        except (TypeError, ValueError):
            return  # a value JSON cannot hold exactly (a NaN, bytes) is not kept
        body = zlib.compress(document.encode("utf-8"), 1)
        tag = self._seal.tag(key, body)
        if tag is None:
            return  # no key can be kept here (a read-only cache): nothing is stored
        try:
            atomic_write_bytes(self._path(key), _MAGIC + tag.encode("ascii") + b"\n" + body)
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


def _kind_name(kind: Any) -> str:
    return getattr(kind, "__qualname__", str(kind))


def words_from_cache(texts_by_language: dict[str, Sequence[str]], cache: ResultsCache):
    """(the languages whose words the cache lacks, with their texts; `complete`): `complete(found)`
    stores the words found for those and gives every language's words (a run finds them on its
    workers meanwhile)."""
    from benchmark.words.segmenters import LanguageWords

    keys = {code: cache.words_key(code, texts) for code, texts in texts_by_language.items()} if cache.root else {}
    known = {code: cache.get(keys.get(code), LanguageWords) for code in texts_by_language}
    missing = {code: texts for code, texts in texts_by_language.items() if known[code] is None}

    def complete(fresh: dict[str, Any]) -> dict[str, Any]:
        for code, words in fresh.items():
            cache.put(keys.get(code), words)
        return {code: known[code] if known[code] is not None else fresh[code] for code in texts_by_language}

    return missing, complete


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

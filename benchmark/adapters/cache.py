"""On-disk cache of trained tokenizers, so a rerun does not train again.

An entry is keyed by a hash of the training text, the training settings and the library version:
change any of them and the key changes, so a stale model is never reused. Each entry is the
model file plus a small JSON beside it holding the seconds the original training took (the
`train_seconds` column reports that training, not the cache read). Files are written to a
temporary name and renamed, so an interrupted run never leaves half a model behind.

Default location: `$XDG_CACHE_HOME/tokencost` or `~/.cache/tokencost`; `--cache-dir` overrides.
"""

from __future__ import annotations

import hashlib
import json
import math
import os
import re
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Sequence

from benchmark.plumbing.fileio import atomic_write_bytes, atomic_write_text

CACHE_FORMAT = 1  # bump when the entry layout changes, to orphan old entries


def default_cache_dir() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "tokencost"


def cache_root(cache_dir: Path | str | None = None) -> Path:
    """The cache folder: `--cache-dir` when given, else the default (the one place it is decided)."""
    return Path(cache_dir) if cache_dir else default_cache_dir()


def text_digest(texts: Sequence[str]) -> str:
    """sha256 over the training lines, each terminated by a newline (order matters)."""
    digest = hashlib.sha256()
    for text in texts:
        digest.update(text.encode("utf-8"))
        digest.update(b"\n")
    return digest.hexdigest()


def _valid_metadata(meta: Any) -> bool:
    """What `store` writes: the model's digest, and either the seconds its training took or the
    reason its size was skipped."""
    if not isinstance(meta, dict) or not isinstance(meta.get("model_sha256"), str):
        return False
    if "skipped" in meta:
        return isinstance(meta["skipped"], str) and bool(meta["skipped"])
    seconds = meta.get("train_seconds")
    return (isinstance(seconds, (int, float)) and not isinstance(seconds, bool)
            and math.isfinite(seconds) and seconds >= 0)


_METADATA_NAME = re.compile(r"[0-9a-f]{32}\.json")  # `key` gives 32 hex digits


@dataclass(frozen=True)
class TrainingCache:
    root: Path
    enabled: bool = True  # False with --retrain: never read, but still write the fresh models

    def key(self, family: str, *, texts_sha256: str, settings: dict[str, Any], library_version: str) -> str:
        blob = json.dumps(
            {"format": CACHE_FORMAT, "family": family, "texts": texts_sha256, "settings": settings,
             "library_version": library_version},
            sort_keys=True,
        )
        return hashlib.sha256(blob.encode("utf-8")).hexdigest()[:32]

    def _paths(self, family: str, key: str, suffix: str) -> tuple[Path, Path]:
        folder = Path(self.root) / family
        return folder / f"{key}{suffix}", folder / f"{key}.json"

    def load(self, family: str, key: str, suffix: str) -> tuple[Path, dict[str, Any]] | None:
        """The cached model path and its metadata, or None when absent (or --retrain)."""
        if not self.enabled:
            return None
        model_path, meta_path = self._paths(family, key, suffix)
        if not (model_path.is_file() and meta_path.is_file()):
            return None
        try:
            meta = json.loads(meta_path.read_text(encoding="utf-8"))
            model = model_path.read_bytes()
        except (OSError, ValueError, RecursionError):
            return None  # a damaged entry is a miss: training again repairs it
        # The model file must be the one stored (a truncated or edited file would crash the library
        # that loads it): its digest is in the metadata. An entry without one is a miss too, and so
        # is metadata that is valid JSON but not what `store` writes.
        if not _valid_metadata(meta) or meta["model_sha256"] != hashlib.sha256(model).hexdigest():
            return None
        return model_path, meta

    def entries(self) -> dict[str, int]:
        """family -> how many entries the cache holds (a model, or a size found too small to train):
        one metadata file `<key>.json` each."""
        root = Path(self.root)
        if not root.is_dir():
            return {}
        counts = {folder.name: sum(1 for p in folder.iterdir() if _METADATA_NAME.fullmatch(p.name))
                  for folder in sorted(root.iterdir()) if folder.is_dir()}
        return {family: n for family, n in counts.items() if n}

    def store(self, family: str, key: str, suffix: str, model: bytes, meta: dict[str, Any]) -> Path | None:
        """Keep a trained model; None (and a warning) when the cache cannot take it, since the
        model itself is good: the run goes on with it, and trains it again next time."""
        model_path, meta_path = self._paths(family, key, suffix)
        try:
            # Model first, metadata last: `load` needs both, so a crash in between is a miss.
            atomic_write_bytes(model_path, model)
            meta = {**meta, "model_sha256": hashlib.sha256(model).hexdigest()}
            atomic_write_text(meta_path, json.dumps(meta, indent=1, sort_keys=True) + "\n")
        except OSError as exc:
            print(f"warning: {exc.filename or model_path}: the cache cannot keep this {family} model "
                  f"({exc.strerror}); it is used in this run and trained again in the next", file=sys.stderr)
            return None
        return model_path

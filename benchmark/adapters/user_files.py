"""A user's tokenizer file (`--tokenizer-file`): HF `tokenizer.json`, SentencePiece `.model`, a
tiktoken rank file, or one of our model files, recognised by its content; its id is
`file/<file name>`.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Sequence

from benchmark.adapters.base import Adapter
from benchmark.adapters.table import FILE, Family, file_id
from benchmark.plumbing.errors import BenchmarkError
from benchmark.plumbing.fileio import check_regular_file

FAMILIES = (
    Family("file-bpe", "our BPE model file", FILE, order=210),
    Family("file-tiktoken", "tiktoken rank file", FILE, order=220),
    Family("file-sentencepiece", "SentencePiece model file", FILE, order=230),
    Family("file-hf", "HF tokenizer.json file", FILE, order=240),
)


def tokenizer_file_kind(path: Path) -> str:
    """What a user's tokenizer file is, from its first bytes and name, without loading it:
    "hf" (tokenizer.json), "inhouse" (ByteLevelBPE.save), "sentencepiece" (.model) or
    "tiktoken" (rank file). Cheap, so a run can check every file before it trains anything."""
    path = Path(path)
    check_regular_file(path, "tokenizer file", hint="give a tokenizer.json, a .model, a tiktoken rank file or our model JSON")
    data = path.read_bytes()
    if data.lstrip()[:1] in (b"{", b"[") or path.suffix == ".json":  # base64 rank lines never start so
        try:
            config = json.loads(data.decode("utf-8"))
        except (UnicodeDecodeError, json.JSONDecodeError) as exc:
            raise BenchmarkError(f"{path}: not valid JSON ({exc})") from None
        except RecursionError:
            raise BenchmarkError(f"{path}: JSON nested too deeply to be a tokenizer file") from None
        if isinstance(config, dict) and "model" in config and ("pre_tokenizer" in config or "normalizer" in config):
            return "hf"
        if isinstance(config, dict) and str(config.get("format", "")).startswith("tokencost"):
            return "inhouse"
        raise BenchmarkError(
            f"{path}: a JSON file that is neither a HuggingFace tokenizer.json nor one of our "
            "model files (ByteLevelBPE.save)"
        )
    if not data.strip():
        raise BenchmarkError(f"{path}: empty file; expected a tokenizer file")
    if path.suffix == ".model" or data[:1] == b"\n":
        return "sentencepiece"
    return "tiktoken"


def check_tokenizer_files(paths: Sequence[Path], *, pattern: str = "cl100k") -> None:
    """Every `--tokenizer-file` exists, has a known format and its own file name (ids are
    file/<name>), and the rank-file pattern is known: checked before any training."""
    seen: dict[str, Path] = {}
    for path in paths:
        tokenizer_id = file_id(path)
        if tokenizer_id in seen:
            raise BenchmarkError(
                f"{path}: same file name as {seen[tokenizer_id]} (both would be {tokenizer_id}); rename one"
            )
        seen[tokenizer_id] = Path(path)
        if tokenizer_file_kind(path) == "tiktoken":
            from benchmark.adapters.openai_tiktoken import check_rank_file_pattern

            check_rank_file_pattern(pattern)


def load_tokenizer_file(path: Path, *, pattern: str = "cl100k") -> Adapter:
    """A user's tokenizer file, recognised by its content.

    `pattern` is the pre-tokenisation regex name for a bare tiktoken rank file (which does not
    store one)."""
    path = Path(path)
    kind = tokenizer_file_kind(path)
    try:
        if kind == "hf":
            from benchmark.adapters import hf_tokenizers

            return hf_tokenizers.from_file(path)
        if kind == "inhouse":
            from benchmark.adapters import inhouse

            return inhouse.from_file(path)
        if kind == "sentencepiece":
            from benchmark.adapters import google_sentencepiece

            return google_sentencepiece.from_file(path)
        from benchmark.adapters import openai_tiktoken

        return openai_tiktoken.from_rank_file(path, pattern=pattern)
    except BenchmarkError:
        raise
    except Exception as exc:  # a library's own error about a damaged file
        raise BenchmarkError(f"{path}: could not load as a tokenizer ({type(exc).__name__}: {exc})") from None

"""A user's tokenizer file (`--tokenizer-file`): HF `tokenizer.json`, SentencePiece `.model`, a
tiktoken rank file, or one of our model files, recognised by its content; its id is
`file/<file name>`. A tokenizer.json whose regexes backtrack without end is refused when read.
"""

from __future__ import annotations

import json
import os
import sys
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Sequence

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

            adapter = hf_tokenizers.from_file(path)
            refuse_backtracking(adapter, path)
            return adapter
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


def _regexes(config: Any) -> list[str]:
    """Every `{"Regex": ...}` of a tokenizer.json (pre-tokenizer, normalizer, decoder)."""
    if isinstance(config, dict):
        own = [config["Regex"]] if isinstance(config.get("Regex"), str) else []
        return own + [found for value in config.values() for found in _regexes(value)]
    if isinstance(config, list):
        return [found for value in config for found in _regexes(value)]
    return []


def refuse_backtracking(adapter: Adapter, path: Path) -> None:
    """HF runs a tokenizer.json's regexes in Oniguruma, which gives up on one that backtracks
    without end ("retry-limit-in-match over") by a Rust panic: a traceback, and pages of Rust
    backtrace on stderr. The probes that find such a pattern in our own model files, and those
    made of each regex's own literals, run here, in HF's engine, quietly; one that panics refuses
    the file in one line."""
    patterns = _regexes(json.loads(adapter.tokenizer.to_str()))
    if not patterns:
        return
    from benchmark.adapters.hf_tokenizers import GaveUp
    from benchmark.bpe.patterns import probes_for

    with _stderr_silenced():
        for probe in dict.fromkeys(probe for pattern in patterns for probe in probes_for(pattern)):
            try:
                adapter.encode(probe)
            except GaveUp as exc:
                guilty = [pattern for pattern in patterns if _gives_up(pattern, probe)] or patterns
                shown = ", ".join(repr(pattern) for pattern in guilty[:3])
                raise BenchmarkError(
                    f"{path}: its regex {shown} backtracks without end: on {probe[:1]!r} * {len(probe) - 1} and "
                    f"{probe[-1]!r}, {exc}; use a pattern without nested repeats of overlapping alternatives") from None


def _gives_up(pattern: str, text: str) -> bool:
    """Whether HF's engine gives up splitting `text` at `pattern` alone (called with stderr silenced)."""
    import tokenizers  # already imported by the adapter, with its thread settings

    from benchmark.adapters.hf_tokenizers import is_panic

    try:
        tokenizers.pre_tokenizers.Split(tokenizers.Regex(pattern), behavior="isolated").pre_tokenize_str(text)
    except Exception:
        return False
    except BaseException as exc:
        if not is_panic(exc):
            raise
        return True
    return False


@contextmanager
def _stderr_silenced():
    """File descriptor 2 to /dev/null for the block: where a Rust panic prints."""
    sys.stderr.flush()
    saved = os.dup(2)
    quiet = os.open(os.devnull, os.O_WRONLY)
    try:
        os.dup2(quiet, 2)
        yield
    finally:
        os.dup2(saved, 2)
        os.close(saved)
        os.close(quiet)

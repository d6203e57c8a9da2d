"""Result rows and `results.json`: immutable, validated when built, saved as versioned JSON.

Data flows one way: the run builds `ResultRow`s and a `RunRecord` (record.py), `save_results`
writes `results.json`, and every writer (CSV, Markdown, HTML, plots) reads only that file's
content, so reports can be rendered again from a saved run without measuring anything.

In a notebook:

    >>> from benchmark.results import load_results
    >>> frame = load_results("reports/results.json").to_frame()   # doctest: +SKIP
    >>> frame.pivot(index="tokenizer", columns="language", values="tokens_per_sentence")  # doctest: +SKIP

The CSV header equals `ROW_FIELDS`, in that order.
"""

from __future__ import annotations

import dataclasses
import json
import math
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from benchmark.errors import BenchmarkError
from benchmark.fileio import atomic_write_text, read_versioned_json
from benchmark.record import RecordError, RunRecord

# History of the file format (pyperf's habit: say what changed).
#   1: first version ({"format_version": 1, ...}).
#   2: rows gain throughput_x_tiktoken (version 1 files are read with it None), and the record's
#      settings.timing.clock names the clock of throughput_mb_s and tokens_per_second (a record
#      without it: the wall clock, as version 1).
#   3: {"format": "tokencost-results", "version": 3}; the record is typed (record.py) and refused
#      when a field has the wrong type; it gains the timed sample, where counting ran, the
#      training mixes, the phases' seconds, and each production tokenizer's `source` (package,
#      version, file and SHA-256 of its vocabulary file). Versions 1 and 2 are read, their
#      unknown record keys dropped.
RESULTS_FORMAT = "tokencost-results"
RESULTS_FORMAT_VERSION = 3
READABLE_FORMAT_VERSIONS = (1, 2, 3)
_HINT = "run `python -m benchmark run` again to regenerate it"

# Columns whose values are timings: the only ones allowed to differ between two
# runs of the same corpus and configuration.
TIMING_FIELDS = ("train_seconds", "throughput_mb_s", "tokens_per_second", "throughput_x_tiktoken")

STATUS_PREFIXES = ("skipped: ", "failed: ")

# A row field's annotation -> the types its value may have (ints are fine where floats are).
_FIELD_TYPES = {"str": str, "int": int, "float | None": (int, float, type(None))}


@dataclass(frozen=True)
class ResultRow:
    """One tokenizer on one language. Float fields are None when not applicable or not measured."""

    tokenizer: str  # the tokenizer's id, e.g. "bpe/cl100k-4096", "tiktoken/o200k_base"
    family: str  # e.g. "bpe", "tiktoken", "sentencepiece-unigram", "hf-wordpiece", "hf-bpe"
    vocab_size: int
    language: str  # the corpus code, e.g. "jpn_Jpan"
    n_sentences: int
    n_tokens: int  # sum over sentences, each encoded on its own as plain text
    n_bytes: int  # UTF-8 bytes of the measured sentences (no newlines)
    n_chars: int  # Unicode code points of the measured sentences
    bytes_per_token: float | None
    chars_per_token: float | None
    tokens_per_sentence: float | None
    premium: float | None  # n_tokens / reference language's n_tokens on the same lines
    premium_ci_low: float | None  # 95% bootstrap over sentences, seeded
    premium_ci_high: float | None
    unk_rate: float | None  # share of tokens that are the unknown token
    byte_fallback_rate: float | None  # share of tokens that are byte-fallback pieces
    roundtrip_rate: float | None  # share of sentences with decode(encode(s)) == s
    vocab_utilisation: float | None  # share of the vocabulary used on this language
    train_seconds: float | None  # None for tokenizers we did not train
    throughput_mb_s: float | None  # single thread, median of repeats, unseen text
    tokens_per_second: float | None
    # throughput / tiktoken cl100k_base's on the same sentences, timed in turns (median of repeats)
    throughput_x_tiktoken: float | None
    embedding_params: int  # vocab_size x 768
    status: str  # "ok", "skipped: <reason>" or "failed: <reason>"

    def __post_init__(self) -> None:
        # One pass over the fields, each checked by its annotation: type, then counts >= 0 and
        # floats finite.
        for f in dataclasses.fields(self):
            value = getattr(self, f.name)
            if not isinstance(value, _FIELD_TYPES[f.type]) or isinstance(value, bool):
                raise ValueError(f"{f.name} must be {f.type}, got {value!r} (row {self.tokenizer!r}/{self.language!r})")
            if f.type == "int" and value < 0:
                raise ValueError(f"{f.name} must be >= 0 in {self.tokenizer}/{self.language}")
            if isinstance(value, float) and not math.isfinite(value):
                raise ValueError(f"{f.name} is {value} in {self.tokenizer}/{self.language}")
        if self.throughput_x_tiktoken is not None and self.throughput_x_tiktoken <= 0:
            raise ValueError(f"throughput_x_tiktoken must be > 0, got {self.throughput_x_tiktoken} "
                             f"in {self.tokenizer}/{self.language}")
        if not self.tokenizer or not self.language:
            raise ValueError(f"result row needs a tokenizer and a language: {self!r}")
        if not (self.status == "ok" or self.status.startswith(STATUS_PREFIXES)):
            raise ValueError(f"status must be 'ok', 'skipped: <reason>' or 'failed: <reason>', got {self.status!r}")
        for name in ("unk_rate", "byte_fallback_rate", "roundtrip_rate", "vocab_utilisation"):
            share = getattr(self, name)
            if share is not None and not 0 <= share <= 1:
                raise ValueError(f"{name} is a share, from 0 to 1, got {share} in {self.tokenizer}/{self.language}")
        if self.ok and self.n_sentences == 0:
            raise ValueError(f"a measured row has n_sentences 0 ({self.tokenizer}/{self.language})")

    @property
    def ok(self) -> bool:
        return self.status == "ok"

    @property
    def failed(self) -> bool:
        return self.status.startswith("failed: ")

    def to_dict(self) -> dict[str, Any]:
        return dataclasses.asdict(self)


ROW_FIELDS: tuple[str, ...] = tuple(f.name for f in dataclasses.fields(ResultRow))


@dataclass(frozen=True)
class Results:
    rows: tuple[ResultRow, ...]
    record: RunRecord

    def to_dict(self) -> dict[str, Any]:
        return {
            "format": RESULTS_FORMAT,
            "version": RESULTS_FORMAT_VERSION,
            "record": self.record.to_dict(),
            "rows": [row.to_dict() for row in self.rows],
        }

    def to_frame(self):  # -> pandas.DataFrame
        """Long form, one line per tokenizer and language: every `ROW_FIELDS` column, plus
        `language_name` (the record's English name, else the code). A `float | None` field is a
        float64 column, NaN where the row has no value."""
        import pandas as pd

        frame = pd.DataFrame([row.to_dict() for row in self.rows], columns=list(ROW_FIELDS))
        # Typed by the field, not by the values: a column that is None on every row (a results.json
        # from before a field was measured) would otherwise be of dtype object.
        frame = frame.astype({f.name: "float64" for f in dataclasses.fields(ResultRow) if f.type == "float | None"})
        names = self.record.language_names
        frame.insert(frame.columns.get_loc("language") + 1, "language_name",
                     [names.get(code, code) for code in frame["language"]])
        return frame


def save_results(results: Results, path: Path) -> None:
    text = json.dumps(results.to_dict(), indent=1, ensure_ascii=False, sort_keys=False) + "\n"
    atomic_write_text(Path(path), text)


def load_results(path: Path | str) -> Results:
    """Read a `results.json`; a wrong version, a malformed row or record is one clear error."""
    path = Path(path)
    if path.is_dir():
        raise BenchmarkError(f"{path}: is a folder; give the results file itself, e.g. {path / 'results.json'}")
    if not path.exists() and not path.is_symlink():
        raise BenchmarkError(f"{path}: no such results file; run `python -m benchmark run` first")
    version, raw = read_versioned_json(path, what="results file", format_name=RESULTS_FORMAT,
                                       versions=READABLE_FORMAT_VERSIONS, hint=_HINT,
                                       legacy_version_key="format_version")
    if not isinstance(raw.get("rows"), list):
        raise BenchmarkError(f"{path}: malformed results: no list of rows")
    rows = []
    seen: dict[tuple[str, str], int] = {}
    for number, row in enumerate(raw["rows"], start=1):
        if version == 1 and isinstance(row, dict):
            row = {**row, "throughput_x_tiktoken": None}  # measured since version 2
        if not isinstance(row, dict):
            raise BenchmarkError(f"{path}: malformed results, row {number}: not an object")
        try:
            rows.append(ResultRow(**row))
        except (TypeError, ValueError) as exc:
            raise BenchmarkError(f"{path}: malformed results, row {number}: {exc}") from None
        key = (rows[-1].tokenizer, rows[-1].language)
        if key in seen:
            raise BenchmarkError(f"{path}: malformed results, row {number}: {key[0]}/{key[1]} is also row {seen[key]}")
        seen[key] = number
    if not any(row.ok for row in rows):
        raise BenchmarkError(f"{path}: no measured row (every row is skipped or failed, or there are none): "
                             "nothing to report")
    if "record" not in raw:
        raise BenchmarkError(f"{path}: malformed results: no run record ('record')")
    try:
        record = RunRecord.from_dict(raw["record"], strict=version >= 3)  # typed since version 3
    except RecordError as exc:
        raise BenchmarkError(f"{path}: malformed results, {exc}") from None
    return Results(rows=tuple(rows), record=record)

"""What source code costs: each tokenizer's tokens on the pinned code sample (corpora/code/), per
programming language, per byte and per line. Code has no translation, so this is no premium over
English: each figure is the language's own cost. results.json's "code" holds the counts only (the
ratios follow from them, never stored twice); `code.csv` holds the ratios too.

    costs = load_results("reports/results.json").code
    costs.entries[0].tokens_per_kb   # tokens per 1,000 bytes of that language's source
"""

from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass, field
from typing import Any, Mapping, Sequence

from benchmark.plumbing.escaping import csv_cell

_NAME = re.compile(r"[a-z][a-z0-9_+-]*")  # a programming language's name as the sample's files give it
_SHA256 = re.compile(r"[0-9a-f]{64}")
_MAX_COUNT = 1 << 63


@dataclass(frozen=True)
class CodeCost:
    """`tokenizer`'s tokens on `language`'s whole sample file (`n_bytes` UTF-8 bytes, `n_lines` lines)."""

    tokenizer: str
    language: str  # "python", "c", "javascript"
    n_bytes: int
    n_lines: int
    n_tokens: int

    def __post_init__(self) -> None:
        where = f"code cost of {str(self.language)[:40]!r} on {str(self.tokenizer)[:80]!r}"
        if not isinstance(self.tokenizer, str) or not self.tokenizer:
            raise ValueError(f"tokenizer must be a tokenizer id, got {self.tokenizer!r} in the {where}")
        if not isinstance(self.language, str) or not _NAME.fullmatch(self.language):
            raise ValueError(f"language must be a lower-case name (python, c, ...), got {self.language!r} in the {where}")
        for name in ("n_bytes", "n_lines", "n_tokens"):
            value = getattr(self, name)
            if not isinstance(value, int) or isinstance(value, bool) or not 0 < value < _MAX_COUNT:
                raise ValueError(f"{name} must be a count from 1 to below 2**63, got {value!r} in the {where}")

    @property
    def bytes_per_token(self) -> float:
        return self.n_bytes / self.n_tokens

    @property
    def tokens_per_line(self) -> float:
        return self.n_tokens / self.n_lines

    @property
    def tokens_per_kb(self) -> float:
        """Tokens per 1,000 bytes (kB, not KiB) of source."""
        return 1000 * self.n_tokens / self.n_bytes

    def to_dict(self) -> dict[str, Any]:
        return dataclasses.asdict(self)


@dataclass(frozen=True)
class CodeCosts:
    """The sample measured (each file's SHA-256, by name) and every tokenizer's cost on it, in run
    order; empty for a run without the sample (or a results file from before it)."""

    sample: Mapping[str, str] = field(default_factory=dict)  # "python.txt" -> SHA-256 hex
    entries: tuple[CodeCost, ...] = ()

    def __post_init__(self) -> None:
        for name, digest in self.sample.items():
            if not isinstance(name, str) or not isinstance(digest, str) or not _SHA256.fullmatch(digest):
                raise ValueError(f"code.sample: expected file name -> SHA-256 hex, got {name!r}: {digest!r}")
        seen = set()
        for entry in self.entries:
            key = (entry.tokenizer, entry.language)
            if key in seen:
                raise ValueError(f"code.entries: {key[0]} on {key[1]} is listed twice")
            seen.add(key)
        object.__setattr__(self, "sample", dict(self.sample))
        object.__setattr__(self, "entries", tuple(self.entries))

    def __bool__(self) -> bool:
        return bool(self.entries)

    @property
    def languages(self) -> list[str]:
        """The programming languages, in the sample's order."""
        return list(dict.fromkeys(entry.language for entry in self.entries))

    def to_dict(self) -> dict[str, Any]:
        return {"sample": dict(self.sample), "entries": [entry.to_dict() for entry in self.entries]}

    @classmethod
    def from_dict(cls, raw: Any) -> CodeCosts:
        """From results.json's "code"; a malformed block is one ValueError line naming what is wrong."""
        if not isinstance(raw, dict) or set(raw) != {"sample", "entries"}:
            got = sorted(raw) if isinstance(raw, dict) else type(raw).__name__
            raise ValueError(f"code: expected an object with sample and entries, got {got}")
        if not isinstance(raw["sample"], dict):
            raise ValueError(f"code.sample: expected an object, got {type(raw['sample']).__name__}")
        if not isinstance(raw["entries"], list):
            raise ValueError(f"code.entries: expected a list, got {type(raw['entries']).__name__}")
        entries = []
        for number, entry in enumerate(raw["entries"]):
            if not isinstance(entry, dict):
                raise ValueError(f"code.entries[{number}]: expected an object, got {type(entry).__name__}")
            try:
                entries.append(CodeCost(**entry))
            except TypeError:
                raise ValueError(f"code.entries[{number}]: expected the fields {', '.join(CODE_COUNT_FIELDS)}, "
                                 f"got {', '.join(sorted(map(str, entry)))}") from None
            except ValueError as exc:
                raise ValueError(f"code.entries[{number}]: {exc}") from None
        return cls(raw["sample"], tuple(entries))


CODE_COUNT_FIELDS: tuple[str, ...] = tuple(f.name for f in dataclasses.fields(CodeCost))
CODE_FIELDS: tuple[str, ...] = (*CODE_COUNT_FIELDS, "bytes_per_token", "tokens_per_line", "tokens_per_kb")


def code_csv(entries: Sequence[CodeCost]) -> str:
    """The entries as CSV, header `CODE_FIELDS` (the counts, then the ratios at full precision)."""
    import csv
    import io

    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(CODE_FIELDS)
    for entry in entries:
        writer.writerow([csv_cell(getattr(entry, name)) for name in CODE_FIELDS])
    return buffer.getvalue()

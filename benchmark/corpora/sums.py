"""A corpus folder's `SHA256SUMS` (the listing `sha256sum` writes): every file it holds, by SHA-256."""

from __future__ import annotations

import re
from pathlib import Path

from benchmark.plumbing.errors import BenchmarkError

SUMS_FILE = "SHA256SUMS"
_LINE = re.compile(r"([0-9a-f]{64})  (\S.*)")


def read_sums(path: Path) -> dict[str, str]:
    """A `sha256sum` listing as {name: digest}; a malformed line is one error naming it."""
    path = Path(path)
    try:
        text = path.read_bytes().decode("ascii")
    except UnicodeDecodeError as exc:
        raise BenchmarkError(f"{path}: not a SHA-256 listing (a byte that is not ASCII at offset {exc.start})") from None
    sums = {}
    for number, line in enumerate(text.splitlines(), start=1):
        found = _LINE.fullmatch(line)
        if found is None:
            raise BenchmarkError(f"{path}:{number}: not a '<sha256>  <name>' line: {line[:80]!r}")
        sums[found.group(2)] = found.group(1)
    return sums

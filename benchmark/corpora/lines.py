"""One corpus file's bytes -> its lines, read strictly.

Every line is strict UTF-8 and non-empty; a line ends with LF (CRLF is accepted, a lone CR is
not); a byte-order mark may start the file only. Each failure is one `BenchmarkError` naming the
file and the line, and the fix.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

from benchmark.plumbing.errors import BenchmarkError
from benchmark.plumbing.fileio import check_regular_file

# A line is a sentence or a document; past this many characters it is rather a file without line
# breaks, and one encoder (bpe-openai) refuses such inputs outright.
MAX_LINE_CHARS = 1_000_000


def read_lines(path: Path) -> tuple[str, ...]:
    """Read one corpus file as strict UTF-8; an empty line or bad byte names its line number."""
    path = Path(path)
    check_regular_file(path, "corpus file", hint="give a UTF-8 text file, one sentence per line")
    return decode_lines(path.read_bytes(), path)


def decode_lines(data: bytes, path: Path) -> tuple[str, ...]:
    """The lines of a corpus file's bytes (without their newlines); `path` names it in errors."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line_number = data.count(b"\n", 0, exc.start) + 1
        raise BenchmarkError(
            f"{path}:{line_number}: not valid UTF-8 (byte 0x{data[exc.start]:02x} at offset "
            f"{exc.start}); save the file as UTF-8"
        ) from None
    # A byte-order mark is an encoding artefact, not content.
    text = text.removeprefix("\ufeff")
    if not text.strip():
        what = "file is empty" if not text else "file holds no text, only blank lines or spaces"
        raise BenchmarkError(f"{path}: {what}; expected one sentence per line")
    raw_lines = text.split("\n")
    if raw_lines[-1] == "":  # the final newline ends the last line, it does not start a new one
        raw_lines.pop()
    lines = []
    for line_number, line in enumerate(raw_lines, start=1):
        line = line.removesuffix("\r")  # files saved with Windows line endings
        if "\r" in line:
            raise BenchmarkError(
                f"{path}:{line_number}: a carriage return inside the line (old Mac line endings, which "
                "put the whole file on one line?); save the file with \\n line endings"
            )
        if line.startswith("\ufeff"):
            raise BenchmarkError(
                f"{path}:{line_number}: starts with a byte-order mark (U+FEFF), an encoding artefact "
                "(files joined together?); remove it"
            )
        if not line.strip():
            raise BenchmarkError(
                f"{path}:{line_number}: empty line; every line must hold the sentence that "
                "is on the same line in the other languages"
            )
        if len(line) > MAX_LINE_CHARS:
            raise BenchmarkError(
                f"{path}:{line_number}: a line of {len(line):,} characters, over the limit of {MAX_LINE_CHARS:,}; "
                "a line holds one sentence or document: split it"
            )
        lines.append(line)
    return tuple(lines)


def sha256_file(path: Path) -> str:
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()

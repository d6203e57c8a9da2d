"""argparse types shared by every verb: each turns one option's text into a checked value, or
raises `argparse.ArgumentTypeError` with a message that names the value (argparse prints it as
`error: argument --repeats: expected a positive integer, got '0'`); and `stdin_text`, what
encode's `-` stands for."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

# Above any vocabulary worth training here (o200k_base has 200,019 tokens); SentencePiece cannot
# even parse sizes past 2^31.
MAX_VOCAB_SIZE = 1_000_000
MIN_VOCAB_SIZE = 260  # the 256 byte tokens and a few merges


def positive_int(value: str) -> int:
    """An integer >= 1."""
    try:
        number = int(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a positive integer, got {value!r}") from None
    if number < 1:
        raise argparse.ArgumentTypeError(f"expected a positive integer, got {value!r}")
    return number


def csv_list(value: str) -> list[str]:
    """`a,b,c` -> ["a", "b", "c"]; blanks dropped, at least one item."""
    items = [item.strip() for item in value.split(",") if item.strip()]
    if not items:
        raise argparse.ArgumentTypeError(f"expected a comma-separated list of one or more items, got {value!r}")
    return items


def vocab_sizes(value: str) -> list[int]:
    """`1024,4096` -> [1024, 4096], sorted, each from MIN_VOCAB_SIZE to MAX_VOCAB_SIZE."""
    from benchmark.adapters.table import parse_size  # the sizes ids are read back with

    sizes = []
    for item in csv_list(value):
        size = parse_size(item)
        if size is None:
            raise argparse.ArgumentTypeError(f"vocabulary sizes are whole numbers in ASCII digits, like 4096; "
                                             f"got {item!r}")
        if not MIN_VOCAB_SIZE <= size <= MAX_VOCAB_SIZE:
            raise argparse.ArgumentTypeError(
                f"vocabulary size {size} is out of range: from {MIN_VOCAB_SIZE} (256 byte tokens + merges) "
                f"to {MAX_VOCAB_SIZE:,}"
            )
        sizes.append(size)
    return sorted(set(sizes))


def folder(value: str) -> Path:
    """A folder option: an empty string would silently mean the current folder."""
    if not value.strip():
        raise argparse.ArgumentTypeError("an empty path; give a folder")
    return Path(value)


def share(value: str) -> float:
    """A tolerance: `0.25` or `25%`, from 0 to 10."""
    text = value.strip()
    try:
        number = float(text[:-1]) / 100 if text.endswith("%") else float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a share like 0.25 or 25%, got {value!r}") from None
    if not 0 <= number < 10:
        raise argparse.ArgumentTypeError(f"tolerance out of range: {value!r}")
    return number


# encode shows one text's tokens; a mebibyte is some 300 pages, and a bound keeps `- < /dev/zero`
# (or a log piped in by mistake) from filling the memory.
MAX_STDIN_BYTES = 1 << 20


def stdin_text(stream=None, *, limit: int = MAX_STDIN_BYTES) -> str:
    """The text on stdin (its final newline dropped), for `encode -`: at most `limit` bytes of
    UTF-8, or a `BenchmarkError` saying which bound it broke (read in the handler, not as an
    argparse type, so the refusal is one line and not the usage)."""
    from benchmark.plumbing.errors import BenchmarkError

    stream = stream if stream is not None else sys.stdin.buffer
    data = stream.read(limit + 1)  # one byte past the bound tells "too long" from "just fits"
    if len(data) > limit:
        raise BenchmarkError(f"stdin holds more than {limit:,} bytes; encode shows one text's tokens: "
                             f"pipe in a shorter text (or split it)")
    try:
        return data.decode("utf-8").removesuffix("\n").removesuffix("\r")
    except UnicodeDecodeError as exc:
        raise BenchmarkError(f"stdin is not valid UTF-8 (byte {exc.start}); pass UTF-8 text") from None

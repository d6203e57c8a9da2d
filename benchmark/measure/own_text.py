"""A user's own files counted on every production tokenizer: `cost --file PATH ...`.

Each file is read whole, as strict UTF-8, and counted as one text per file (as one prompt of it
would be billed): one library call per tokenizer over all the files where the library has a
batch call (batches.py), through the same adapters a run counts with, so each count is the
vendor's own encoder's. Nothing is sampled, so a count has no interval.

What is not a text is refused in one line naming the file, before any vocabulary is loaded: a
folder, a FIFO or a device (never opened for reading, so nothing waits on it), a file past
MAX_FILE_BYTES (read no further than the bound), an empty file, a binary file (a NUL byte), text in
UTF-16 or another encoding (the byte offset of the first byte that is not UTF-8).
"""

from __future__ import annotations

import os
import signal
import stat
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Sequence

from benchmark.plumbing.errors import BenchmarkError, one_line
from benchmark.plumbing.escaping import terminal_text

# One file is one text, encoded in one call: HF tokenizers holds about 120 bytes a token while it
# encodes (docs/measurements/2026-12-02-own-text.md), so the bound keeps a call to a few hundred MB.
# 2 MB of English is about 450,000 tokens, more than most models' windows.
MAX_FILE_BYTES = 2_000_000
_UTF16_MARKS = (b"\xff\xfe", b"\xfe\xff")


@dataclass(frozen=True)
class OwnText:
    """One file's text, as read: `n_bytes` of UTF-8, `n_chars` code points."""

    path: Path
    text: str
    n_bytes: int

    @property
    def n_chars(self) -> int:
        return len(self.text)

    @property
    def name(self) -> str:
        """The path as given, safe to print."""
        return terminal_text(str(self.path))


@dataclass(frozen=True)
class OwnCount:
    """One tokenizer's counts of the files, in their order; `status` is "ok" or why it has none."""

    tokenizer: str
    n_tokens: tuple[int, ...]
    load_seconds: float
    encode_seconds: float
    status: str = "ok"

    @property
    def ok(self) -> bool:
        return self.status == "ok"

    @property
    def n_tokens_total(self) -> int:
        return sum(self.n_tokens)


def _kind(mode: int) -> str | None:
    """What a file that is not a regular file is, or None for a regular file."""
    if stat.S_ISREG(mode):
        return None
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISFIFO(mode):
        return "a FIFO (named pipe)"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "not a regular file"


def _read_bounded(path: Path, shown: str) -> bytes:
    """The file's bytes; refused unread when it is no regular file or is past the bound by its size,
    and read no further than the bound in any case (a file that grows, a /proc file)."""
    try:
        kind = _kind(os.stat(path).st_mode)
        if kind is not None:  # checked before opening: opening a FIFO would wait for a writer
            raise BenchmarkError(f"{shown}: is {kind}, not a text file; give a file of text")
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOCTTY", 0))
    except FileNotFoundError:
        raise BenchmarkError(f"{shown}: no such file") from None
    except OSError as exc:
        raise BenchmarkError(f"{shown}: cannot be read ({exc.strerror or one_line(exc)})") from None
    with os.fdopen(fd, "rb") as handle:
        status = os.fstat(handle.fileno())
        kind = _kind(status.st_mode)  # the name may have been swapped since the stat
        if kind is not None:
            raise BenchmarkError(f"{shown}: is {kind}, not a text file; give a file of text")
        if status.st_size > MAX_FILE_BYTES:
            raise BenchmarkError(f"{shown}: {status.st_size:,} bytes, past the bound of {MAX_FILE_BYTES:,} bytes "
                                 "a file (one text); split it into files of at most that")
        try:
            data = handle.read(MAX_FILE_BYTES + 1)
        except OSError as exc:
            raise BenchmarkError(f"{shown}: cannot be read ({exc.strerror or one_line(exc)})") from None
    if len(data) > MAX_FILE_BYTES:
        raise BenchmarkError(f"{shown}: more than the bound of {MAX_FILE_BYTES:,} bytes a file (one text); "
                             "split it into files of at most that")
    return data


def read_own_text(path: Path | str) -> OwnText:
    """`path`'s text, or a BenchmarkError naming the file and what is wrong with it."""
    path = Path(path)
    shown = terminal_text(str(path))
    data = _read_bounded(path, shown)
    if not data:
        raise BenchmarkError(f"{shown}: is empty; nothing to count")
    if data.startswith(_UTF16_MARKS):
        raise BenchmarkError(f"{shown}: is UTF-16 (it starts with a UTF-16 byte-order mark), not UTF-8; "
                             "save it as UTF-8")
    nul = data.find(b"\x00")
    if nul >= 0:
        raise BenchmarkError(f"{shown}: is binary (a NUL byte at byte offset {nul:,}), not text; give a text file")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        raise BenchmarkError(f"{shown}: is not UTF-8: byte 0x{data[exc.start]:02x} at byte offset {exc.start:,} "
                             f"(line {line:,}) is not valid UTF-8; save it as UTF-8") from None
    return OwnText(path, text, len(data))


def read_own_texts(paths: Sequence[Path | str]) -> list[OwnText]:
    """Every file's text, in order; the first file that is not a text refuses the lot."""
    if not paths:
        raise BenchmarkError("--file needs at least one file")
    return [read_own_text(path) for path in paths]


def count_own_texts(texts: Sequence[OwnText], tokenizers: Sequence[str] | None = None, *,
                    on_step: Callable[[str], None] | None = None, workers: int | None = None) -> list[OwnCount]:
    """Each production tokenizer's tokens of each text (`tokenizers`: ids of the table, by default
    every vendor's vocabulary once). A tokenizer that cannot be loaded gets a count with its reason.

    Loading a vocabulary is most of the time (Qwen 3.5's 12.8 MB tokenizer.json alone 0.8 s) and
    holds the GIL, so with two or more cores (`workers`, default every usable one) and a process
    that can fork, forked processes load and count, the biggest file first; the counts are the
    same as counting here, in the tokenizers' order."""
    from benchmark.adapters.families import PRETRAINED_TOKENIZERS, VENDOR_VOCABULARIES
    from benchmark.plumbing.children import fork_is_safe, usable_cores

    ids = list(tokenizers if tokenizers is not None else VENDOR_VOCABULARIES)
    for tokenizer_id in ids:
        if tokenizer_id not in PRETRAINED_TOKENIZERS:
            raise BenchmarkError(f"{tokenizer_id!r} is not a production tokenizer; one of "
                                 f"{', '.join(VENDOR_VOCABULARIES)}")
    texts_only = [t.text for t in texts]
    n_workers = min(workers or usable_cores(), len(ids))
    if n_workers < 2 or not fork_is_safe():
        counts = []
        for tokenizer_id in ids:
            if on_step:
                on_step(tokenizer_id)
            counts.append(count_on(tokenizer_id, texts_only))
        return counts
    return _count_in_children(ids, texts_only, n_workers, on_step)


def count_on(tokenizer_id: str, texts: Sequence[str]) -> OwnCount:
    """One production tokenizer loaded, and its tokens of each text; or why it could not be loaded."""
    from benchmark.adapters.registry import PRETRAINED
    from benchmark.measure.batches import encode_each

    start = time.perf_counter()
    try:
        adapter = PRETRAINED[tokenizer_id]()
    except Exception as exc:  # one vendor's missing package must not cost the others
        return OwnCount(tokenizer_id, (), time.perf_counter() - start, 0.0, f"failed: {one_line(exc)}")
    loaded = time.perf_counter()
    n_tokens = tuple(len(ids) for ids in encode_each(adapter, texts))
    return OwnCount(tokenizer_id, n_tokens, loaded - start, time.perf_counter() - loaded)


def _count_in_children(ids: list[str], texts: list[str], n_workers: int,
                       on_step: Callable[[str], None] | None) -> list[OwnCount]:
    """`count_on` of each tokenizer in `n_workers` forked processes, handed out biggest file first
    (two workers then end together), given back in `ids`' order."""
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor
    from concurrent.futures.process import BrokenProcessPool

    order = sorted(ids, key=_vocabulary_bytes, reverse=True)
    context = multiprocessing.get_context("fork")
    with ProcessPoolExecutor(max_workers=n_workers, mp_context=context, initializer=_child_start,
                             initargs=(os.getpid(),)) as pool:
        futures = {}
        for tokenizer_id in order:
            if on_step:
                on_step(tokenizer_id)
            futures[tokenizer_id] = pool.submit(count_on, tokenizer_id, texts)
        try:
            return [futures[tokenizer_id].result() for tokenizer_id in ids]
        except BrokenProcessPool:
            raise BenchmarkError("a process counting your files died (out of memory?); "
                                 "nothing was counted") from None


def _vocabulary_bytes(tokenizer_id: str) -> int:
    """The size on disk of the file a production tokenizer is read from (0 if it is not there):
    how long it takes to load, as far as can be told before loading it."""
    from benchmark.adapters.families import PRETRAINED_TOKENIZERS
    from benchmark.plumbing.pinned import package_folder

    file = PRETRAINED_TOKENIZERS[tokenizer_id].file
    try:
        return (package_folder(file.module) / file.path).stat().st_size
    except (ModuleNotFoundError, OSError):
        return 0


def _child_start(parent_pid: int) -> None:
    """In each counting process: one thread for the libraries (the processes fill the cores), and
    gone when the command is (a killed `cost` leaves no process behind)."""
    from benchmark.plumbing.children import die_with_parent

    os.environ["RAYON_NUM_THREADS"] = "1"
    os.environ["TOKENIZERS_PARALLELISM"] = "false"
    die_with_parent(parent_pid, signal.SIGTERM)

"""Files in and out: atomic writes, regular-file checks and the one versioned-JSON reader.

- A writer never leaves half a file: it writes a temporary file beside the target, then renames.
- A reader refuses, in one line that names the path, what is not a regular file (a folder, a FIFO,
  a device, a broken symlink) and JSON that is not the document it expects (wrong format, a version
  this program does not read, nesting deep enough to exhaust the parser's recursion).
"""

from __future__ import annotations

import json
import os
import stat
import tempfile
from pathlib import Path
from typing import Any

from benchmark.plumbing.errors import BenchmarkError


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


# mkstemp makes files readable by their owner only; a report or model file is for everyone to read.
_FILE_MODE = 0o666 & ~_umask()


def atomic_write_bytes(path: Path, data: bytes) -> None:
    """Write to a temporary file beside `path`, then rename it into place.

    An OSError without a file name (a full disk says only "No space left on device") is raised
    again naming `path`, so the one-line error says where."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp_name = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        os.chmod(tmp_name, _FILE_MODE)
        os.replace(tmp_name, path)
    except BaseException as exc:
        Path(tmp_name).unlink(missing_ok=True)
        if isinstance(exc, OSError) and exc.filename is None and exc.errno is not None:
            raise OSError(exc.errno, exc.strerror, str(path)) from exc
        raise


def atomic_write_text(path: Path, text: str) -> None:
    """`atomic_write_bytes` of the text in UTF-8 (newlines written as they are)."""
    atomic_write_bytes(path, text.encode("utf-8"))


def nearest_existing(path: Path) -> Path:
    """`path`, or the nearest folder above it that exists: where a folder that need not exist yet
    would be made (is_dir() says whether it can be, `can_write_into` whether files can)."""
    existing = Path(path)
    while not existing.exists() and existing != existing.parent:
        existing = existing.parent
    return existing


def can_write_into(folder: Path) -> bool:
    """Whether this process may make files in the existing `folder` (write and search permission)."""
    return os.access(folder, os.W_OK | os.X_OK)


def check_writable_folder(path: Path, option: str) -> None:
    """A one-line BenchmarkError now, before any work, unless files can be written into the
    folder `path` (which need not exist yet): not a file, no file in the way, writable."""
    path = Path(path)
    existing = nearest_existing(path)
    if not existing.is_dir():
        where = "is a file" if existing == path else f"cannot be made, {existing} is a file"
        raise BenchmarkError(f"{option} {path}: {where}; give a folder")
    if not can_write_into(existing):
        raise BenchmarkError(f"{option} {path}: cannot write into {existing} (permission denied)")


def file_kind(path: Path) -> str | None:
    """What stands at `path` when it is not a regular file ("a folder", "a FIFO", "a broken
    symbolic link", ...); None for a regular file (or a link to one). "no such file" when nothing."""
    path = Path(path)
    try:
        mode = path.stat().st_mode
    except FileNotFoundError:
        return "a broken symbolic link" if path.is_symlink() else "no such file"
    except NotADirectoryError:
        return "no such file"
    return mode_kind(mode)


def mode_kind(mode: int) -> str | None:
    """`file_kind` of an `st_mode`: None for a regular file, else what it is ("a FIFO (named pipe)")."""
    if stat.S_ISREG(mode):
        return None
    for test, name in ((stat.S_ISDIR, "a folder"), (stat.S_ISFIFO, "a FIFO (named pipe)"),
                       (stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device"),
                       (stat.S_ISSOCK, "a socket")):
        if test(mode):
            return name
    return "not a regular file"


def check_regular_file(path: Path, what: str, *, hint: str = "", error: type[BenchmarkError] = BenchmarkError) -> None:
    """A one-line `error` unless `path` is a regular file: "<path>: is a folder, not a <what>" or
    "<path>: no such <what>", then `hint` (how to fix it) after a semicolon."""
    kind = file_kind(path)
    fix = f"; {hint}" if hint else ""
    if kind == "no such file":
        raise error(f"{path}: no such {what}{fix}")
    if kind is not None:
        raise error(f"{path}: is {kind}, not a {what}{fix}")


def read_bounded(path: Path, what: str, *, max_bytes: int, hint: str = "",
                 error: type[BenchmarkError] = BenchmarkError) -> bytes:
    """The bytes of the regular file `path`, at most `max_bytes`; a one-line `error` for anything
    else: no file, a folder, a FIFO or a device (opened without blocking and judged by what was
    opened, so a FIFO never waits for a writer and /dev/zero is never read), or a larger file."""
    path = Path(path)
    fix = f"; {hint}" if hint else ""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except FileNotFoundError:
        raise error(f"{path}: no such {what}{fix}") from None
    except OSError as exc:
        raise error(f"{path}: cannot read the {what} ({exc.strerror or exc}){fix}") from None
    with os.fdopen(fd, "rb") as handle:
        status = os.fstat(fd)
        kind = mode_kind(status.st_mode)
        if kind is not None:
            raise error(f"{path}: is {kind}, not a {what}{fix}")
        if status.st_size > max_bytes:
            raise error(f"{path}: {status.st_size:,} bytes, more than a {what} holds (at most {max_bytes:,}){fix}")
        data = handle.read(max_bytes + 1)  # a file still growing is bounded too
    if len(data) > max_bytes:
        raise error(f"{path}: more than {max_bytes:,} bytes, more than a {what} holds{fix}")
    return data


def read_versioned_json(
    path: Path,
    *,
    what: str,
    format_name: str,
    versions: tuple[int, ...],
    hint: str = "",
    error: type[BenchmarkError] = BenchmarkError,
    legacy_version_key: str | None = None,
) -> tuple[int, dict[str, Any]]:
    """(version, document) of a JSON file `{"format": format_name, "version": N, ...}`.

    `what` names the document in errors ("results file", "model file"); `hint` says how to make a
    good one ("run `python -m benchmark run` again"). A version must be an int of `versions`:
    `true` and `1.0` equal 1 in Python and are refused all the same. `legacy_version_key` reads
    files from before the format had a name: no "format", the version under that key."""
    path = Path(path)
    check_regular_file(path, what, hint=hint, error=error)
    fix = f"; {hint}" if hint else ""
    try:
        document = json.loads(path.read_text(encoding="utf-8"))
    except UnicodeDecodeError as exc:
        raise error(f"{path}: not UTF-8 text, so not a {what} ({exc.reason} at byte {exc.start}){fix}") from None
    except json.JSONDecodeError as exc:
        raise error(f"{path}: not valid JSON, so not a {what} ({exc}){fix}") from None
    except RecursionError:
        raise error(f"{path}: JSON nested too deeply to be a {what}{fix}") from None
    found = document.get("format") if isinstance(document, dict) else None
    legacy = found is None and legacy_version_key is not None and isinstance(document, dict) \
        and legacy_version_key in document
    if found != format_name and not legacy:
        raise error(f"{path}: not a {what} (its 'format' is {found!r}, expected {format_name!r}){fix}")
    version = document.get(legacy_version_key if legacy else "version")
    if type(version) is not int or version not in versions:
        readable = ", ".join(map(str, versions))
        raise error(f"{path}: {what} version {version!r}, this program reads {readable}{fix}")
    return version, document

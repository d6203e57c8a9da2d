"""The output folder holds one complete report, the old one or the new one, whatever happens, and
never loses a file this program did not write.

- One writer per output folder: `claim_output` takes an OS lock (flock) on `.<name>.lock` beside
  the folder, held from the checks before measuring to the end of publishing. A second run on the
  same folder stops at once: "another run (pid N) is writing O".
- A folder is replaced only when it is absent, empty, or exactly a report (manifest.py: every file
  listed in its manifest.json, unchanged; a folder without one is no report, but for the files the
  new report carries byte for byte, `carried`). Anything else stops the run before it measures,
  naming the files, unless `replace_foreign` is given.
- `publish` renders every file into a fresh `.<name>.new-XXXXXXXX` beside the folder, writes the
  manifest, then swaps the two: on Linux in one atomic step (renameat2 with RENAME_EXCHANGE),
  elsewhere by two renames. The old folder is checked once more before it is removed; if a file
  appeared in it meanwhile, the swap is undone. A killed run's siblings are removed by the next
  run on that folder, under the lock.
- A symbolic link to a folder is followed: the report goes where it points and the link stays.
"""

from __future__ import annotations

import ctypes
import errno
import os
import re
import shutil
import sys
import tempfile
from pathlib import Path
from typing import Callable

from benchmark.plumbing.errors import BenchmarkError
from benchmark.plumbing.fileio import can_write_into, mode_kind, nearest_existing
from benchmark.plumbing.manifest import MANIFEST, foreign_files, nested_reports, write_manifest

_NEW, _OLD = "new", "old"  # the siblings' kinds: `.<name>.new-XXXXXXXX`, `.<name>.old-XXXXXXXX`
_MKDTEMP_TAIL = r"[a-z0-9_]{8}"  # what tempfile.mkdtemp adds to the prefix
REPLACE_FLAG = "--replace-foreign"


class ReportInterrupted(KeyboardInterrupt):
    """Ctrl-C while a report was written; the message says which report the folder holds."""


def check_output_folder(folder: Path, *, replace_foreign: bool = False, carried: dict[str, str] | None = None) -> None:
    """A BenchmarkError unless a report can be published at `folder` (which need not exist yet).
    Does not lock: `claim_output` does, and checks this again under the lock."""
    given = Path(folder)
    folder = real_output(given)
    existing = nearest_existing(folder)
    if not existing.is_dir():
        what = "is a file" if existing == folder else f"cannot be made: {existing} is a file"
        raise BenchmarkError(f"{given}: {what}; the output must be a folder")
    if not can_write_into(existing):
        raise BenchmarkError(f"{given}: cannot write into {existing} (permission denied)")
    cwd = Path.cwd().resolve()
    if cwd == folder or folder in cwd.parents:
        raise BenchmarkError(
            f"{given}: is the current folder or holds it, and a report replaces its folder whole; run from "
            f"outside it (e.g. `cd {folder.parent}`) and give --output {folder}")
    if existing == folder:
        if not can_write_into(folder.parent):
            raise BenchmarkError(f"{given}: cannot replace it, its parent {folder.parent} is not writable")
        if not replace_foreign:
            _refuse_foreign(given, folder, foreign_files(folder, carried=carried))


def real_output(folder: Path) -> Path:
    """Where a report at `folder` goes: the absolute path, symbolic links followed."""
    return Path(os.path.realpath(Path(folder)))


def _refuse_foreign(given: Path, folder: Path, foreign: list[str]) -> None:
    if not foreign:
        return
    shown = ", ".join(foreign[:4]) + (f" and {len(foreign) - 4} more" if len(foreign) > 4 else "")
    why = "" if (folder / MANIFEST).is_file() else f" (it has no {MANIFEST}, so none of its files is known to be a report's)"
    raise BenchmarkError(
        f"{given}: holds files that are not part of a report ({shown}){why}; a new report replaces the whole folder, "
        f"so give an empty folder, a new one, or one that holds only a report ({REPLACE_FLAG} deletes them)")


class OutputClaim:
    """The right to write one output folder, from the checks before measuring to publishing."""

    def __init__(self, folder: Path, *, replace_foreign: bool = False, carried: dict[str, str] | None = None) -> None:
        self.given = Path(folder)
        self.folder = real_output(self.given)
        self.replace_foreign = replace_foreign
        self.carried = carried  # name -> SHA-256 of files the new report holds byte for byte
        self._lock: tuple[int, Path] | None = None

    def __enter__(self) -> OutputClaim:
        check_output_folder(self.given, replace_foreign=True)  # its kind and rights; contents under the lock
        self.folder.parent.mkdir(parents=True, exist_ok=True)
        self._lock = _lock(self.folder, self.given)
        try:
            if not self.replace_foreign:
                _refuse_foreign(self.given, self.folder, foreign_files(self.folder, carried=self.carried))
            _remove_leftovers(self.folder)
        except BaseException:
            self.__exit__()
            raise
        return self

    def __exit__(self, *_exc) -> None:
        if self._lock is not None:
            _unlock(*self._lock)
            self._lock = None

    def check_outside(self, path: Path, what: str, option: str) -> None:
        """Refuse now a `path` inside the folder (a cache, say): the swap would throw it away."""
        inside = real_output(path)
        if inside == self.folder or self.folder in inside.parents:
            raise BenchmarkError(f"{self.given}: holds {what} ({path}), and a report replaces its folder whole; "
                                 f"choose another --output or {option}")

    def publish(self, write: Callable[[Path], list[Path]]) -> list[Path]:
        """Call `write(staging_folder)`, which writes the report's files there and returns them, add
        the manifest, then put the staging folder in the folder's place. Returns the files as they
        are under the folder (the manifest last)."""
        assert self._lock is not None, "publish inside `with claim_output(...)`"
        folder = self.folder
        staging = Path(tempfile.mkdtemp(prefix=f".{folder.name}.{_NEW}-", dir=folder.parent))
        swapped = False
        try:
            written = write(staging)
            _carry_nested_reports(folder, staging)
            written.append(write_manifest(staging))
            _make_readable(staging)
            swapped = _swap(staging, folder)  # from here on, `folder` holds the new report
            if swapped and not self.replace_foreign:
                foreign = foreign_files(staging, carried=self.carried)  # the old folder, now at the staging path
                if foreign:  # a file appeared in it while the report was rendered: keep it
                    _swap(staging, folder)
                    swapped = False
                    _refuse_foreign(self.given, folder, foreign)
        except KeyboardInterrupt:
            if swapped:
                raise ReportInterrupted(f"interrupted: {self.given} holds the new report") from None
            raise ReportInterrupted(f"interrupted: {self.given} still holds {_what_it_holds(folder)}") from None
        finally:
            if not swapped:
                shutil.rmtree(staging, ignore_errors=True)
        try:
            shutil.rmtree(staging, ignore_errors=True)  # the old report
        except KeyboardInterrupt:
            raise ReportInterrupted(f"interrupted: {self.given} holds the new report") from None
        return [folder / path.relative_to(staging) for path in written]


def _carry_nested_reports(folder: Path, staging: Path) -> None:
    """Copy the reports nested in `folder` (reports/all-languages/) into the new one before the
    swap, as hard links where the file system allows: the swap then keeps them, and a run killed
    at any point leaves them whole in the old folder or the new."""
    for name in nested_reports(folder):
        if not (staging / name).exists():
            shutil.copytree(folder / name, staging / name, copy_function=_link_or_copy)


def _link_or_copy(source: str, target: str) -> None:
    try:
        os.link(source, target)
    except OSError:
        shutil.copy2(source, target)


def claim_output(folder: Path, *, replace_foreign: bool = False, carried: dict[str, str] | None = None) -> OutputClaim:
    """`with claim_output(folder) as claim: ... claim.publish(write)`; a BenchmarkError at once when
    the folder cannot take a report or another run holds it."""
    return OutputClaim(folder, replace_foreign=replace_foreign, carried=carried)


def publish(folder: Path, write: Callable[[Path], list[Path]], *, replace_foreign: bool = False) -> list[Path]:
    """`claim_output(folder)` and its `publish(write)` in one step."""
    with claim_output(folder, replace_foreign=replace_foreign) as claim:
        return claim.publish(write)


# ---------------------------------------------------------------- the lock


def _lock(folder: Path, given: Path) -> tuple[int, Path]:
    """Hold `.<name>.lock` beside `folder` (flock, exclusive, not waiting); it holds our pid."""
    path = folder.parent / f".{folder.name}.lock"
    move = "move it, or choose another --output"
    while True:
        try:  # not waiting: a FIFO opened for reading would wait for a writer
            fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_NONBLOCK | getattr(os, "O_NOFOLLOW", 0), 0o644)
        except OSError as exc:
            raise BenchmarkError(f"{path}: cannot make the lock of {given} ({exc.strerror})") from None
        status = os.fstat(fd)
        kind = mode_kind(status.st_mode)
        if kind is not None or status.st_nlink != 1:
            os.close(fd)
            what = f"is {kind}, not a lock file, and" if kind else "has other names (a hard link), so it is not our lock, and"
            raise BenchmarkError(f"{path}: {what} stands where the lock of {given} goes; {move}")
        held_by = os.read(fd, 64).decode("ascii", "replace").strip()
        if held_by and not held_by.isdigit():
            os.close(fd)
            raise BenchmarkError(f"{path}: a file that is not our lock stands where the lock of {given} goes; {move}")
        if not _try_flock(fd):
            held_by = held_by or _holder_pid(fd)
            os.close(fd)
            who = f"another run (pid {held_by})" if held_by else "another run"
            raise BenchmarkError(f"{who} is writing {given}; wait for it to finish, or choose another --output")
        # Its last holder removes the file before it lets go: ours must be the one at `path` now.
        try:
            current = os.stat(path, follow_symlinks=False)
        except FileNotFoundError:
            current = None
        if current is not None and current.st_ino == os.fstat(fd).st_ino:
            break
        os.close(fd)
    os.ftruncate(fd, 0)
    os.pwrite(fd, f"{os.getpid()}\n".encode("ascii"), 0)
    return fd, path


def _holder_pid(fd: int) -> str:
    """The pid in a lock held by another run: it writes it just after taking the lock, so a run
    that read the file in between waits a moment for it (0.5 s at most)."""
    import time

    for _ in range(50):
        time.sleep(0.01)
        held_by = os.pread(fd, 64, 0).decode("ascii", "replace").strip()
        if held_by.isdigit():
            return held_by
    return ""


def _try_flock(fd: int) -> bool:
    try:
        import fcntl
    except ImportError:  # Windows: a byte-range lock does the same
        import msvcrt

        try:
            msvcrt.locking(fd, msvcrt.LK_NBLCK, 1)
            return True
        except OSError:
            return False
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        return True
    except BlockingIOError:
        return False


def _unlock(fd: int, path: Path) -> None:
    # Removed while still held, so no run can lock a file that is about to disappear.
    Path(path).unlink(missing_ok=True)
    os.close(fd)


# ---------------------------------------------------------------- the swap


def _what_it_holds(folder: Path) -> str:
    if (folder / "results.json").is_file():
        return "the previous report, whole"
    return "no report (it was never written)"


def _make_readable(staging: Path) -> None:
    # mkdtemp makes an owner-only folder; a report folder is for everyone to read, as its files are.
    umask = os.umask(0)
    os.umask(umask)
    staging.chmod(0o777 & ~umask)


def _swap(staging: Path, folder: Path) -> bool:
    """Put `staging` at `folder`; the old folder, if any, ends at `staging`'s path. True when done."""
    if not folder.exists():
        os.rename(staging, folder)
        return True
    if sys.platform.startswith("linux") and _exchange(staging, folder):
        return True
    aside = Path(tempfile.mkdtemp(prefix=f".{folder.name}.{_OLD}-", dir=folder.parent))
    os.rmdir(aside)
    os.rename(folder, aside)
    os.rename(staging, folder)
    os.rename(aside, staging)
    return True


_RENAME_EXCHANGE = 2
_AT_FDCWD = -100


def _exchange(a: Path, b: Path) -> bool:
    """Swap two paths in one atomic step (Linux renameat2); False where it is not available."""
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        renameat2 = libc.renameat2
    except (OSError, AttributeError):
        return False
    renameat2.argtypes = [ctypes.c_int, ctypes.c_char_p, ctypes.c_int, ctypes.c_char_p, ctypes.c_uint]
    if renameat2(_AT_FDCWD, os.fsencode(a), _AT_FDCWD, os.fsencode(b), _RENAME_EXCHANGE) == 0:
        return True
    code = ctypes.get_errno()
    if code in (errno.EINVAL, errno.ENOSYS, errno.ENOTSUP, errno.EOPNOTSUPP):
        return False  # the file system cannot exchange: rename in two steps
    raise OSError(code, os.strerror(code), str(b))


def _remove_leftovers(folder: Path) -> None:
    """Siblings a killed run on this folder left behind (a half-rendered report, an old one being
    removed); called under the folder's lock, so no live run owns them."""
    name = re.compile(re.escape(f".{folder.name}.") + f"(?:{_NEW}|{_OLD})-" + _MKDTEMP_TAIL)
    for path in folder.parent.iterdir():
        if name.fullmatch(path.name) and path.is_dir() and not path.is_symlink():
            shutil.rmtree(path, ignore_errors=True)

"""The output folder holds one complete report, the old one or the new one, whatever happens.

`publish` renders every file (results.json, results.csv, README.md, index.html, plots/) into a
fresh folder beside the output folder, then swaps the two: on Linux in one atomic step
(renameat2 with RENAME_EXCHANGE), elsewhere by two renames, a gap of microseconds in which the
folder is missing. An interrupted or killed run leaves the old report whole, and its half-rendered
sibling is removed by the next run. Because the whole folder is replaced, the output folder must
hold nothing but a report (or nothing at all): `check_output_folder` refuses any other content.
"""

from __future__ import annotations

import ctypes
import errno
import os
import shutil
import sys
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING, Callable

from benchmark.errors import BenchmarkError

if TYPE_CHECKING:
    from benchmark.results.rows import Results

REPORT_FILES = frozenset({"results.json", "results.csv", "summaries.csv", "README.md", "index.html", "plots"})
_NEW, _OLD = "new", "old"  # the siblings' kinds: `.<name>.new-XXXX`, `.<name>.old-XXXX`


class ReportInterrupted(KeyboardInterrupt):
    """Ctrl-C while a report was written; the message says which report the folder holds."""


def check_output_folder(folder: Path) -> None:
    """A BenchmarkError unless a report can be published at `folder` (which need not exist yet)."""
    folder = Path(folder)
    existing = folder
    while not existing.exists() and existing != existing.parent:
        existing = existing.parent
    if not existing.is_dir():
        what = "is a file" if existing == folder else f"cannot be made: {existing} is a file"
        raise BenchmarkError(f"{folder}: {what}; the output must be a folder")
    if not os.access(existing, os.W_OK | os.X_OK):
        raise BenchmarkError(f"{folder}: cannot write into {existing} (permission denied)")
    if existing == folder:
        if not os.access(folder.parent if folder.parent != folder else folder, os.W_OK | os.X_OK):
            raise BenchmarkError(f"{folder}: cannot replace it, its parent {folder.parent} is not writable")
        foreign = sorted(p.name for p in folder.iterdir() if p.name not in REPORT_FILES)
        if foreign:
            shown = ", ".join(foreign[:3]) + (", ..." if len(foreign) > 3 else "")
            raise BenchmarkError(
                f"{folder}: holds files that are not part of a report ({shown}); a new report replaces the "
                "whole folder, so give an empty folder, a new one, or one that holds only a report"
            )
        if (folder / "plots").exists() and not (folder / "plots").is_dir():
            raise BenchmarkError(f"{folder / 'plots'}: is a file; the plots go in a folder of that name")


def publish(folder: Path, write: Callable[[Path], list[Path]]) -> list[Path]:
    """Call `write(staging_folder)`, which writes the report's files there and returns them, then
    put the staging folder in `folder`'s place. Returns the files as they are under `folder`."""
    folder = Path(folder)
    check_output_folder(folder)
    parent = folder.parent
    parent.mkdir(parents=True, exist_ok=True)
    _remove_leftovers(folder)
    staging = Path(tempfile.mkdtemp(prefix=f".{folder.name}.{_NEW}-", dir=parent))
    swapped = False
    try:
        written = write(staging)
        _make_readable(staging)
        swapped = _swap(staging, folder)  # from here on, `folder` holds the new report
    except KeyboardInterrupt:
        raise ReportInterrupted(f"interrupted: {folder} still holds {_what_it_holds(folder)}") from None
    finally:
        if not swapped:
            shutil.rmtree(staging, ignore_errors=True)
    try:
        _remove_leftovers(folder)  # the old report, now at the staging path
    except KeyboardInterrupt:
        raise ReportInterrupted(f"interrupted: {folder} holds the new report") from None
    return [folder / path.relative_to(staging) for path in written]


def publish_report(results: Results, folder: Path, *, plots: bool = True, results_file: Path | None = None,
                   show_progress: bool = False) -> list[Path]:
    """`results.json` (saved, or `results_file` copied byte for byte) and the reports rendered
    from it (benchmark.report), published in `folder` in one swap."""
    from benchmark.progress import status
    from benchmark.report import write_reports
    from benchmark.results.rows import save_results

    def write(staging: Path) -> list[Path]:
        json_path = staging / "results.json"
        if results_file is None:
            save_results(results, json_path)
        else:
            shutil.copyfile(results_file, json_path)
        with status(f"writing reports to {folder}/", show_progress):
            return [json_path, *write_reports(results, staging, plots=plots)]

    return publish(folder, write)


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
    """Siblings a killed run left behind: a half-rendered report or an old one being removed."""
    for kind in (_NEW, _OLD):
        for path in folder.parent.glob(f".{folder.name}.{kind}-*"):
            if path.is_dir() and not path.is_symlink():
                shutil.rmtree(path, ignore_errors=True)

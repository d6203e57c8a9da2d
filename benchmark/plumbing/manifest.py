"""Which files a report wrote, so that a folder is replaced only when it holds nothing else.

A report folder carries `manifest.json`, written last:

    {"format": "tokencost-report-manifest", "version": 1,
     "files": {"README.md": "<sha256>", "plots/premium.png": "<sha256>", ...}}

`foreign_files(folder)` lists what in a folder is not one of its report's files, unchanged: a file
the manifest does not list, one whose SHA-256 differs, a folder or link the report did not make.
A folder inside it that is a report of its own (`nested_reports`: reports/all-languages/ in
reports/) is neither listed nor foreign: a new report of the outer folder carries it over.
A folder without a manifest is no report: every file in it is foreign (a user's results.csv
beside a copied results.json was once taken for a report's), but for the files the new report
carries byte for byte (`carried`: the results file `report` renders), which lose nothing.

A user's folder where this program writes a few named files (`train --save-dir`) carries the
same listing of just those, `saved-models.json`: `not_ours` names the files about to be written
that stand there and are not what it wrote, unchanged, so that they are refused, not replaced.
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path

from benchmark.plumbing.errors import BenchmarkError
from benchmark.plumbing.fileio import atomic_write_text, mode_kind

MANIFEST = "manifest.json"
MANIFEST_FORMAT = "tokencost-report-manifest"
MANIFEST_VERSION = 1
SAVED = "saved-models.json"
SAVED_FORMAT = "tokencost-saved-models"


def sha256_file(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def nested_reports(folder: Path) -> list[str]:
    """The folders directly inside `folder` that are reports of their own (a manifest, nothing
    foreign), e.g. reports/all-languages/: a report of the folder keeps them and does not list
    them, since each is replaced by its own run."""
    folder = Path(folder)
    if not folder.is_dir():
        return []
    found = []
    for path in sorted(folder.iterdir()):
        if path.is_dir() and not path.is_symlink() and _listed_files(path / MANIFEST) is not None \
                and not foreign_files(path):
            found.append(path.name)
    return found


def _outside_nested(entries: list[tuple[str, str]], nested: list[str]) -> list[tuple[str, str]]:
    return [(name, kind) for name, kind in entries
            if not any(name == sub or name.startswith(sub + "/") for sub in nested)]


def write_manifest(folder: Path) -> Path:
    """List every file under `folder` (those of nested reports aside) with its SHA-256 in
    folder/manifest.json; returns its path."""
    folder = Path(folder)
    entries = _outside_nested(_entries(folder), nested_reports(folder))
    files = {name: sha256_file(folder / name) for name, kind in entries if kind == "file"}
    document = {"format": MANIFEST_FORMAT, "version": MANIFEST_VERSION, "files": dict(sorted(files.items()))}
    path = folder / MANIFEST
    atomic_write_text(path, json.dumps(document, indent=1, ensure_ascii=False) + "\n")
    return path


def foreign_files(folder: Path, *, carried: dict[str, str] | None = None) -> list[str]:
    """What in `folder` a new report may not replace, as paths relative to it ("notes.txt",
    "README.md (changed)"); empty when the folder is absent, empty, or exactly a report.
    `carried`: name -> SHA-256 of files the new report holds byte for byte, not foreign when equal."""
    folder = Path(folder)
    if not folder.is_dir():
        return []
    entries = _outside_nested(_entries(folder), nested_reports(folder))
    written = _listed_files(folder / MANIFEST)
    manifest = set() if written is None else {MANIFEST}  # the manifest itself, when it is one
    listed = {**(carried or {}), **(written or {})}
    made = {*manifest, *listed}
    made_dirs = {str(Path(name).parent) for name in made} - {"."}
    made_dirs |= {str(parent) for name in made_dirs for parent in Path(name).parents} - {"."}
    foreign = []
    for name, kind in entries:
        if kind == "dir" and name in made_dirs:
            continue
        if kind == "file" and name in manifest:
            continue
        if kind == "file" and name in listed:
            if sha256_file(folder / name) != listed[name]:
                foreign.append(f"{name} (changed)" if name in (written or {}) else name)
            continue
        foreign.append(name + ("/" if kind == "dir" else ""))
    return _without_contents(foreign)


def listed_unchanged(folder: Path, name: str) -> bytes | None:
    """The bytes of `name` (a path relative to `folder`) when `folder`'s manifest lists it and they
    are what it lists (a regular file, not a link); None otherwise. What a new report may take
    from the previous one instead of making it again (plots/reuse.py)."""
    folder = Path(folder)
    listed = _listed_files(folder / MANIFEST)
    if not listed or name not in listed:
        return None
    path = folder / name
    if any(part.is_symlink() for part in (path, *path.parents) if part != folder and folder in part.parents):
        return None
    try:
        # not waiting: a FIFO put in a plot's place would wait for a writer
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOFOLLOW", 0))
    except OSError:
        return None
    with os.fdopen(fd, "rb") as f:
        if mode_kind(os.fstat(f.fileno()).st_mode) is not None:
            return None
        data = f.read()
    return data if hashlib.sha256(data).hexdigest() == listed[name] else None


def not_ours(folder: Path, names: list[str]) -> list[str]:
    """Of `names` (files about to be written in `folder`), those that stand there and are not what
    this program wrote there, unchanged (nor the listing itself, when it is not ours)."""
    folder = Path(folder)
    listing = folder / SAVED
    listed = _listed_files(listing, SAVED_FORMAT)
    found = [SAVED] if listed is None and (listing.exists() or listing.is_symlink()) else []
    for name in names:
        path = folder / name
        if not path.exists() and not path.is_symlink():
            continue
        regular = path.is_file() and not path.is_symlink()
        if not regular or name not in (listed or {}) or sha256_file(path) != listed[name]:
            found.append(name)
    return found


def refuse_not_ours(folder: Path, names: list[str], option: str, *, hint: str = "") -> None:
    """A BenchmarkError naming the files `not_ours` finds, before any is written."""
    found = not_ours(folder, names)
    if found:
        shown = ", ".join(found[:4]) + (f" and {len(found) - 4} more" if len(found) > 4 else "")
        raise BenchmarkError(f"{option} {folder}: holds {shown}, which this program did not write there (its {SAVED} "
                             f"does not list it unchanged); move it away, or choose another {option}{hint}")


def record_saved(folder: Path, paths: list[Path]) -> Path:
    """Add `paths` (files just written in `folder`) to its listing with their SHA-256."""
    folder = Path(folder)
    files = {**(_listed_files(folder / SAVED, SAVED_FORMAT) or {}),
             **{Path(path).name: sha256_file(path) for path in paths}}
    document = {"format": SAVED_FORMAT, "version": MANIFEST_VERSION, "files": dict(sorted(files.items()))}
    atomic_write_text(folder / SAVED, json.dumps(document, indent=1, ensure_ascii=False) + "\n")
    return folder / SAVED


def _entries(folder: Path) -> list[tuple[str, str]]:
    """(relative posix path, "file" | "dir" | "other") of everything under `folder`; links are
    "other" and never followed."""
    found = []
    for root, dirs, files in os.walk(folder):
        base = Path(root).relative_to(folder)
        for name in sorted(dirs):
            path = Path(root) / name
            found.append(((base / name).as_posix(), "other" if path.is_symlink() else "dir"))
        for name in sorted(files):
            path = Path(root) / name
            regular = path.is_file() and not path.is_symlink()
            found.append(((base / name).as_posix(), "file" if regular else "other"))
        dirs[:] = [d for d in dirs if not (Path(root) / d).is_symlink()]
    return found


def _listed_files(path: Path, format_name: str = MANIFEST_FORMAT) -> dict[str, str] | None:
    """The manifest's {name: sha256}; None when there is no manifest or it is not one."""
    document = _json_object(path)
    if document is None or document.get("format") != format_name:
        return None
    files = document.get("files")
    if not isinstance(files, dict) or not all(isinstance(k, str) and isinstance(v, str) for k, v in files.items()):
        return None
    return {name: digest for name, digest in files.items() if ".." not in Path(name).parts}


def _json_object(path: Path) -> dict | None:
    """The JSON object in the regular file `path` (not a link); None for anything else."""
    if not path.is_file() or path.is_symlink():
        return None
    try:
        document = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError, RecursionError):
        return None
    return document if isinstance(document, dict) else None


def _without_contents(names: list[str]) -> list[str]:
    """A foreign folder stands for what it holds: `thesis/` rather than each of its files."""
    folders = [name for name in names if name.endswith("/")]
    return sorted(name for name in names if not any(name != f and name.startswith(f) for f in folders))

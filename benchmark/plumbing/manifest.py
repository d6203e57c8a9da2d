"""Which files a report wrote, so that a folder is replaced only when it holds nothing else.

A report folder carries `manifest.json`, written last:

    {"format": "tokencost-report-manifest", "version": 1,
     "files": {"README.md": "<sha256>", "plots/premium.png": "<sha256>", ...}}

`foreign_files(folder)` lists what in a folder is not one of its report's files, unchanged: a file
the manifest does not list, one whose SHA-256 differs, a folder or link the report did not make.
A folder inside it that is a report of its own (`nested_reports`: reports/all-languages/ in
reports/) is neither listed nor foreign: a new report of the outer folder carries it over.
A folder written before reports had a manifest (no manifest.json) counts as a report when each
file in it is one that version wrote: results.json (a results file), results.csv, summaries.csv,
README.md and index.html that name that results file's run ("Run of <date>"), and plots/<name>.png
or .svg that its README.md links to; anything else there is foreign.
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path

from benchmark.plumbing.fileio import atomic_write_text

MANIFEST = "manifest.json"
MANIFEST_FORMAT = "tokencost-report-manifest"
MANIFEST_VERSION = 1
_LEGACY_TEXT_FILES = ("results.csv", "summaries.csv")
_LEGACY_RUN_PAGES = ("README.md", "index.html")
_RESULTS_FORMAT = "tokencost-results"


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


def foreign_files(folder: Path) -> list[str]:
    """What in `folder` a new report may not replace, as paths relative to it ("notes.txt",
    "README.md (changed)"); empty when the folder is absent, empty, or exactly a report."""
    folder = Path(folder)
    if not folder.is_dir():
        return []
    entries = _outside_nested(_entries(folder), nested_reports(folder))
    listed = _listed_files(folder / MANIFEST)
    if listed is None:
        return _legacy_foreign(folder, entries)
    made = {MANIFEST, *listed}
    made_dirs = {str(Path(name).parent) for name in made} - {"."}
    made_dirs |= {str(parent) for name in made_dirs for parent in Path(name).parents} - {"."}
    foreign = []
    for name, kind in entries:
        if kind == "dir" and name in made_dirs:
            continue
        if kind == "file" and name == MANIFEST:
            continue
        if kind == "file" and name in listed:
            if sha256_file(folder / name) != listed[name]:
                foreign.append(f"{name} (changed)")
            continue
        foreign.append(name + ("/" if kind == "dir" else ""))
    return _without_contents(foreign)


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


def _listed_files(path: Path) -> dict[str, str] | None:
    """The manifest's {name: sha256}; None when there is no manifest or it is not one."""
    document = _json_object(path)
    if document is None or document.get("format") != MANIFEST_FORMAT:
        return None
    files = document.get("files")
    if not isinstance(files, dict) or not all(isinstance(k, str) and isinstance(v, str) for k, v in files.items()):
        return None
    return {name: digest for name, digest in files.items() if ".." not in Path(name).parts}


def _legacy_foreign(folder: Path, entries: list[tuple[str, str]]) -> list[str]:
    """The files of a folder without a manifest that the previous version's report would not
    have written (every file, when it holds no report at all)."""
    date = _run_date(folder / "results.json")
    everything = _without_contents([name + ("/" if kind == "dir" else "") for name, kind in entries
                                    if (name, kind) != ("plots", "dir")])
    if date is None:
        return everything
    marker = f"Run of {date}"
    readme = _text(folder / "README.md")
    linked = {name for name, _ in entries if _is_plot_name(name) and readme is not None
              and any(f"({name[:-4]}{suffix})" in readme for suffix in (".png", ".svg"))}
    foreign = []
    for name, kind in entries:
        if name == "results.json" and kind == "file":
            continue
        if name in _LEGACY_TEXT_FILES and kind == "file":
            continue
        if name in _LEGACY_RUN_PAGES and kind == "file" and marker in (_text(folder / name) or ""):
            continue
        if name == "plots" and kind == "dir":
            continue
        if name in linked and kind == "file":
            continue
        foreign.append(name + ("/" if kind == "dir" else ""))
    return _without_contents(foreign)


def _is_plot_name(name: str) -> bool:
    """plots/<name>.png or .svg, directly in plots/."""
    return name.startswith("plots/") and name.count("/") == 1 and name.endswith((".png", ".svg"))


def _run_date(path: Path) -> str | None:
    """The date of a results file's run; None when `path` is not a results file of ours."""
    document = _json_object(path)
    if document is None or (document.get("format") != _RESULTS_FORMAT and "format_version" not in document):
        return None
    record = document.get("record")
    date = record.get("date") if isinstance(record, dict) else None
    return date if isinstance(date, str) and date else None


def _json_object(path: Path) -> dict | None:
    """The JSON object in the regular file `path` (not a link); None for anything else."""
    if not path.is_file() or path.is_symlink():
        return None
    try:
        document = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError, RecursionError):
        return None
    return document if isinstance(document, dict) else None


def _text(path: Path) -> str | None:
    try:
        return path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return None


def _without_contents(names: list[str]) -> list[str]:
    """A foreign folder stands for what it holds: `thesis/` rather than each of its files."""
    folders = [name for name in names if name.endswith("/")]
    return sorted(name for name in names if not any(name != f and name.startswith(f) for f in folders))

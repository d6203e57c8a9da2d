"""The training cache, read-only or damaged (issue #26, cases 11 and 12): real training into a real
cache folder, then the folder made read-only or an entry truncated with its digest edited to match."""

from __future__ import annotations

import hashlib
import json
import os
import re
import stat
from pathlib import Path

import pytest

from benchmark.cli.parser import main
from tests.support.paths import DATA

TRAIN = ["--tokenizers", "hf/bpe-*,bpe/balanced-*", "--vocab-sizes", "300", "--languages", "eng,spa",
         "--max-sentences", "40"]

METADATA = re.compile(r"[0-9a-f]{32}\.json")
AS_ROOT = os.geteuid() == 0  # root writes into a read-only folder: those cases cannot be made


def read_only(folder: Path) -> None:
    for path in [folder, *folder.rglob("*")]:
        if path.is_dir():
            path.chmod(stat.S_IRUSR | stat.S_IXUSR)


def writable(folder: Path) -> None:
    for path in [folder, *folder.rglob("*")]:
        if path.is_dir():
            path.chmod(stat.S_IRWXU)


@pytest.fixture
def filled_cache(tmp_path) -> Path:
    cache = tmp_path / "cache"
    assert main(["train", *TRAIN, "--cache-dir", str(cache)]) == 0
    return cache


@pytest.mark.skipif(AS_ROOT, reason="root writes into a read-only folder")
def test_a_read_only_cache_is_read_and_what_it_lacks_is_trained_for_the_run(filled_cache, tmp_path, capsys):
    read_only(filled_cache)
    try:
        capsys.readouterr()
        assert main(["train", *TRAIN, "--cache-dir", str(filled_cache)]) == 0  # all cached: nothing to write
        assert main(["run", "--corpus", str(DATA / "tiny_corpus"), *TRAIN[:4], "--repeats", "1", "--no-plots",
                     "--cache-dir", str(filled_cache), "--output", str(tmp_path / "out")]) == 0
        # A size the cache lacks: trained, used, not kept, and said so.
        assert main(["encode", "Once upon a time", "--tokenizers", "hf/bpe-*", "--vocab-sizes", "320",
                     "--cache-dir", str(filled_cache)]) == 0
        captured = capsys.readouterr()
        assert "hf/bpe-320" in captured.out and "failed" not in captured.out
        assert "the cache cannot keep this hf-bpe model (Permission denied)" in captured.err
    finally:
        writable(filled_cache)


def test_a_family_folder_that_cannot_be_written_keeps_the_freshly_trained_model_for_the_run(filled_cache, capsys):
    family = filled_cache / "hf-bpe"
    if AS_ROOT:
        for path in family.iterdir():
            path.unlink()
        family.rmdir()
        family.write_text("not a folder\n", encoding="utf-8")  # a write root cannot force either
    else:
        read_only(family)
    try:
        assert main(["train", "--tokenizers", "hf/bpe-*", "--vocab-sizes", "330", "--languages", "eng,spa",
                     "--max-sentences", "40", "--cache-dir", str(filled_cache)]) == 0
        captured = capsys.readouterr()
        assert [line.split()[-1] for line in captured.out.splitlines() if line.startswith("hf/bpe-330")] == ["ok"]
        assert "the cache cannot keep this hf-bpe model" in captured.err
    finally:
        if family.is_dir():
            writable(family)


def test_a_truncated_cache_entry_with_a_matching_digest_is_trained_again_and_repaired(filled_cache, tmp_path):
    models = {path: path.read_bytes() for path in filled_cache.rglob("*")
              if path.is_file() and not METADATA.fullmatch(path.name)}
    assert {path.parent.name for path in models} == {"bpe", "hf-bpe"}
    for path, data in models.items():
        damaged = data[: len(data) // 2]
        path.write_bytes(damaged)
        meta_path = path.parent / (path.name.split(".")[0] + ".json")
        meta = json.loads(meta_path.read_text(encoding="utf-8"))
        meta["model_sha256"] = hashlib.sha256(damaged).hexdigest()
        meta_path.write_text(json.dumps(meta), encoding="utf-8")
    assert main(["train", *TRAIN, "--cache-dir", str(filled_cache)]) == 0  # was: EOF while parsing, every time
    for path, data in models.items():
        assert path.read_bytes() == data  # trained again: the same model, in place of the damaged one

"""Outputs are written whole or not at all: a failed write leaves the old file and no temp file."""

from __future__ import annotations

import os

import pytest

from benchmark.plumbing.fileio import atomic_write_bytes, atomic_write_text


def test_a_failed_write_keeps_the_old_file_and_leaves_no_temp_file(tmp_path):
    path = tmp_path / "results.csv"
    atomic_write_text(path, "old,content\n")
    with pytest.raises(TypeError):
        atomic_write_bytes(path, "not bytes")  # fails inside the write, after the temp file exists
    with pytest.raises(UnicodeEncodeError):
        atomic_write_text(path, "lone surrogate \ud800")
    assert path.read_text(encoding="utf-8") == "old,content\n"
    assert [p.name for p in tmp_path.iterdir()] == ["results.csv"]


def test_written_files_get_the_usual_permissions_not_mkstemps_owner_only(tmp_path):
    path = tmp_path / "sub" / "index.html"
    atomic_write_text(path, "<p>ok</p>\n")
    assert path.read_bytes() == b"<p>ok</p>\n"
    umask = os.umask(0)
    os.umask(umask)
    assert path.stat().st_mode & 0o777 == 0o666 & ~umask

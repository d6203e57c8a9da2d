"""`train --save-dir DIR` writes only files it wrote there before, unchanged (issue 38 item 4):
a user's file of a model's name, a link or a folder in its place, a changed model, or a listing
that is not ours is refused before any model is written; the user's other files stay beside."""

from __future__ import annotations


import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from benchmark.cli.parser import main
from benchmark.plumbing.manifest import SAVED

MODEL = "bpe_balanced-300.json"
STATES = ["absent", "empty", "ours", "ours, changed", "user's file of the model's name", "link in its place",
          "folder in its place", "user's listing", "user's other files"]


@pytest.fixture(scope="module")
def cache(tmp_path_factory):
    return tmp_path_factory.mktemp("cache")


def train(save_dir, cache) -> int:
    return main(["train", "--tokenizers", "bpe/balanced-*", "--vocab-sizes", "300", "--languages", "eng",
                 "--max-sentences", "50", "--cache-dir", str(cache), "--save-dir", str(save_dir)])


def snapshot(folder):
    if not folder.exists():
        return None
    return {p.name: (p.is_symlink(), p.is_dir(), p.read_bytes() if p.is_file() else None)
            for p in sorted(folder.iterdir())}


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(state=st.sampled_from(STATES), content=st.binary(max_size=32))
def test_a_save_replaces_only_what_it_wrote(cache, tmp_path_factory, capsys, state, content):
    save_dir = tmp_path_factory.mktemp("save") / "models"
    mine = save_dir.parent / "mine.bin"
    mine.write_bytes(content)
    if state != "absent":
        save_dir.mkdir()
    if state.startswith("ours"):
        assert train(save_dir, cache) == 0
        if state == "ours, changed":
            with open(save_dir / MODEL, "ab") as handle:
                handle.write(b" ")
    elif state == "user's file of the model's name":
        (save_dir / MODEL).write_bytes(content)
    elif state == "link in its place":
        (save_dir / MODEL).symlink_to(mine)
    elif state == "folder in its place":
        (save_dir / MODEL).mkdir()
        (save_dir / MODEL / "notes.txt").write_bytes(content)
    elif state == "user's listing":
        (save_dir / SAVED).write_bytes(content)
    elif state == "user's other files":
        (save_dir / "notes.txt").write_bytes(content)
        (save_dir / "bpe_balanced-300.model").write_bytes(content)  # a name no model of this run takes
    capsys.readouterr()
    before = snapshot(save_dir)
    status = train(save_dir, cache)
    captured = capsys.readouterr()
    assert mine.read_bytes() == content
    if state in ("absent", "empty", "ours", "user's other files"):
        assert status == 0, captured.err
        assert (save_dir / MODEL).is_file() and (save_dir / SAVED).is_file()
        for name, was in (before or {}).items():
            if name not in (MODEL, SAVED):
                assert snapshot(save_dir)[name] == was  # the user's files beside are as they were
        assert train(save_dir, cache) == 0  # and what it wrote, it may write again
        return
    assert status == 2
    error = captured.err.splitlines()[-1]  # after the progress line of the training
    assert error.startswith("error: --save-dir ") and "which this program did not write there" in error
    assert snapshot(save_dir) == before  # nothing written


def test_the_issue_case_a_users_file_named_like_the_model_is_kept(cache, tmp_path, capsys):
    (tmp_path / MODEL).write_text("my own notes\n", encoding="utf-8")
    assert train(tmp_path, cache) == 2
    assert (tmp_path / MODEL).read_text(encoding="utf-8") == "my own notes\n"
    assert f"holds {MODEL}, which this program did not write there" in capsys.readouterr().err
    assert not (tmp_path / SAVED).exists()

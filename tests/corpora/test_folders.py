"""Corpus loading: the bundled FLORES-200 (pinned sums), user folders, and every validation error."""

from __future__ import annotations

import os

import re
import shutil
from pathlib import Path

import pytest

from benchmark.corpora import (
    BUNDLED_CORPUS_DIR,
    FLORES_LANGUAGES,
    language_name,
    list_corpus_languages,
    load_corpus,
    load_flores,
    read_manifest,
)
from benchmark.plumbing.errors import BenchmarkError
from tests.support.paths import DATA

SIX_FILES = [f"{split}/{code}.{split}" for split in ("dev", "devtest") for code in sorted(FLORES_LANGUAGES)]


def write(path: Path, data: bytes | str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(data, str):
        data = data.encode("utf-8")
    path.write_bytes(data)
    return path


def test_bundled_flores_loads_with_both_splits_aligned():
    corpus = load_flores()
    assert corpus.languages == FLORES_LANGUAGES
    assert {code: len(corpus.lines("dev", code)) for code in corpus.languages} == dict.fromkeys(FLORES_LANGUAGES, 997)
    assert {code: len(corpus.lines("devtest", code)) for code in corpus.languages} == dict.fromkeys(FLORES_LANGUAGES, 1012)
    manifest = read_manifest()
    assert corpus.checksums == {key: manifest[key] for key in SIX_FILES}
    assert corpus.measure_split == "devtest" and corpus.train_split == "dev"
    # No newline or carriage return survives in a line.
    assert not any("\n" in line or "\r" in line for line in corpus.lines("devtest", "jpn_Jpan"))


def test_readme_checksums_match_the_pinned_ones():
    readme = (BUNDLED_CORPUS_DIR.parent / "README.md").read_text(encoding="utf-8")
    listed = dict(
        (name.removeprefix("flores200/"), digest)
        for digest, name in re.findall(r"^([0-9a-f]{64})  (\S+)$", readme, flags=re.M)
    )
    manifest = read_manifest()
    assert listed == {key: manifest[key] for key in SIX_FILES}


def test_a_modified_bundled_file_is_refused_with_its_name(tmp_path):
    copy = tmp_path / "flores200"
    shutil.copytree(BUNDLED_CORPUS_DIR, copy)
    target = copy / "devtest" / "kor_Hang.devtest"
    target.write_bytes(target.read_bytes().replace(b".", b"!", 1))
    with pytest.raises(BenchmarkError, match=r"kor_Hang\.devtest: SHA-256 .* does not match"):
        load_flores(copy)


def test_language_selection_and_unknown_code():
    corpus = load_flores(languages=["jpn_Jpan", "eng_Latn"])
    assert corpus.languages == ("jpn_Jpan", "eng_Latn")
    # 204 codes are too many for one line: the closest ones, and where to see them all.
    with pytest.raises(BenchmarkError, match=r"unknown language code 'hin_Latn'; closest: hin_Deva.*"
                                             r"this corpus has 204 languages \(`python -m benchmark list"):
        load_flores(languages=["hin_Latn"])


def test_user_corpus_without_splits_is_one_split():
    corpus = load_corpus(DATA / "tiny_corpus")
    assert corpus.languages == ("eng", "jpn", "spa")
    assert corpus.measure_split == corpus.train_split == "all"
    assert corpus.lines("all", "spa")[2] == "Dormía todo el día."
    assert corpus.default_reference() == "eng"
    assert set(corpus.checksums) == {"all/eng.txt", "all/jpn.txt", "all/spa.txt"}


def test_user_corpus_with_splits():
    corpus = load_corpus(DATA / "tiny_split", ["jpn"])
    assert corpus.languages == ("jpn",)
    assert corpus.lines("devtest", "jpn") == ("博物館は九時に開きます。", "電車は毎時出発します。")
    assert len(corpus.lines("dev", "jpn")) == 4
    assert list_corpus_languages(DATA / "tiny_split") == ("eng", "jpn")


def test_crlf_line_endings_bom_and_missing_final_newline_are_accepted(tmp_path):
    write(tmp_path / "eng.txt", "\ufeffone\r\ntwo\r\n")
    write(tmp_path / "fra.txt", "un\ndeux")
    corpus = load_corpus(tmp_path)
    assert corpus.lines("all", "eng") == ("one", "two")
    assert corpus.lines("all", "fra") == ("un", "deux")


def test_invalid_utf8_names_file_and_line(tmp_path):
    write(tmp_path / "eng.txt", "a\nb\nc\n")
    write(tmp_path / "rus.txt", b"\xd0\xb0\n\xd0\xb1\n\xd0 bad\n")
    with pytest.raises(BenchmarkError, match=r"rus\.txt:3: not valid UTF-8"):
        load_corpus(tmp_path)


def test_empty_line_names_file_and_line(tmp_path):
    write(tmp_path / "eng.txt", "a\nb\nc\n")
    write(tmp_path / "jpn.txt", "あ\n  \nう\n")
    with pytest.raises(BenchmarkError, match=r"jpn\.txt:2: empty line"):
        load_corpus(tmp_path)


def test_different_line_counts_name_both_files(tmp_path):
    write(tmp_path / "eng.txt", "a\nb\nc\n")
    write(tmp_path / "spa.txt", "a\nb\n")
    with pytest.raises(BenchmarkError, match=r"spa\.txt: 2 lines but .*eng\.txt has 3.*line 3"):
        load_corpus(tmp_path)


def test_misaligned_split_is_refused(tmp_path):
    shutil.copytree(DATA / "tiny_split", tmp_path / "c")
    write(tmp_path / "c" / "devtest" / "jpn.txt", "一\n")
    with pytest.raises(BenchmarkError, match=r"devtest/jpn\.txt: 1 lines"):
        load_corpus(tmp_path / "c")


def test_split_folders_need_the_same_languages(tmp_path):
    shutil.copytree(DATA / "tiny_split", tmp_path / "c")
    (tmp_path / "c" / "devtest" / "jpn.txt").unlink()
    with pytest.raises(BenchmarkError, match=r"dev/jpn\.txt: language 'jpn' has no file"):
        load_corpus(tmp_path / "c")


def test_missing_folder_empty_folder_and_empty_file(tmp_path):
    with pytest.raises(BenchmarkError, match="no such corpus folder"):
        load_corpus(tmp_path / "nope")
    with pytest.raises(BenchmarkError, match=r"no <code>\.txt files"):
        load_corpus(tmp_path)
    write(tmp_path / "eng.txt", "\n")
    with pytest.raises(BenchmarkError, match=r"eng\.txt: file holds no text, only blank lines or spaces"):
        load_corpus(tmp_path)


def test_language_names_fall_back_to_the_code():
    assert language_name("jpn_Jpan") == "Japanese"
    assert language_name("ces") == "Czech"
    assert language_name("xyz_Abcd") == "xyz_Abcd"


def test_listing_and_loading_see_the_same_files(tmp_path):
    # A stray file in devtest/ is no language, and a dotted name is refused by both, with its name.
    shutil.copytree(DATA / "tiny_split", tmp_path / "c")
    write(tmp_path / "c" / "devtest" / "NOTES.md", "about this corpus\n")
    write(tmp_path / "c" / "dev" / ".eng.txt", b"\x00an editor's hidden copy")
    write(tmp_path / "c" / "dev" / ".notes.dev", "not the FLORES layout\n")
    assert list_corpus_languages(tmp_path / "c") == load_corpus(tmp_path / "c").languages == ("eng", "jpn")
    for split in ("dev", "devtest"):
        shutil.copy(tmp_path / "c" / split / "eng.txt", tmp_path / "c" / split / "eng.v2.txt")
    for read in (list_corpus_languages, load_corpus):
        with pytest.raises(BenchmarkError, match=r"eng\.v2\.txt: 'eng\.v2' is not a language code"):
            read(tmp_path / "c")


def test_a_flat_folder_takes_any_case_of_txt_and_skips_hidden_files(tmp_path):
    write(tmp_path / "français.txt", "un\ndeux\n")
    assert load_corpus(tmp_path).languages == ("français",)  # a code in another script is a code
    write(tmp_path / "_draft.txt", "one\ntwo\n")
    with pytest.raises(BenchmarkError, match=r"_draft\.txt: '_draft' is not a language code"):
        load_corpus(tmp_path)
    (tmp_path / "_draft.txt").unlink()
    (tmp_path / "français.txt").unlink()
    write(tmp_path / "eng.txt", "one\ntwo\n")
    write(tmp_path / "RUS.TXT", "один\nдва\n")
    write(tmp_path / ".txt", "not\na language\n")
    assert list_corpus_languages(tmp_path) == load_corpus(tmp_path).languages == ("RUS", "eng")
    write(tmp_path / "eng.TXT", "one\ntwo\n")
    with pytest.raises(BenchmarkError, match=r"eng\.txt: language 'eng' already has a file here, eng\.TXT"):
        load_corpus(tmp_path)


def test_old_mac_line_endings_and_a_byte_order_mark_inside_are_named(tmp_path):
    write(tmp_path / "eng.txt", "one\rtwo\rthree\r")
    with pytest.raises(BenchmarkError, match=r"eng\.txt:1: a carriage return inside the line"):
        load_corpus(tmp_path)
    write(tmp_path / "eng.txt", "one\ntwo\n")
    write(tmp_path / "spa.txt", "\ufeffuno\n\ufeffdos\n")  # two files joined: the first mark is allowed
    with pytest.raises(BenchmarkError, match=r"spa\.txt:2: starts with a byte-order mark"):
        load_corpus(tmp_path)


def test_english_is_the_default_reference_in_any_case(tmp_path):
    from benchmark.measure.plan import resolve_languages

    write(tmp_path / "ENG.txt", "one\ntwo\n")
    write(tmp_path / "jpn.txt", "一\n二\n")
    assert load_corpus(tmp_path).default_reference() == "ENG"
    assert resolve_languages(tmp_path, None, None) == (None, "ENG")
    write(tmp_path / "eng.txt", "one\ntwo\n")  # two files for one language: refused when the folder is read
    with pytest.raises(BenchmarkError, match=r"eng.txt: language 'eng' already has a file here, ENG.txt"):
        load_corpus(tmp_path)
    from benchmark.corpora import english_code

    with pytest.raises(BenchmarkError, match=r"ENG and eng are both English \(eng\); pick .* --reference CODE"):
        english_code(["ENG", "eng"])


@pytest.mark.parametrize("make, what", [
    (lambda path: path.mkdir(), "is a folder"),
    (lambda path: os.mkfifo(path), r"is a FIFO \(named pipe\)"),
    (lambda path: path.symlink_to(path.parent / "nowhere.txt"), "is a broken symbolic link"),
    (lambda path: path.symlink_to("/dev/null"), "is a character device"),
])
@pytest.mark.parametrize("name", ["spa.txt", "eng.txt"])
def test_a_corpus_file_that_is_not_a_regular_file_is_named(tmp_path, make, what, name):
    # It was skipped without a word: Spanish dropped, or "no English file" for eng.txt.
    write(tmp_path / "eng.txt" if name != "eng.txt" else tmp_path / "jpn.txt", "one\ntwo\n")
    make(tmp_path / name)
    with pytest.raises(BenchmarkError, match=f"{name}: {what}, not a corpus file"):
        load_corpus(tmp_path)
    with pytest.raises(BenchmarkError, match=f"{name}: {what}"):
        list_corpus_languages(tmp_path)


def test_two_codes_that_differ_only_in_case_are_one_language(tmp_path):
    write(tmp_path / "eng.txt", "one\ntwo\n")
    write(tmp_path / "ru.txt", "один\nдва\n")
    write(tmp_path / "RU.txt", "один\nдва\n")
    with pytest.raises(BenchmarkError, match=r"ru.txt: language 'ru' already has a file here, RU.txt"):
        load_corpus(tmp_path)


def test_a_line_longer_than_the_limit_is_named_with_its_line(tmp_path, monkeypatch):
    from benchmark.corpora import lines

    monkeypatch.setattr(lines, "MAX_LINE_CHARS", 10)
    write(tmp_path / "eng.txt", "short\n" + "x" * 11 + "\n")
    write(tmp_path / "jpn.txt", "一\n二\n")
    with pytest.raises(BenchmarkError, match=r"eng.txt:2: a line of 11 characters, over the limit of 10; "
                                             r"a line holds one sentence or document: split it"):
        load_corpus(tmp_path)

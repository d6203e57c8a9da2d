"""`cost --file`'s reading and counting (benchmark/measure/own_text.py): a real multi-page document
counted on every production tokenizer equals each vendor's own encoder on the same text; anything
that is not a text file is one line naming it, read from real files (a real FIFO, /dev/zero, a
sparse 1 GB file), never a traceback or a wait."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from benchmark.adapters.families import VENDOR_VOCABULARIES
from benchmark.measure import own_text
from benchmark.measure.own_text import MAX_FILE_BYTES, count_own_texts, read_own_text, read_own_texts
from benchmark.plumbing.errors import BenchmarkError
from tests.support.vendor_code import devtest_lines, vendor_encoder


def document(lines_a: list[str], lines_b: list[str]) -> str:
    """Pages of two languages: paragraphs of ten lines, a blank line between them, as a file holds them."""
    lines = lines_a + lines_b
    return "\n\n".join("\n".join(lines[k:k + 10]) for k in range(0, len(lines), 10)) + "\n"


@pytest.fixture(scope="module")
def pages(tmp_path_factory) -> list[Path]:
    folder = tmp_path_factory.mktemp("own")
    first = folder / "russian-japanese.txt"
    first.write_text(document(devtest_lines("rus_Cyrl")[:150], devtest_lines("jpn_Jpan")[:150]), encoding="utf-8")
    second = folder / "korean-czech.txt"
    second.write_text(document(devtest_lines("kor_Hang")[:100], devtest_lines("ces_Latn")[:100]), encoding="utf-8")
    return [first, second]


@pytest.fixture(scope="module")
def counted(pages):
    texts = read_own_texts(pages)
    return texts, count_own_texts(texts)


def test_a_multi_page_document_counts_as_each_vendors_own_encoder(counted):
    texts, counts = counted
    assert [c.tokenizer for c in counts] == list(VENDOR_VOCABULARIES)
    assert all(c.ok for c in counts), [c.status for c in counts if not c.ok]
    for count in counts:
        vendor = vendor_encoder(count.tokenizer)()
        assert count.n_tokens == tuple(len(vendor(t.text)) for t in texts), count.tokenizer
        assert count.n_tokens_total == sum(count.n_tokens) > 0


def test_a_file_is_read_whole_as_utf8(pages, counted):
    texts, _ = counted
    data = pages[0].read_bytes()
    assert texts[0].text == data.decode("utf-8") and texts[0].n_bytes == len(data) > 60_000
    assert texts[0].n_chars == len(texts[0].text) < texts[0].n_bytes  # Cyrillic and Japanese: several bytes a character


def refused(path) -> str:
    with pytest.raises(BenchmarkError) as caught:
        read_own_text(path)
    message = str(caught.value)
    assert "\n" not in message
    return message


def test_an_empty_file_and_a_missing_one(tmp_path):
    (tmp_path / "empty.txt").write_bytes(b"")
    assert refused(tmp_path / "empty.txt") == f"{tmp_path / 'empty.txt'}: is empty; nothing to count"
    assert refused(tmp_path / "absent.txt") == f"{tmp_path / 'absent.txt'}: no such file"


def test_a_binary_file_names_its_first_nul(tmp_path):
    path = tmp_path / "image.png"
    path.write_bytes(b"\x89PNG\r\n\x1a\n" + b"\x00\x00\x00\rIHDR")
    assert refused(path) == f"{path}: is binary (a NUL byte at byte offset 8), not text; give a text file"


def test_a_wrong_encoding_names_the_byte_offset_and_line(tmp_path):
    path = tmp_path / "latin1.txt"
    path.write_bytes("first line\nCafé crème\n".encode("latin-1"))
    assert refused(path) == (f"{path}: is not UTF-8: byte 0xe9 at byte offset 14 (line 2) is not valid UTF-8; "
                             "save it as UTF-8")
    utf16 = tmp_path / "utf16.txt"
    utf16.write_text("Привет", encoding="utf-16")
    assert "is UTF-16 (it starts with a UTF-16 byte-order mark), not UTF-8" in refused(utf16)


def test_a_folder_a_fifo_and_a_device_are_refused_unopened(tmp_path):
    assert refused(tmp_path) == f"{tmp_path}: is a folder, not a text file; give a file of text"
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)  # no writer: opening it to read would wait for ever
    assert refused(fifo) == f"{fifo}: is a FIFO (named pipe), not a text file; give a file of text"
    assert refused("/dev/zero") == "/dev/zero: is a device, not a text file; give a file of text"


def test_a_1_gb_file_is_refused_by_its_size_unread(tmp_path):
    path = tmp_path / "huge.txt"
    with open(path, "wb") as handle:  # sparse: 1 GB long, no disk used
        handle.truncate(10**9)
    assert refused(path) == (f"{path}: 1,000,000,000 bytes, past the bound of {MAX_FILE_BYTES:,} bytes a file "
                             "(one text); split it into files of at most that")


def test_the_bound_holds_for_a_file_that_says_it_is_smaller(tmp_path, monkeypatch):
    # A file whose size the system gives as small (a /proc file says 0) is still read no further than the bound.
    path = tmp_path / "grows.txt"
    path.write_bytes(b"a" * 101)
    monkeypatch.setattr(own_text, "MAX_FILE_BYTES", 100)
    real_fstat = os.fstat
    monkeypatch.setattr(own_text.os, "fstat", lambda fd: os.stat_result((*real_fstat(fd)[:6], 0, *real_fstat(fd)[7:])))
    assert refused(path) == f"{path}: more than the bound of 100 bytes a file (one text); split it into files of at most that"


def test_a_name_with_control_characters_is_shown_escaped(tmp_path):
    path = tmp_path / "evil\x1b]0;owned\x07.txt"
    path.write_bytes(b"")
    message = refused(path)
    assert "\x1b" not in message and "\x07" not in message and "evil\\x1b]0;owned\\x07.txt: is empty" in message


def test_no_file_and_an_unknown_tokenizer(pages):
    with pytest.raises(BenchmarkError, match="--file needs at least one file"):
        read_own_texts([])
    with pytest.raises(BenchmarkError, match="'bpe/balanced-4096' is not a production tokenizer"):
        count_own_texts(read_own_texts(pages[:1]), ["bpe/balanced-4096"])


# In a fresh process (pytest's workers run threads, so they never fork): count_own_texts forks
# its counting processes there. Each count_on records the pid it ran in, so the test sees that
# other processes counted; one tokenizer's load fails, and in a second call a child dies.
_IN_CHILDREN = r"""
import json, os, sys
from benchmark.adapters import registry
from benchmark.measure import own_text
from benchmark.plumbing.errors import BenchmarkError

paths, failing, pids = sys.argv[1:-3], sys.argv[-3], sys.argv[-2]
tokenizers = sys.argv[-1].split(",")
counted_on = own_text.count_on

def recorded(tokenizer_id, texts):
    with open(pids, "a") as out:
        out.write(f"{os.getpid()}\n")
    return counted_on(tokenizer_id, texts)

def broken():
    raise OSError("the vocabulary file is unreadable")

own_text.count_on = recorded
registry.PRETRAINED[failing] = broken
counts = own_text.count_own_texts(own_text.read_own_texts(paths), tokenizers, workers=2)
def dies(tokenizer_id, texts):
    os._exit(9)

own_text.count_on = dies
from benchmark.plumbing.children import fork_is_safe
import time
for _ in range(100):  # the last pool's threads take a moment to be gone; until then it would not fork
    if fork_is_safe():
        break
    time.sleep(0.05)
try:
    own_text.count_own_texts(own_text.read_own_texts(paths[:1]), tokenizers, workers=2)
    died = "no error"
except BenchmarkError as exc:
    died = str(exc)
print(json.dumps({"pid": os.getpid(), "died": died,
                  "counts": [[c.tokenizer, list(c.n_tokens), c.status] for c in counts]}))
"""


def test_counting_in_forked_processes_gives_the_same_counts_in_order(pages, counted, tmp_path):
    import json
    import subprocess
    import sys

    _, counts = counted
    here = counts[:4]  # enough for two children to take two each, a small one and a big one
    failing = here[1].tokenizer
    pids = tmp_path / "pids"
    done = subprocess.run([sys.executable, "-c", _IN_CHILDREN, *map(str, pages), failing, str(pids),
                           ",".join(c.tokenizer for c in here)],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-3000:]
    answer = json.loads(done.stdout)
    assert [c[0] for c in answer["counts"]] == [c.tokenizer for c in here] == list(VENDOR_VOCABULARIES[:4])
    for (tokenizer, n_tokens, status), mine in zip(answer["counts"], here):
        if tokenizer == failing:
            assert (n_tokens, status) == ([], "failed: OSError: the vocabulary file is unreadable")
        else:
            assert (tuple(n_tokens), status) == (mine.n_tokens, "ok"), tokenizer
    counted_in = set(map(int, pids.read_text().split()))
    assert len(counted_in) == 2 and answer["pid"] not in counted_in  # two children, not the process itself
    assert answer["died"] == "a process counting your files died (out of memory?); nothing was counted"

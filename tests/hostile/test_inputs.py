"""Any file a careless or hostile user gives gets the one user-facing error, or works.

Hypothesis builds corpus folders and model files from valid and broken pieces; loading them must
either succeed or raise `BenchmarkError` (printed by the CLI as one line), never anything else:
no traceback, no RecursionError, no MemoryError, no hang on a FIFO.
"""

from __future__ import annotations

import json
import os
import shutil
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from benchmark.adapters import load_tokenizer_file
from benchmark.bpe import ByteLevelBPE
from benchmark.corpora import list_corpus_languages, load_corpus
from benchmark.plumbing.errors import BenchmarkError
from benchmark.results.rows import load_results
from tests.support.paths import DATA

FIXTURE = DATA / "results_fixture.json"
HOSTILE = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])

# ---------------------------------------------------------------- corpus folders

GOOD_LINES = ("one sentence", "Érase una vez", "日本語の文", "два слова")
LINE_PIECES = st.one_of(
    st.sampled_from(GOOD_LINES).map(str.encode),
    st.just(b""),  # an empty line
    st.just(b"   "),
    st.just(b"bad \xff byte"),  # not UTF-8
    st.just(b"old mac\rline"),
    st.just(b"\xef\xbb\xbfmark inside"),
    st.binary(max_size=12),
)
NAMES = st.sampled_from(["eng", "spa", "ru", "RU", "jpn_Jpan", "x.bak", ".hidden", "dev", "fr-CA", "_x", "日本"])


@st.composite
def file_contents(draw) -> bytes:
    lines = draw(st.lists(LINE_PIECES, min_size=0, max_size=4))
    ending = draw(st.sampled_from([b"\n", b"\r\n"]))
    return ending.join(lines) + draw(st.sampled_from([b"", ending]))


@st.composite
def corpus_entries(draw) -> list[tuple[str, str, bytes]]:
    """(relative path, kind, content) for a folder: flat <code>.txt files or dev/ devtest/ splits."""
    layout = draw(st.sampled_from(["flat", "splits", "flores"]))
    entries = []
    for name in draw(st.lists(NAMES, min_size=0, max_size=4)):
        kind = draw(st.sampled_from(["file"] * 6 + ["folder", "fifo", "broken link"]))
        if layout == "flat":
            paths = [f"{name}.txt"]
        else:
            splits = draw(st.sampled_from([("dev", "devtest"), ("dev",), ("devtest",)]))
            paths = [f"{split}/{name}.{split if layout == 'flores' else 'txt'}" for split in splits]
        entries += [(path, kind, draw(file_contents())) for path in paths]
    return entries


def build_folder(root: Path, entries: list[tuple[str, str, bytes]]) -> None:
    for relative, kind, content in entries:
        path = root / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        if path.exists() or path.is_symlink():
            continue
        if kind == "file":
            path.write_bytes(content)
        elif kind == "folder":
            path.mkdir()
        elif kind == "fifo":
            os.mkfifo(path)  # reading it would block forever: it must be refused unread
        else:
            path.symlink_to(root / "nowhere")


@HOSTILE
@given(entries=corpus_entries())
def test_any_corpus_folder_loads_or_gets_the_one_error(entries):
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp) / "corpus"
        root.mkdir()
        build_folder(root, entries)
        for load in (load_corpus, list_corpus_languages):
            try:
                load(root)
            except BenchmarkError as exc:
                assert "\n" not in str(exc) and str(exc).startswith(str(root)), exc


# ---------------------------------------------------------------- model and results files


def _deep(depth: int) -> str:
    return "[" * depth + "]" * depth


JSON_VALUES = st.one_of(
    st.none(), st.booleans(), st.integers(min_value=-10, max_value=3_000_000_000), st.floats(allow_nan=False),
    st.sampled_from(["256", "1.0", "", "x" * 50]), st.just([]), st.just({}),
)


@st.composite
def damaged_json(draw, document: dict) -> str:
    """`document` with one of its leaves, keys or its text damaged."""
    how = draw(st.sampled_from(["leaf", "drop", "deep", "truncate", "bytes"]))
    text = json.dumps(document)
    if how == "deep":
        return _deep(draw(st.integers(min_value=1000, max_value=100_000)))
    if how == "truncate":
        return text[: draw(st.integers(min_value=0, max_value=len(text)))]
    if how == "bytes":
        return draw(st.text(max_size=40))
    document = json.loads(text)
    container, key = None, None  # the leaf (or subtree) to damage is container[key]
    node = document
    for _ in range(draw(st.integers(min_value=1, max_value=4))):
        keys = list(node) if isinstance(node, dict) else list(range(len(node))) if isinstance(node, list) else []
        if not keys:
            break
        container, key = node, keys[draw(st.integers(min_value=0, max_value=min(len(keys), 50) - 1))]
        node = container[key]
    if container is not None:
        if how == "drop" and isinstance(container, dict):
            del container[key]
        else:
            container[key] = draw(JSON_VALUES)
    return json.dumps(document)


@pytest.fixture(scope="module")
def model_files(tmp_path_factory) -> dict[str, dict]:
    """A trained model file and one from a rank table, as JSON documents."""
    folder = tmp_path_factory.mktemp("models")
    trained = ByteLevelBPE.train(["low lower lowest newer wider"] * 5, vocab_size=270, special_tokens=["<|x|>"])
    trained.save(folder / "trained.json")
    ranked = ByteLevelBPE(ranks=trained.mergeable_ranks(), pattern="cl100k", special_tokens={})
    ranked.save(folder / "ranks.json")
    return {name: json.loads((folder / f"{name}.json").read_text(encoding="utf-8")) for name in ("trained", "ranks")}


def _check_loads_or_one_error(load, path: Path) -> None:
    try:
        load(path)
    except BenchmarkError as exc:
        assert "\n" not in str(exc) and str(path) in str(exc), exc


@HOSTILE
@given(data=st.data())
def test_any_model_file_loads_or_gets_the_one_error(model_files, data):
    document = model_files[data.draw(st.sampled_from(sorted(model_files)))]
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "model.json"
        path.write_text(data.draw(damaged_json(document)), encoding="utf-8")
        _check_loads_or_one_error(ByteLevelBPE.load, path)
        _check_loads_or_one_error(load_tokenizer_file, path)


@HOSTILE
@given(data=st.data())
def test_any_results_file_loads_or_gets_the_one_error(data):
    document = json.loads(FIXTURE.read_text(encoding="utf-8"))
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "results.json"
        path.write_text(data.draw(damaged_json(document)), encoding="utf-8")
        _check_loads_or_one_error(load_results, path)


RANK_LINES = st.one_of(
    st.builds(lambda b, r: f"{b} {r}", st.sampled_from(["YQ==", "Yg==", "!!", ""]),
              st.sampled_from(["0", "1", "-5", "3000000000", "x", "1.5"])),
    st.text(max_size=20),
)


@HOSTILE
@given(extra=st.lists(RANK_LINES, max_size=4), keep=st.integers(min_value=0, max_value=256))
def test_any_rank_file_loads_or_gets_the_one_error(extra, keep):
    import base64

    lines = [f"{base64.b64encode(bytes([b])).decode()} {b}" for b in range(256)][:keep] + extra
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "ranks.tiktoken"
        path.write_text("\n".join(lines) + "\n", encoding="utf-8")
        _check_loads_or_one_error(load_tokenizer_file, path)


def test_a_fifo_given_as_a_model_file_is_refused_unread(tmp_path):
    import signal

    def hung(*_):
        raise TimeoutError("blocked reading the FIFO")

    path = tmp_path / "model.json"
    os.mkfifo(path)
    previous = signal.signal(signal.SIGALRM, hung)
    try:
        for load in (ByteLevelBPE.load, load_tokenizer_file, load_results):
            signal.alarm(10)  # a read of a FIFO with no writer blocks forever: fail instead of hanging
            with pytest.raises(BenchmarkError, match="is a FIFO"):
                load(path)
            signal.alarm(0)
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)
    shutil.rmtree(tmp_path)

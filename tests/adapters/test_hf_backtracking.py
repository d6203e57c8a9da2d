"""A user's HF tokenizer.json whose regex backtracks without end (issue 38 item 7): Oniguruma
gives up with a Rust panic, which was a 94-line traceback from `encode` and 101 lines and no
report from `run`. The file is refused when read, in one line; a panic on a text the probes did
not try fails that tokenizer on that text, and the rest goes on."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.paths import REPO


def hf_file(path: Path, pattern: str) -> Path:
    from tokenizers import Regex, Tokenizer, models, pre_tokenizers

    vocabulary = {char: n for n, char in enumerate("abcdefghijklmnopqrstuvwxyz!. ")}
    tokenizer = Tokenizer(models.WordLevel(vocab={**vocabulary, "[UNK]": len(vocabulary)}, unk_token="[UNK]"))
    tokenizer.pre_tokenizer = pre_tokenizers.Sequence([pre_tokenizers.Split(Regex(pattern), behavior="isolated"),
                                                       pre_tokenizers.Split(Regex("."), behavior="isolated")])
    tokenizer.save(str(path))
    return path


def benchmark_cli(*arguments: str, cwd: Path) -> subprocess.CompletedProcess:
    environment = {**os.environ, "PYTHONPATH": str(REPO), "RUST_BACKTRACE": "1", "CI": "true",
                   "XDG_CACHE_HOME": str(cwd / "cache")}
    return subprocess.run([sys.executable, "-m", "benchmark", *arguments], cwd=cwd, env=environment,
                          capture_output=True, text=True, timeout=300)


@pytest.fixture(scope="module")
def backtracking(tmp_path_factory) -> Path:
    return hf_file(tmp_path_factory.mktemp("hf") / "bt.json", "(?:a|a)+$")


@pytest.mark.parametrize("verb", ["encode", "run"])
def test_a_backtracking_regex_is_refused_in_one_line_by_encode_and_run(backtracking, tmp_path, verb):
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    for code in ("eng", "spa"):  # a line the pattern gives up on
        (corpus / f"{code}.txt").write_text(f"one line\n{'a' * 30}!\nthe end\n", encoding="utf-8")
    arguments = (["encode", "a" * 30 + "!"] if verb == "encode" else
                 ["run", "--corpus", str(corpus), "--output", str(tmp_path / "out"), "--no-plots", "--repeats", "1"])
    done = benchmark_cli(*arguments, "--tokenizer-file", str(backtracking), "--tokenizers", "file/*", cwd=tmp_path)
    assert done.returncode == 2, done.stderr
    assert done.stderr == (f"error: {backtracking}: its regex '(?:a|a)+$' backtracks without end: on 'a' * 40 and "
                           "'!', HF tokenizers gave up on this text (Onig: Regex search error: retry-limit-in-match "
                           "over); use a pattern without nested repeats of overlapping alternatives\n")
    assert not (tmp_path / "out").exists()


def test_an_ordinary_regex_is_read_and_splits_as_hf_does(tmp_path):
    from benchmark.adapters import load_tokenizer_file

    adapter = load_tokenizer_file(hf_file(tmp_path / "words.json", r"\s+|[a-z]+"))
    assert adapter.token_strings("ab cd!") == ["a", "b", " ", "c", "d", "!"]


def test_a_panic_on_a_text_the_probes_missed_fails_that_text_alone(tmp_path):
    from benchmark.adapters import load_tokenizer_file

    # the probes try runs of b's (a literal of the pattern), not of an upper-case letter and b
    adapter = load_tokenizer_file(hf_file(tmp_path / "b.json", r"(?:\p{Lu}b|\p{Lu}b)+$"))
    assert adapter.encode("Ab!") == adapter.encode("Ab!")
    with pytest.raises(ValueError, match=r"^HF tokenizers gave up on this text \(Onig: Regex search error"):
        adapter.encode("Ab" * 40 + "!")
    with pytest.raises(ValueError, match="HF tokenizers gave up"):
        adapter.token_strings("Ab" * 40 + "!")

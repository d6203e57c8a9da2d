"""A user's model file cannot hang the tool or mislead it (issue #26, cases 5, 15, 16, 20).

Model files are edited as a hostile user would, with the fingerprint recomputed so that only the
edit is judged; the real CLI runs on them in a subprocess with a time limit.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from benchmark.bpe import ByteLevelBPE
from benchmark.bpe.files import ModelContent, fingerprint_of
from tests.support.paths import REPO


def edited_model(path: Path, **changes) -> Path:
    """A small trained model file with `changes` to its JSON and a fingerprint that matches them."""
    ByteLevelBPE.train(["aaa bbb aaa ccc"] * 10, vocab_size=260, pattern="simple").save(path)
    raw = json.loads(path.read_text(encoding="utf-8"))
    raw.update(changes)
    raw.pop("pattern_name", None)  # derived; left out, it is not checked
    content = ModelContent(raw["pattern"], raw["special_tokens"], raw.get("name"),
                           merges=[tuple(entry[:2]) for entry in raw["merges"]])
    raw["fingerprint"] = fingerprint_of(content)
    path.write_text(json.dumps(raw), encoding="utf-8")
    return path


def encode(text: str, model: Path, timeout: float = 60) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "benchmark", "encode", text, "--tokenizers", "file/*",
                           "--tokenizer-file", str(model)], cwd=REPO, capture_output=True, text=True,
                          timeout=timeout, env={**os.environ, "PYTHONPATH": str(REPO)})


# ---------------------------------------------------------------- case 5: a pattern that backtracks


def test_a_pattern_that_backtracks_without_end_is_refused_when_the_file_is_read(tmp_path):
    model = edited_model(tmp_path / "evil.json", pattern="(?:a|a)+$")
    started = time.perf_counter()
    done = encode("a" * 40 + "!", model)
    assert time.perf_counter() - started < 30
    assert done.returncode == 2
    assert done.stderr.startswith(f"error: {model}: malformed model file (ValueError: pattern '(?:a|a)+$' takes "
                                  "over 0.25 s to split 41 characters ('a' * 40 and '!'): it backtracks without end")
    assert done.stderr.count("\n") == 1


def test_a_pattern_the_checks_let_through_runs_with_a_time_limit(tmp_path):
    # An upper-case letter then "b" is in none of the probes (they try runs of the pattern's literal "b"):
    # read, then stopped on the text that makes it backtrack.
    model = edited_model(tmp_path / "sly.json", pattern=r"(?:\p{Lu}b|\p{Lu}b)+$")
    started = time.perf_counter()
    done = encode("Ab" * 40 + "!", model)
    assert time.perf_counter() - started < 30
    assert done.returncode == 1
    line, = done.stdout.splitlines()
    assert line.startswith("file/sly.json")
    assert (r"failed: ValueError: pattern '(?:\\p{Lu}b|\\p{Lu}b)+$' took over 1.0 s to split a text of 81 characters"
            in line), line
    assert encode("AbAb rest", model).returncode == 0  # on ordinary text it works


def test_published_patterns_run_without_the_limit_and_custom_ones_split_as_before():
    import regex

    from benchmark.bpe.patterns import CL100K_PATTERN, compile_pattern, findall_of

    fast = ByteLevelBPE(merges=[], pattern="cl100k")
    published = findall_of(compile_pattern(CL100K_PATTERN))
    assert (fast._split.func, fast._split.keywords) == (published.func, published.keywords)  # no timeout
    custom = ByteLevelBPE(merges=[], pattern=r"\w+|\s+")
    text = "Érase una vez, 日本語 123 !!"
    assert custom._split(text) == regex.findall(r"(?:\w+|\s+)|[\s\S]", text)


# ---------------------------------------------------------------- cases 15, 16, 20: ids and empty files


@pytest.mark.parametrize(("token_id", "shown"), [(10**12, "has id 1000000000000"), (-5, "has id -5")])
def test_a_special_token_id_outside_the_vocabulary_is_refused_when_read(tmp_path, token_id, shown):
    from benchmark.cli.parser import main

    model = edited_model(tmp_path / "ids.json", special_tokens={"<|end|>": token_id})
    done = encode("hello", model)
    assert done.returncode == 2
    assert f"{model}: malformed model file (ValueError: special token '<|end|>' {shown}; ids run from 0" \
        in done.stderr
    assert "reuses id" not in done.stderr
    corpus = REPO / "tests" / "data" / "tiny_corpus"
    assert main(["run", "--corpus", str(corpus), "--tokenizers", "file/*", "--tokenizer-file", str(model),
                 "--no-plots", "--output", str(tmp_path / "out")]) == 2
    assert not (tmp_path / "out").exists()


def test_an_empty_sentencepiece_model_is_refused_before_anything_runs(tmp_path, capsys):
    from benchmark.cli.parser import main

    for name, data in (("empty.model", b""), ("blank.model", b"\n\n")):
        model = tmp_path / name
        model.write_bytes(data)
        assert main(["run", "--corpus", str(REPO / "tests" / "data" / "tiny_corpus"), "--tokenizers", "file/*",
                     "--tokenizer-file", str(model), "--no-plots", "--output", str(tmp_path / "out")]) == 2
        assert capsys.readouterr().err == f"error: {model}: empty file; expected a tokenizer file\n"


def test_messages_say_what_is_wrong(tmp_path, capsys):
    from benchmark.cli.parser import main

    ranks = tmp_path / "ranks.tiktoken"
    ranks.write_text("".join(f"{__import__('base64').b64encode(bytes([b])).decode()} {b}\n" for b in range(3))
                     + "YQ== \u0663\n", encoding="utf-8")
    assert main(["encode", "a", "--tokenizers", "file/*", "--tokenizer-file", str(ranks)]) == 2
    assert "rank '\u0663' is not a rank (0, 1, 2, ... in ASCII digits)" in capsys.readouterr().err

    loop = tmp_path / "loop"
    loop.symlink_to(loop)
    assert main(["list", "--corpus", str(loop)]) == 2
    assert f"{loop}: is a symbolic link that loops, not a corpus folder" in capsys.readouterr().err

    corpus = tmp_path / "c"
    corpus.mkdir()
    (corpus / "eng.txt").write_text("\n\n\n", encoding="utf-8")
    assert main(["list", "--corpus", str(corpus)]) == 2
    assert "eng.txt: file holds no text, only blank lines or spaces" in capsys.readouterr().err

    a_file = tmp_path / "FILE"
    a_file.write_text("x", encoding="utf-8")
    assert main(["list", "--cache-dir", str(a_file)]) == 2
    captured = capsys.readouterr()
    assert captured.err == f"error: --cache-dir {a_file}: is a file, not a cache folder\n" and captured.out == ""

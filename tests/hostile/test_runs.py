"""Runs on tiny or odd inputs give right answers or one-line errors (issue #26, cases 6, 8, 9, 13, 14,
17, 18, 19): real runs of the CLI on real files."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from benchmark.cli.parser import main
from benchmark.results.rows import load_results
from tests.support.paths import DATA, REPO

TINY = ["--corpus", str(DATA / "tiny_corpus"), "--repeats", "1"]


def test_a_two_sentence_corpus_draws_every_plot_and_each_interval_holds_its_estimate(tmp_path):
    from benchmark.results.metrics import containing

    assert containing((0.18577075098814233, 0.19), 0.1857707509881423) == (0.1857707509881423, 0.19)
    output = tmp_path / "out"
    assert main(["run", *TINY, "--max-sentences", "2", "--tokenizers", "tiktoken/*", "--output", str(output)]) == 0
    results = load_results(output / "results.json")
    for summary in results.summaries:
        for name in ("gini", "worst_to_best", "mean_premium"):
            low, high, value = (getattr(summary, f"{name}_ci_low"), getattr(summary, f"{name}_ci_high"),
                                getattr(summary, name))
            if value is not None:
                assert low <= value <= high, (summary.tokenizer, name)
    for row in results.rows:
        if row.premium is not None:
            assert row.premium_ci_low <= row.premium <= row.premium_ci_high
    assert list((output / "plots").glob("*.png"))


def test_a_tokenizer_file_named_like_mathtext_is_drawn_as_its_name(tmp_path):
    from benchmark.bpe import ByteLevelBPE

    model = tmp_path / "a|b$x^$.json"
    ByteLevelBPE.train(["Once upon a time there was a cat."] * 10, vocab_size=280, pattern="gpt2").save(model)
    output = tmp_path / "out"
    assert main(["run", *TINY, "--tokenizers", "tiktoken/cl100k_base,file/*", "--tokenizer-file", str(model),
                 "--output", str(output)]) == 0
    assert "file/a|b$x^$.json" in json.dumps(load_results(output / "results.json").to_dict())
    assert len(list((output / "plots").glob("*.png"))) >= 3  # every plot with the name drawn


@pytest.mark.parametrize("where, field, value, shown", [
    ("rows", "premium", -1.5, "-1.5"),
    ("rows", "premium_ci_high", 1e300, "1e+300"),
    ("rows", "tokens_per_sentence", -0.0001, "-0.0001"),
    ("summaries", "mean_premium_ci_high", 1e300, "1e+300"),
])
def test_a_figure_no_run_could_make_is_refused_when_the_results_are_read(tmp_path, capsys, where, field, value, shown):
    # Issue 38: a negative premium and 300-digit intervals were read as they were and reported.
    raw = json.loads((DATA / "results_cost.json").read_text(encoding="utf-8"))
    entry = next(item for item in raw[where] if item.get(field) is not None)
    entry[field] = value
    path = tmp_path / "results.json"
    path.write_text(json.dumps(raw), encoding="utf-8")
    assert main(["report", "--results", str(path), "--output", str(tmp_path / "out"), "--no-plots"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and f"{field} must be from 0 to below 2**63, got {shown}" in err, err
    assert not (tmp_path / "out").exists()


def test_a_count_no_run_could_make_is_refused_when_the_results_are_read(tmp_path, capsys):
    raw = json.loads((DATA / "results_fixture.json").read_text(encoding="utf-8"))
    raw["rows"][0]["n_tokens"] = 10**400
    path = tmp_path / "results.json"
    path.write_text(json.dumps(raw), encoding="utf-8")
    assert main(["report", "--results", str(path), "--output", str(tmp_path / "out"), "--no-plots"]) == 2
    err = capsys.readouterr().err
    assert f"{path}: malformed results, row 1: n_tokens must be below 2**63, got a number of 401 digits" in err
    assert not (tmp_path / "out").exists()


def test_a_save_dir_or_baseline_that_cannot_be_written_is_refused_before_the_work(tmp_path, capsys):
    import time

    a_file = tmp_path / "FILE"
    a_file.write_text("mine\n", encoding="utf-8")
    cache = tmp_path / "cache"
    started = time.perf_counter()
    assert main(["train", "--tokenizers", "bpe/*", "--vocab-sizes", "300", "--languages", "eng", "--max-sentences", "50",
                 "--cache-dir", str(cache), "--save-dir", str(a_file)]) == 2
    assert capsys.readouterr().err == f"error: --save-dir {a_file}: is a file; give a folder\n"
    assert not cache.exists()  # nothing was trained
    assert main(["speed", "--update-baseline", "--baseline", str(a_file / "x.json"), "--languages", "eng"]) == 2
    assert capsys.readouterr().err == f"error: --baseline {a_file}: is a file; give a folder\n"
    assert time.perf_counter() - started < 30
    assert a_file.read_text(encoding="utf-8") == "mine\n"


@pytest.mark.parametrize(("arguments", "message"), [
    (["--train-mix", "ENG=9,eng=1,*=1"], "training mix 'ENG=9,eng=1,*=1': eng given twice (codes are read in any case)"),
    (["--train-mix", "xx=1"], "training mix 'xx=1': no training language xx; the training languages are"),
    (["--languages", "all,xx"], "'xx'"),
])
def test_unknown_or_colliding_codes_are_errors(tmp_path, capsys, arguments, message):
    assert main(["run", "--tokenizers", "bpe/*", "--vocab-sizes", "300", "--max-sentences", "20", *arguments,
                 "--cache-dir", str(tmp_path / "cache"), "--no-plots", "--output", str(tmp_path / "out")]) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1
    assert not (tmp_path / "out").exists()
    assert main(["train", "--tokenizers", "bpe/*", "--vocab-sizes", "300", "--max-sentences", "20", *arguments,
                 "--cache-dir", str(tmp_path / "cache")]) == 2
    assert message in capsys.readouterr().err


def test_a_mix_code_in_capitals_is_the_same_code():
    from benchmark.corpora.mixes import parse_mix

    assert parse_mix("ENG=9,*=1").name == parse_mix("eng=9,*=1").name == "eng9-rest1"


CONTROL = "\x1b]0;owned\x07\x1b[2J\u202e"


def test_control_characters_in_names_and_text_reach_the_terminal_escaped(tmp_path):
    import os
    import shutil

    corpus = tmp_path / f"c{CONTROL}"
    shutil.copytree(DATA / "tiny_corpus", corpus)
    bad = tmp_path / "bad"
    shutil.copytree(DATA / "tiny_corpus", bad)
    (bad / f"x{CONTROL}.txt").write_text("a\nb\nc\n", encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    commands = [
        ["run", "--corpus", str(corpus), "--tokenizers", "tiktoken/cl100k_base", "--repeats", "1", "--no-plots",
         "--output", str(tmp_path / "out")],
        ["list", "--corpus", str(corpus), "--cache-dir", str(tmp_path / "cache")],
        ["list", "--corpus", str(bad)],
        ["encode", f"a{CONTROL}b", "--tokenizers", "tiktoken/cl100k_base"],
    ]
    for args in commands:
        done = subprocess.run([sys.executable, "-m", "benchmark", *args], cwd=tmp_path, env=env, capture_output=True,
                              text=True, timeout=300)
        shown = done.stdout + done.stderr
        assert not any(char in shown for char in "\x1b\x07\u202e"), (args[0], shown)
        assert "\\x1b" in shown and "\\x07" in shown, (args[0], shown)  # shown, escaped


def test_a_decomposed_file_name_is_a_code_like_its_composed_twin(tmp_path):
    import unicodedata

    from benchmark.corpora import load_corpus

    folder = tmp_path / "c"
    folder.mkdir()
    (folder / unicodedata.normalize("NFD", "és.txt")).write_text("uno\ndos\n", encoding="utf-8")
    (folder / "español.txt").write_text("uno\ndos\n", encoding="utf-8")
    assert sorted(load_corpus(folder).languages) == ["español", "és"]


def test_a_literal_id_picks_that_file_alone(tmp_path):
    from benchmark.adapters.registry import select_ids

    files = ["file/a.json", "file/[ab].json"]
    assert select_ids(["file/[ab].json"], [300], files) == ["file/[ab].json"]
    assert select_ids(["file/*"], [300], files) == files
    assert select_ids(["tiktoken/cl100k_base"], [300], files) == ["tiktoken/cl100k_base", *files]

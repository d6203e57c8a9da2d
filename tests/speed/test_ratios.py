"""The speed ratio check: regression detection, tolerance, baseline files, tables, the command.

No test here judges speed: fake measurements drive the check logic, and the one real run on a
small slice is checked against baselines no real encoder can be near (1e-6 and 1e6).
"""

from __future__ import annotations

import io
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from benchmark.corpora import BUNDLED_CORPUS_DIR, FLORES_LANGUAGES
from benchmark.plumbing.errors import BenchmarkError
from benchmark.speed.baseline import Baseline, baseline_from_rows, check_ratios, load_baseline, save_baseline
from benchmark.speed.command import SpeedOptions, run_speed
from benchmark.speed.markdown import format_ratio_table, summarise_unseen
from benchmark.speed.ratios import FIGURES, Engine, LanguageTexts, RatioRow, load_texts, measure_ratios
from tests.support.paths import REPO


def row(language: str, figure: str, ratio: float, *, tiktoken_seconds: float = 0.01) -> RatioRow:
    """A fake measurement whose paired ratios all equal `ratio`."""
    return RatioRow(language, figure, (ratio * tiktoken_seconds,) * 3, (tiktoken_seconds,) * 3,
                    n_bytes=100_000, n_tokens=25_000)


def test_ratio_is_median_of_paired_ratios():
    # Repeat 2 is a noisy outlier for ours; the pairs' median ignores it.
    measured = RatioRow("eng_Latn", "unseen", (0.02, 0.09, 0.03), (0.01, 0.01, 0.01), 10, 5)
    assert measured.ratio == pytest.approx(3.0)
    assert measured.x_tiktoken == pytest.approx(1 / 3)
    assert measured.ours_mb_s == pytest.approx(10 / 0.03 / 1e6)


def test_check_flags_only_ratios_beyond_tolerance():
    baseline = Baseline({("eng_Latn", "unseen"): 2.0, ("jpn_Jpan", "unseen"): 4.0, ("jpn_Jpan", "cold"): 5.0},
                        tolerance=0.25)
    rows = [
        row("eng_Latn", "unseen", 2.4),  # +20%: noise within tolerance
        row("jpn_Jpan", "unseen", 5.2),  # +30%: a regression
        row("jpn_Jpan", "cold", 2.5),  # faster: never a failure
        row("kor_Hang", "unseen", 99.0),  # not in the baseline: reported as new, not judged
    ]
    checked = check_ratios(rows, baseline)
    assert [c.verdict for c in checked] == ["ok", "SLOWER", "ok", "new"]
    assert [c.regressed for c in checked] == [False, True, False, False]
    assert checked[1].change == pytest.approx(0.30)
    # A stricter tolerance given on the command line overrides the file's.
    assert [c.regressed for c in check_ratios(rows, baseline, tolerance=0.1)] == [True, True, False, False]


def test_table_shows_baseline_change_and_verdict():
    baseline = Baseline({("jpn_Jpan", "unseen"): 4.0}, tolerance=0.25)
    table = format_ratio_table(check_ratios([row("jpn_Jpan", "unseen", 6.0), row("eng_Latn", "cold", 2.0)], baseline))
    lines = table.splitlines()
    assert lines[0].startswith("| language | figure |") and "verdict" in lines[0]
    assert "| jpn_Jpan | unseen |" in lines[2] and "| 6.00 | 0.17x | 4.00 | +50% | SLOWER |" in lines[2]
    assert lines[3].endswith("| - | - | new |")
    plain = format_ratio_table([row("jpn_Jpan", "unseen", 6.0)])
    assert "verdict" not in plain and len(plain.splitlines()) == 3


def test_unseen_summary_names_worst_language_and_median():
    rows = [row("eng_Latn", "unseen", 2.0), row("jpn_Jpan", "unseen", 8.0), row("kor_Hang", "unseen", 4.0),
            row("jpn_Jpan", "repeat", 100.0)]
    summary = summarise_unseen(rows)
    assert "worst 0.12x tiktoken (jpn_Jpan" in summary and "median 0.25x" in summary


def test_baseline_round_trip(tmp_path):
    rows = [row("eng_Latn", "unseen", 2.5), row("eng_Latn", "cold", 3.25)]
    path = tmp_path / "baseline.json"
    save_baseline(baseline_from_rows(rows, tolerance=0.3), path)
    loaded = load_baseline(path)
    assert loaded.ratios == {("eng_Latn", "unseen"): 2.5, ("eng_Latn", "cold"): 3.25}
    assert loaded.tolerance == 0.3
    assert loaded.info["machine"]["cpu_count"] and loaded.info["repeats"] == 3
    assert not list(tmp_path.glob("*.tmp*"))  # written through a temp file and renamed


@pytest.mark.parametrize("content,message", [
    (None, "no speed baseline"),
    ("{not json", "not valid JSON"),
    ('{"format": "something-else"}', "not a speed baseline"),
    ('{"format": "tokencost-speed-baseline", "version": 99}', "baseline version 99"),
    ('{"format": "tokencost-speed-baseline", "version": 1}', "baseline version 1, this program reads 2"),
    ('{"format": "tokencost-speed-baseline", "version": 2, "ratios": {}}', "malformed baseline"),
    ('{"format": "tokencost-speed-baseline", "version": 2, "tolerance": 0.2, "ratios": {"eng_Latn": {"cold": 0}}}',
     "eng_Latn/cold = 0.0 is not positive"),
])
def test_bad_baseline_is_one_clear_error(tmp_path, content, message):
    path = tmp_path / "baseline.json"
    if content is not None:
        path.write_text(content, encoding="utf-8")
    with pytest.raises(BenchmarkError, match=message) as info:
        load_baseline(path)
    assert str(path) in str(info.value) and "\n" not in str(info.value)


class CountingEngine:
    """A fake encoder that records what the protocol asks of it."""

    def __init__(self, name: str, *, offset: int = 0, has_cache: bool = True):
        self.name, self.offset, self.calls, self.resets = name, offset, [], 0
        self.engine = Engine(name, self.encode, self.reset if has_cache else None)

    def encode(self, text: str) -> list[int]:
        self.calls.append(text)
        return [len(text) + self.offset]

    def reset(self) -> None:
        self.resets += 1


def test_protocol_of_each_figure():
    texts = LanguageTexts("xx", dev=("d1", "d2"), devtest=("t1", "t2", "t3"))
    ours, theirs = CountingEngine("ours"), CountingEngine("theirs", has_cache=False)
    rows = measure_ratios([texts], repeats=2, engines=(ours.engine, theirs.engine), check_ids=False)
    assert [(r.figure, len(r.ours_seconds), r.n_tokens, r.n_bytes) for r in rows] == [
        ("unseen", 2, 3, 6), ("cold", 2, 3, 6), ("repeat", 2, 3, 6)]
    dev, devtest = list(texts.dev), list(texts.devtest)
    per_figure = [dev + devtest, devtest, devtest + devtest]  # warm-up, then the timed texts
    expected = [call for calls in per_figure for call in calls * 2]
    assert ours.calls == expected and theirs.calls == expected  # both engines, same steps
    assert ours.resets == 6  # before every repeat of every figure


def test_engines_that_disagree_are_not_timed():
    texts = LanguageTexts("xx", dev=(), devtest=("same", "differs"))
    ours, theirs = CountingEngine("ours"), CountingEngine("theirs", offset=1)
    with pytest.raises(BenchmarkError, match="xx devtest line 1: ours and theirs give different ids"):
        measure_ratios([texts], repeats=1, engines=(ours.engine, theirs.engine))


def write_baseline(path: Path, ratio: float, *, max_lines: int = 20) -> None:
    """A baseline of the QUICK text (English, first 20 lines) with every ratio set to `ratio`."""
    figures = {figure: ratio for figure in ("unseen", "cold", "repeat")}
    _, text = load_texts(["eng_Latn"], max_lines=max_lines)
    save_baseline(Baseline({("eng_Latn", f): r for f, r in figures.items()}, tolerance=0.25, info=text), path)


QUICK = {"languages": ("eng_Latn",), "max_sentences": 20, "repeats": 1, "ratios_only": True}
QUICK_ARGV = ("--languages", "eng_Latn", "--max-sentences", "20", "--repeats", "1", "--ratios-only")  # QUICK, for the CLI


@pytest.mark.parametrize(("text", "message"), [
    ({"languages": ("eng_Latn", "spa_Latn"), "max_sentences": 20}, "other languages than this check"),
    ({"languages": ("eng_Latn",), "max_sentences": 10}, "other max_lines than this check .baseline 20, now 10."),
    ({"languages": ("eng_Latn",)}, "other max_lines than this check .baseline 20, now None."),
])
def test_check_refuses_other_text_than_the_baseline(tmp_path, text, message):
    path = tmp_path / "baseline.json"
    write_baseline(path, 1.0)
    out = io.StringIO()
    with pytest.raises(BenchmarkError, match=message):
        run_speed(SpeedOptions(check=True, baseline=path, repeats=1, ratios_only=True, **text), out=out)
    assert out.getvalue() == ""  # refused before measuring anything


def test_check_refuses_a_baseline_of_other_files(tmp_path):
    copy = tmp_path / "flores"
    for split in ("dev", "devtest"):
        (copy / split).mkdir(parents=True)
        source = BUNDLED_CORPUS_DIR / split / f"eng_Latn.{split}"
        (copy / split / source.name).write_text(source.read_text(encoding="utf-8") + "One more line.\n",
                                                encoding="utf-8")
    path = tmp_path / "baseline.json"
    write_baseline(path, 1.0)
    options = SpeedOptions(check=True, baseline=path, corpus_dir=copy, **QUICK)
    with pytest.raises(BenchmarkError, match=r"other corpus_checksums than this check \(the files differ \(dev/eng_Latn"):
        run_speed(options, out=io.StringIO())
    # Through the CLI: one line, exit 2.
    from benchmark.cli.parser import main

    assert main(["speed", "--check", "--baseline", str(path), "--corpus", str(copy), *QUICK_ARGV]) == 2


@pytest.mark.parametrize(("old", "new"), [("--max-lines", "--max-sentences"), ("--corpus-dir", "--corpus")])
def test_the_old_spelling_of_a_speed_option_names_the_new_one(capsys, old, new):
    # One spelling per option across verbs (run's); the old one is one line naming it, exit 2.
    from benchmark.cli.parser import main

    with pytest.raises(SystemExit) as exited:
        main(["speed", "--ratios-only", old, "20"])
    assert exited.value.code == 2
    assert f"error: {old} is now {new}, as in `run`: use {new} 20" in capsys.readouterr().err


def test_real_quick_run_passes_and_fails_against_extreme_baselines(tmp_path):
    """Real measurement on 20 lines; baselines no encoder can be near make the verdict certain."""
    generous, impossible = tmp_path / "generous.json", tmp_path / "impossible.json"
    write_baseline(generous, 1e6)
    write_baseline(impossible, 1e-6)
    out = io.StringIO()
    assert run_speed(SpeedOptions(check=True, baseline=generous, **QUICK), out=out) == 0
    assert "OK: every ratio within 25%" in out.getvalue()
    out = io.StringIO()
    assert run_speed(SpeedOptions(check=True, baseline=impossible, **QUICK), out=out) == 1
    text = out.getvalue()
    assert "FAIL: 3 ratio(s) worse than impossible.json by more than 25%" in text
    assert text.count("| SLOWER |") == 3 and "| eng_Latn | unseen |" in text


def test_update_baseline_writes_measured_ratios(tmp_path, monkeypatch, capsys):
    from benchmark.cli.parser import main

    path = tmp_path / "new.json"
    # Through the CLI, so that its options reach SpeedOptions ("30%" is a share of 0.3).
    assert main(["speed", "--update-baseline", "--tolerance", "30%", "--baseline", str(path), *QUICK_ARGV]) == 0
    assert f"wrote {path} (tolerance 30%)" in capsys.readouterr().out
    document = json.loads(path.read_text(encoding="utf-8"))
    assert document["tolerance"] == pytest.approx(0.3)
    assert set(document["ratios"]["eng_Latn"]) == {"unseen", "cold", "repeat"}
    assert all(ratio > 0 for ratio in document["ratios"]["eng_Latn"].values())
    assert (document["languages"], document["max_lines"]) == (["eng_Latn"], 20)
    assert set(document["corpus_checksums"]) == {"dev/eng_Latn.dev", "devtest/eng_Latn.devtest"}
    # The new baseline is accepted for the same text. No timing is judged here: the second
    # measurement is replaced by the baseline's own ratios, so only the text and the file count.
    recorded = load_baseline(path)
    monkeypatch.setattr("benchmark.speed.command.measure_ratios", lambda corpus, **options: [
        row(language, figure, ratio) for (language, figure), ratio in recorded.ratios.items()])
    out = io.StringIO()
    assert run_speed(SpeedOptions(check=True, baseline=path, **QUICK), out=out) == 0
    assert "OK: every ratio within 30% of new.json" in out.getvalue()


def test_update_baseline_measures_only_the_ratios(tmp_path):
    # The baseline holds the ratios alone: no scaling, textbook or training figure (minutes) after them.
    out = io.StringIO()
    options = {key: value for key, value in QUICK.items() if key != "ratios_only"}
    assert run_speed(SpeedOptions(update_baseline=True, baseline=tmp_path / "new.json", **options), out=out) == 0
    text = out.getvalue()
    assert "| eng_Latn | unseen |" in text and f"wrote {tmp_path / 'new.json'}" in text
    assert "Scaling" not in text and "textbook" not in text and "Training" not in text


def test_unknown_language_is_a_clear_error():
    with pytest.raises(BenchmarkError, match="unknown language code 'xxx_Xxxx'"):
        load_texts(["xxx_Xxxx"])


def test_committed_baseline_covers_every_language_and_figure():
    baseline = load_baseline()
    assert set(baseline.ratios) == {(language, figure) for language in FLORES_LANGUAGES for figure in FIGURES}
    _, text = load_texts(FLORES_LANGUAGES)
    assert {key: baseline.info[key] for key in text} == text  # a default `speed --check` measures its text
    assert 0 < baseline.tolerance < 1


def test_command_exit_status_in_a_subprocess(tmp_path):
    impossible = tmp_path / "impossible.json"
    write_baseline(impossible, 1e-6)
    done = subprocess.run([sys.executable, "-m", "benchmark", "speed", "--check", "--baseline", str(impossible),
                           *QUICK_ARGV],
                          cwd=tmp_path, capture_output=True, text=True, timeout=120,
                          env={**os.environ, "PYTHONPATH": str(REPO)})  # this checkout, not an installed copy
    assert done.returncode == 1, done.stderr
    assert "FAIL" in done.stdout


def test_help_renders(capsys):
    from benchmark.cli.parser import main

    with pytest.raises(SystemExit) as exit_info:
        main(["speed", "--help"])
    help_text = capsys.readouterr().out
    assert exit_info.value.code == 0
    assert "--check" in help_text and "--update-baseline" in help_text and "25%" in help_text


@pytest.mark.parametrize(("options", "message"), [
    ({"check": True, "update_baseline": True}, "--check and --update-baseline exclude each other"),
    ({"ratios_only": True, "training": True}, "each measure one figure"),
    ({"check": True, "instructions": True}, "judge the ratios, not --training, --instructions or"),
    ({"update_baseline": True, "training": True}, "judge the ratios, not --training, --instructions or"),
    ({"check": True, "parity": True}, "judge the ratios, not --training, --instructions or --parity"),
    ({"parity": True, "training": True}, "each measure one figure"),
    ({"instructions": True, "repeats": 3}, "drop --repeats"),
    ({"clock": "sundial"}, "unknown clock 'sundial'; use one of cpu, wall"),
])
def test_contradictory_options_are_refused_in_one_line(options, message):
    with pytest.raises(BenchmarkError, match=message) as info:
        SpeedOptions(**options)
    assert "\n" not in str(info.value)


def test_contradictory_options_through_the_cli_exit_2_before_measuring(capsys):
    from benchmark.cli.parser import main

    assert main(["speed", "--training", "--check"]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and captured.err.startswith("error: --check and --update-baseline judge the ratios")


def test_training_figure_trains_on_the_dev_split_that_the_corpus_reader_gives():
    out = io.StringIO()
    options = SpeedOptions(training=True, languages=("eng_Latn", "jpn_Jpan"), max_sentences=20, vocab_sizes=(300,),
                           repeats=1)
    assert run_speed(options, out=out) == 0
    text = out.getvalue()
    assert text.startswith("## Training on the 2 dev files against HuggingFace `tokenizers` (median of 1; one core "
                           "each)")
    assert "\n40 lines, " in text  # 20 dev lines of each language, as load_texts reads them
    (size_row,) = [line for line in text.splitlines() if line.startswith("| 300 |")]
    assert size_row.endswith("| 300 |")  # ours reached the size asked for
    assert "ours / tiktoken" not in text  # the training figure alone, no ratios


def test_sharded_pre_token_counts_equal_the_serial_ones_and_train_the_same_merges():
    from benchmark.bpe.train import count_pretokens, train_merges
    from benchmark.speed.training import SHARD_LINES, count_sharded

    corpus, _ = load_texts(["eng", "jpn", "kor"], max_lines=400)
    texts = [line for texts in corpus for line in texts.dev] * (SHARD_LINES // 1200 + 1)
    assert len(texts) > SHARD_LINES  # more than one shard
    serial = count_pretokens(texts, "cl100k")
    sharded = count_sharded(texts, 2)
    assert sharded == serial
    assert train_merges(sharded, 300)[0] == train_merges(serial, 300)[0]


def test_languages_are_resolved_as_the_run_resolves_them():
    corpus, identity = load_texts(["ENG", "ja"], max_lines=2)
    assert [texts.language for texts in corpus] == ["eng_Latn", "jpn_Jpan"]
    assert identity["languages"] == ["eng_Latn", "jpn_Jpan"]


# ---------------------------------------------------------------- instruction counts
# A real count runs each encoder under valgrind for minutes, so it is not part of the suite; the
# dated figures come from `python -m benchmark speed --instructions`. These pin the plumbing.


def test_instruction_count_is_read_from_callgrinds_summary(tmp_path):
    from benchmark.speed.instructions import _total_instructions

    out = tmp_path / "callgrind.out"
    out.write_text("# callgrind format\nevents: Ir\nfl=x\nfn=y\n1 5\nsummary: 123456\n")
    assert _total_instructions(out, what="x") == 123456
    out.write_text("events: Ir\ntotals: 0\n")  # the toggle function never ran
    with pytest.raises(BenchmarkError, match="sys_call_tracing"):
        _total_instructions(out, what="x")


def test_instruction_count_without_valgrind_says_what_is_missing(monkeypatch):
    import benchmark.speed.instructions as instructions

    monkeypatch.setattr(instructions.shutil, "which", lambda name: None)
    with pytest.raises(BenchmarkError, match="needs valgrind"):
        instructions.count_instructions("ours", "eng_Latn")


def test_the_counted_child_runs_its_step_outside_valgrind_too(tmp_path):
    """The exact command valgrind runs, without valgrind: it loads, encodes and exits 0."""
    from benchmark.speed.instructions import _CHILD_CODE

    done = subprocess.run([sys.executable, "-c", _CHILD_CODE, "tiktoken", "eng_Latn", str(BUNDLED_CORPUS_DIR), "5"],
                          cwd=tmp_path, capture_output=True, text=True, timeout=120,
                          env={**os.environ, "PYTHONPATH": str(REPO)})
    assert done.returncode == 0, done.stderr


@pytest.mark.parametrize(("argv", "message"), [
    ([], r"error: expected 4 arguments, got 0; child_main takes ENCODER LANGUAGE CORPUS_DIR MAX_LINES\|all"),
    (["rust", "eng_Latn", str(BUNDLED_CORPUS_DIR), "all"], "error: unknown encoder 'rust'; expected one of ours, tiktoken"),
    (["ours", "eng_Latn", str(BUNDLED_CORPUS_DIR), "-3"], "error: MAX_LINES must be a number or 'all', got '-3'"),
    (["ours", "xxx_Xxxx", str(BUNDLED_CORPUS_DIR), "all"], "error: .*unknown language code 'xxx_Xxxx'"),
])
def test_the_counted_childs_bad_arguments_are_one_line(capsys, argv, message):
    from benchmark.speed.instructions import child_main

    assert child_main(argv) == 2
    err = capsys.readouterr().err
    assert re.match(message, err) and err.count("\n") == 1


def test_instruction_table_ratios_and_median():
    from benchmark.speed.markdown import format_instructions

    table = format_instructions({"a": {"ours": 300, "tiktoken": 100}, "b": {"ours": 200, "tiktoken": 100},
                          "c": {"ours": 500, "tiktoken": 100}})
    assert "| a | 300 | 100 | 3.00 | 0.33x |" in table
    assert "worst 0.20x tiktoken, median 0.33x" in table


THREE = ("eng_Latn", "spa_Latn", "rus_Cyrl")


def _check_with(tmp_path, monkeypatch, languages, worse_by: dict[str, float]) -> tuple[int, str]:
    """`speed --check` against a baseline of ratio 1.0 everywhere, with measured ratios of
    1 + worse_by[figure] (no timing: the measurement is replaced)."""
    path = tmp_path / "baseline.json"
    _, text = load_texts(list(languages), max_lines=20)
    ratios = {(language, figure): 1.0 for language in languages for figure in ("unseen", "cold", "repeat")}
    save_baseline(Baseline(ratios, tolerance=0.25, info=text), path)
    monkeypatch.setattr("benchmark.speed.command.measure_ratios", lambda corpus, **options: [
        row(language, figure, 1.0 + worse_by.get(figure, 0.0)) for (language, figure) in ratios])
    out = io.StringIO()
    options = SpeedOptions(check=True, baseline=path, languages=tuple(languages), max_sentences=20, repeats=1,
                           ratios_only=True)
    return run_speed(options, out=out), out.getvalue()


def test_a_slowdown_of_every_language_fails_on_the_figure_mean_though_each_cell_passes(tmp_path, monkeypatch):
    status, text = _check_with(tmp_path, monkeypatch, THREE, {"unseen": 0.15, "cold": 0.05})
    assert status == 1
    assert "| SLOWER |" not in text  # 15% is within each cell's 25%
    assert "mean change per figure over 3 languages: unseen +15.0%, cold +5.0%, repeat +0.0% (tolerance 10%)" in text
    assert "FAIL: figure(s) worse on average over the languages than baseline.json by more than 10%: unseen +15.0%" in text
    # Within the figure tolerance too: the check passes and says so.
    status, text = _check_with(tmp_path, monkeypatch, THREE, {"unseen": 0.08})
    assert status == 0 and "every figure's mean within 10%" in text


def test_the_figure_mean_is_not_judged_on_fewer_than_three_languages(tmp_path, monkeypatch):
    status, text = _check_with(tmp_path, monkeypatch, ("eng_Latn", "spa_Latn"), {"unseen": 0.15})
    assert status == 0 and "mean change per figure" not in text


def test_the_parity_figure_times_both_trainers_and_counts_their_tokens(capsys):
    from benchmark.bpe import ByteLevelBPE, count_pretokens
    from benchmark.bpe.parity import train_parity_merges
    from benchmark.corpora.mixes import BUILT_IN
    from benchmark.speed.parity import compare_parity_training, format_parity
    from benchmark.speed.ratios import load_texts

    corpus, _ = load_texts(("eng_Latn", "spa_Latn", "jpn_Jpan"), max_lines=30)
    row = compare_parity_training(corpus, 400, repeats=1)
    text = format_parity(row)
    assert "vocab 400, mix balanced, median of 1 interleaved repeats" in text
    cost = text.split("| devtest tokens |")[0]
    assert cost.count("| standard |") == cost.count("| parity |") == 1 and "| parity / standard |" in cost
    model = ByteLevelBPE.train_parity({t.language: list(t.dev) for t in corpus}, 400)
    n_english = sum(len(model.encode(line)) for line in corpus[0].devtest)
    assert row["tokens"]["parity"]["eng_Latn"] == n_english
    assert f"| eng_Latn | {row['tokens']['standard']['eng_Latn']:,} | {n_english:,} |" in text
    # A mix: both train from its weighted counts, the parity text unweighted.
    mixed = compare_parity_training(corpus, 400, repeats=1, mix=BUILT_IN["english-heavy"])
    texts = {t.language: list(t.dev) for t in corpus}
    weights = BUILT_IN["english-heavy"].weights(texts)
    counts = {code: count_pretokens(lines, "cl100k") for code, lines in texts.items()}
    weighted = {code: {data: weights[code] * n for data, n in table.items()} for code, table in counts.items()}
    expected = ByteLevelBPE(merges=train_parity_merges(weighted, 144, parity_counts_by_language=counts)[0])
    assert mixed["tokens"]["parity"]["eng_Latn"] == sum(len(expected.encode(line)) for line in corpus[0].devtest)
    assert mixed["mix"] == "english-heavy"


def test_the_hf_parity_figure_puts_both_parity_trainers_side_by_side():
    from benchmark.bpe import ByteLevelBPE
    from benchmark.speed.hf_parity import compare_hf_parity, format_hf_parity
    from benchmark.speed.ratios import load_texts

    corpus, _ = load_texts(("eng_Latn", "kor_Hang", "rus_Cyrl"), max_lines=40)
    row = compare_hf_parity(corpus, 400)
    ours = ByteLevelBPE.train_parity({t.language: list(t.dev) for t in corpus}, 400)
    assert row["merges"]["ours"] == [(ours.token_bytes(a), ours.token_bytes(b)) for a, b in ours.merges]
    assert len(row["merges"]["hf"]) == 144
    first = row["first_difference"]
    # Up to the first difference, the two lists are the same merges.
    assert row["merges"]["ours"][:first] == row["merges"]["hf"][:first] and first > 10
    assert row["tokens"]["ours"]["kor_Hang"] == sum(len(ours.encode(line)) for line in corpus[1].devtest)
    text = format_hf_parity(row)
    assert f"identical up to merge {first} (0-based)" in text and "| Gini |" in text
    assert f"| kor_Hang | {row['tokens']['ours']['kor_Hang']:,} | {row['tokens']['hf']['kor_Hang']:,} |" in text

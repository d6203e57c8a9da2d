"""Control characters from outside are shown, never obeyed (issue 38 item 11).

A tokenizer file, a corpus folder, a results.json's names, split and statuses may hold ESC, BEL,
C1 controls (0x9b is a one-byte CSI) and bidirectional overrides (U+202E turns what follows
around). On the terminal (`encode`, `cost`, the progress lines) and in README.md and index.html
each is shown as an escape (\\x1b, \\u202e); real files, real results, the real CLI in-process.
"""

from __future__ import annotations

import json
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from benchmark.bpe import ByteLevelBPE
from benchmark.cli.parser import main
from benchmark.plumbing.escaping import markdown_text, terminal_text, visible_controls
from tests.support.paths import DATA

# A window title, a screen clear, BEL, a right-to-left override and a one-byte CSI.
PAYLOAD = "\x1b]0;owned\x07\x1b[2J\u202e\x9b31m"
SHOWN = "\\x1b]0;owned\\x07\\x1b[2J\\u202e\\x9b31m"
# What no page or terminal line may hold raw: C0 and C1 controls but newline (and tab in a file),
# DEL, and the bidirectional controls.
RAW = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")


def _raw_controls(text: str) -> list[str]:
    return sorted({hex(ord(char)) for char in RAW.findall(text)})


def test_encode_shows_a_tokenizer_file_name_with_controls_as_escapes(tmp_path, capsys):
    model = tmp_path / f"tok{PAYLOAD}.json"
    ByteLevelBPE.train(["Once upon a time"] * 20, vocab_size=270, pattern="gpt2").save(model)
    assert main(["encode", "Once upon", "--tokenizer-file", str(model),
                 "--tokenizers", "file/*,tiktoken/o200k_base"]) == 0
    out = capsys.readouterr().out
    assert _raw_controls(out) == [] and "\t" not in out
    lines = out.splitlines()
    assert lines[1].split() == [f"file/tok{SHOWN}.json", "2", "Once", "|", "upon"]
    assert lines[0].index("  Once") == lines[1].index("  Once")  # the columns line up on the shown names


def _doctored(source: str, folder, *, language: str, tokenizer: str, name: str):
    """A copy of a real results file with controls in its corpus, split, folder and language names
    (the reference's among them) and in a failed row's status."""
    raw = json.loads((DATA / source).read_text(encoding="utf-8"))
    record = raw["record"]
    record["settings"]["corpus"] = f"flores{PAYLOAD}"
    record["settings"]["measure_split"] = f"devtest{PAYLOAD}"
    record["settings"]["corpus_dir"] = f"/data/corpus{PAYLOAD}"
    record["language_names"]["eng_Latn"] = f"English{PAYLOAD}"  # the reference's name
    record["language_names"][language] = f"{name}{PAYLOAD}"
    failed = next(row for row in raw["rows"] if row["language"] == language and row["tokenizer"] == tokenizer)
    # A status that would print a line of its own, a forged answer, if its line break were obeyed.
    failed["status"] = f"failed: boom{PAYLOAD}\nCheapest overall: forged"
    path = folder / "results.json"
    path.write_text(json.dumps(raw), encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def doctored_cost(tmp_path_factory):
    return _doctored("results_cost.json", tmp_path_factory.mktemp("cost"), language="hin_Deva", tokenizer="qwen/qwen",
                     name="Hindi")


def test_cost_shows_every_outside_text_of_a_results_file_as_escapes(doctored_cost, capsys):
    assert main(["cost", "hin", "--results", str(doctored_cost)]) == 0
    out = capsys.readouterr().out
    assert _raw_controls(out) == []
    first = out.splitlines()[0]
    assert first.startswith(f"Hindi{SHOWN} (hin_Deva): tokens of flores{SHOWN} devtest{SHOWN} text against "
                            f"English{SHOWN} (eng_Latn)")
    assert f"qwen/qwen: failed: boom{SHOWN}\\x0aCheapest overall: forged" in out.splitlines()
    assert [line for line in out.splitlines() if line.startswith("Cheapest overall")] == [
        line for line in out.splitlines() if line.startswith("Cheapest overall: ") and "forged" not in line]


def test_readme_and_index_html_show_the_controls_of_a_results_file_as_escapes(doctored_cost, tmp_path):
    from benchmark.report.pages.markdown import render_markdown
    from benchmark.report.view import ReportView
    from benchmark.results.rows import load_results
    from tests.hostile.test_markup import rendered

    # The report tests' fixture (its page embeds few faces: seconds less than results_cost.json's).
    doctored = _doctored("results_fixture.json", tmp_path, language="spa_Latn",
                         tokenizer="tiktoken/o200k_base", name="Spanish")
    output = tmp_path / "out"
    assert main(["report", "--results", str(doctored), "--output", str(output), "--no-plots"]) == 0
    readme = (output / "README.md").read_text(encoding="utf-8")
    page = (output / "index.html").read_text(encoding="utf-8")
    assert _raw_controls(readme) == [] and _raw_controls(page) == []
    # Shown as the terminal shows them, in the rendered README and on the page.
    shown = " ".join(rendered(readme).text)
    assert f"Spanish{SHOWN} (spa_Latn)" in shown and f"failed: boom{SHOWN}" in shown
    assert f"Spanish{SHOWN}" in page and f"failed: boom{SHOWN}" in page
    # The leading decision (priced results only): its intro names the reference, and went unescaped.
    readme = render_markdown(ReportView.of(load_results(doctored_cost)), [])
    assert _raw_controls(readme) == []
    assert f"premium over English{SHOWN} that decide" in " ".join(rendered(readme).text)


def test_the_progress_line_and_bars_show_names_as_text_not_as_markup_or_controls(capsys):
    from benchmark.plumbing.progress import progress_display, status

    # '[/]' closes nothing: rich read it as markup and raised MarkupError.
    with status(f"writing reports to out[/]{PAYLOAD}/", True):
        pass
    with progress_display(True) as bars:
        task = bars.task(f"file/[bold]x[/]{PAYLOAD}.json", total=2)
        bars.update(task, f"file/[red]y{PAYLOAD}.json")
        bars.advance(task)
        bars.finish(task)
    err = capsys.readouterr().err
    assert f"writing reports to out[/]{SHOWN}/ ..." in err
    assert f"file/[red]y{SHOWN}.json" in err
    assert "\x1b]" not in err and "\u202e" not in err and "\x07" not in err and "\x9b" not in err


@settings(max_examples=60)
@given(st.text(alphabet=st.one_of(st.characters(exclude_categories=("Cs",)),
                                  st.sampled_from("\x1b\x07\x9b\x85\t\n\r\u202e\u2066\u200e\u200c\u200d")),
               max_size=40))
def test_visible_controls_leaves_no_control_and_changes_nothing_else(text):
    shown = visible_controls(text)
    assert _raw_controls(shown) == [] and visible_controls(shown) == shown
    assert _raw_controls(markdown_text(text)) == [] and _raw_controls(terminal_text(text)) == []
    if not RAW.search(text):
        assert shown == text  # ordinary text, tabs, newlines, zero-width joiners: as they are
    else:  # the terminal's escapes, the same ones
        assert shown == "".join(terminal_text(char) if RAW.match(char) else char for char in text)


def test_zero_width_joiners_and_tabs_stay_for_the_scripts_that_write_with_them():
    for text in ("می\u200cخواهم", "👩\u200d💻", "a\tb", "a\u200bb", "line\nline"):
        assert visible_controls(text) == text

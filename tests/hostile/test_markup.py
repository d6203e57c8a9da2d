"""Text from outside never becomes markup or a formula (issue #26, case 3).

A real run on a corpus folder, tokenizer file and sentences that carry HTML and Markdown payloads;
README.md rendered by markdown-it-py with raw HTML allowed must hold no element or attribute the
payloads made, and show each payload as text. results.csv and summaries.csv cells that start with
= + - @ are text to a spreadsheet, not formulas; numbers stay numbers.
"""

from __future__ import annotations

import csv
import io
import json
import shutil
from html.parser import HTMLParser
from pathlib import Path

import pytest

from benchmark.bpe import ByteLevelBPE
from benchmark.cli.parser import main
from benchmark.plumbing.escaping import csv_cell, markdown_text
from tests.support.paths import DATA

FILE_PAYLOAD = "<img src=x onerror=alert(7)>"
CORPUS_PAYLOAD = "<svg onload=alert(8)>"
LINE_PAYLOAD = "<b onmouseover=alert(10)>Once</b> [upon](javascript:alert(11)) *a* `time` ![x](y)"
DATE_PAYLOAD = "<script>alert(9)</script> [date](javascript:alert(12))"


class Elements(HTMLParser):
    """Every element and attribute of an HTML text, and its visible text."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: list[tuple[str, dict[str, str | None]]] = []
        self.text: list[str] = []

    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, dict(attrs)))

    def handle_data(self, data):
        self.text.append(data)


def rendered(markdown: str) -> Elements:
    from markdown_it import MarkdownIt

    html = MarkdownIt("commonmark", {"html": True}).enable(["table", "strikethrough"]).render(markdown)
    parser = Elements()
    parser.feed(html)
    return parser


def assert_no_payload_markup(markdown: str, *payloads: str) -> None:
    page = rendered(markdown)
    made = [(tag, attrs) for tag, attrs in page.tags
            if tag in {"img", "svg", "script", "b", "em", "code"}
            or any(name.startswith("on") for name in attrs)
            or any("javascript" in (value or "") or "alert" in (value or "") for value in attrs.values())]
    assert made == []
    text = " ".join(page.text)
    for payload in payloads:
        assert payload in text, payload


@pytest.fixture(scope="module")
def hostile_run(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("hostile")
    corpus = root / CORPUS_PAYLOAD
    shutil.copytree(DATA / "tiny_corpus", corpus)
    eng = corpus / "eng.txt"
    eng.write_text(LINE_PAYLOAD + "\n" + eng.read_text(encoding="utf-8").split("\n", 1)[1], encoding="utf-8")
    model = ByteLevelBPE.train([LINE_PAYLOAD, "Once upon a time"] * 20, vocab_size=300, pattern="gpt2")
    model_file = root / f"{FILE_PAYLOAD}.json"
    model.save(model_file)
    output = root / "out"
    assert main(["run", "--corpus", str(corpus), "--tokenizers", "tiktoken/cl100k_base,file/*",
                 "--tokenizer-file", str(model_file), "--repeats", "1", "--no-plots",
                 "--cache-dir", str(root / "cache"), "--output", str(output)]) == 0
    return output


def test_readme_of_a_run_on_hostile_names_and_text_holds_no_markup_they_made(hostile_run):
    readme = (hostile_run / "README.md").read_text(encoding="utf-8")
    assert f"file/{FILE_PAYLOAD}.json" in " ".join(rendered(readme).text)
    assert_no_payload_markup(readme, FILE_PAYLOAD, CORPUS_PAYLOAD)


def test_readme_rendered_again_from_a_results_file_with_hostile_fields(hostile_run, tmp_path):
    raw = json.loads((hostile_run / "results.json").read_text(encoding="utf-8"))
    raw["record"]["settings"]["corpus_dir"] = DATE_PAYLOAD
    results = tmp_path / "edited.json"
    results.write_text(json.dumps(raw), encoding="utf-8")
    assert main(["report", "--results", str(results), "--output", str(tmp_path / "again"), "--no-plots"]) == 0
    readme = (tmp_path / "again" / "README.md").read_text(encoding="utf-8")
    assert_no_payload_markup(readme, DATE_PAYLOAD, FILE_PAYLOAD)


def test_a_results_file_whose_date_is_not_a_date_is_refused_in_one_line(hostile_run, tmp_path, capsys):
    raw = json.loads((hostile_run / "results.json").read_text(encoding="utf-8"))
    raw["record"]["date"] = DATE_PAYLOAD
    results = tmp_path / "edited.json"
    results.write_text(json.dumps(raw), encoding="utf-8")
    assert main(["report", "--results", str(results), "--output", str(tmp_path / "again"), "--no-plots"]) == 2
    error = capsys.readouterr().err.strip()
    assert len(error.splitlines()) == 1 and "edited.json" in error and "not an ISO 8601 date" in error
    assert not (tmp_path / "again").exists()


@pytest.mark.parametrize("text", [
    "<img src=x onerror=alert(1)>", "[a](javascript:alert(1))", "![a](http://x/y.png)", "*a* _b_ **c**",
    "`x`", "~~s~~", "a | b", "- item", "+ item", "1. item", "# heading", "<http://x.example>",
    "line\n<script>alert(1)</script>", "&lt;b&gt;", "\\*not emphasis\\*", "http://x.example www.x.example",
])
def test_markdown_text_makes_no_element_and_shows_the_text_as_it_is(text):
    page = rendered(f"- {markdown_text(text)}\n\n| h |\n|---|\n| {markdown_text(text)} |\n")
    assert [tag for tag, _ in page.tags] == ["ul", "li", "table", "thead", "tr", "th", "tbody", "tr", "td"]
    shown = " ".join(page.text)
    assert text.replace("\n", " ") in shown


def test_ordinary_ids_are_left_as_they_are():
    for text in ("tiktoken/cl100k_base", "bpe/english-heavy-4096", "eng_Latn", "2026-12-01T14:46:17+00:00",
                 "file/my_model.json", "Japanese (jpn_Jpan)"):
        assert markdown_text(text) == text


def test_csv_cells_that_start_like_a_formula_are_text(hostile_run, tmp_path):
    fixture = json.loads((hostile_run / "results.json").read_text(encoding="utf-8"))
    first = fixture["rows"][0]["tokenizer"]
    for row in fixture["rows"]:
        if row["tokenizer"] == first:
            row["tokenizer"] = "=HYPERLINK(\"http://x\",\"y\")"
        if row["language"] == "spa":
            row["language"] = "@SUM(A1)"
    for summary in fixture["summaries"]:
        if summary["tokenizer"] == first:
            summary["tokenizer"] = "=HYPERLINK(\"http://x\",\"y\")"
    results = tmp_path / "results.json"
    results.write_text(json.dumps(fixture), encoding="utf-8")
    assert main(["report", "--results", str(results), "--output", str(tmp_path / "out"), "--no-plots"]) == 0
    for name in ("results.csv", "summaries.csv"):
        table = list(csv.DictReader(io.StringIO((tmp_path / "out" / name).read_text(encoding="utf-8"))))
        cells = [value for line in table for value in line.values()]
        assert all(not value.startswith(("=", "+", "-", "@")) for value in cells), name
        assert "'=HYPERLINK(\"http://x\",\"y\")" in [line["tokenizer"] for line in table]
    table = list(csv.DictReader(io.StringIO((tmp_path / "out" / "results.csv").read_text(encoding="utf-8"))))
    assert "'@SUM(A1)" in [line["language"] for line in table]


def test_csv_cell_leaves_numbers_and_ordinary_text():
    assert csv_cell(-3) == -3 and csv_cell(-0.5) == -0.5 and csv_cell("eng_Latn") == "eng_Latn"
    assert csv_cell("-1") == "'-1"  # a text that looks like a number is still a text cell

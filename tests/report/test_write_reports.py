"""The report's files as written: which ones, at full precision, self-contained, atomic, the same twice, and refused when the results could not be.

On tests/data/results_fixture.json (tests/support/report_fixture.py); expected values are computed here from the
fixture's rows, never copied from a report.
"""

from __future__ import annotations

import base64
import csv
import re

import pytest
from tests.support.report_fixture import FIXTURE, PLOT_NAMES, results  # noqa: F401 (fixtures)

from benchmark.report.plots import render
from benchmark.report.plots import measurements as plots_module
from benchmark.report.plots import style as style_module
from benchmark.report import publish_report as write_reports
from benchmark.report.view import ReportView
from benchmark.results.rows import ROW_FIELDS, load_results


def test_fixture_covers_what_the_reports_must_handle(results):
    languages = {row.language for row in results.rows}
    assert {"eng_Latn", "jpn_Jpan", "kor_Hang"} <= languages
    assert any(not row.ok for row in results.rows)
    assert {"tiktoken/cl100k_base", "tiktoken/o200k_base"} <= {row.tokenizer for row in results.rows}
    sizes_by_family: dict[str, set[int]] = {}
    for row in results.rows:
        if row.ok:
            sizes_by_family.setdefault(row.family, set()).add(row.vocab_size)
    assert sum(len(sizes) >= 2 for sizes in sizes_by_family.values()) >= 2


def test_every_file_is_written(rendered):
    out, written = rendered
    expected = {out / name for name in ("results.csv", "summaries.csv", "results.json", "README.md", "index.html",
                                        "manifest.json")}
    expected |= {out / "plots" / f"{name}.{ext}" for name in PLOT_NAMES for ext in ("png", "svg")}
    expected.add(out / "plots" / "digests.json")  # each plot's digest, for the next report (test_plot_reuse.py)
    assert set(written) == expected
    for path in expected:
        assert path.stat().st_size > 0, path
    assert not [p for p in out.rglob("*") if p.name.endswith(".tmp")]  # atomic writes left nothing behind
    for name in PLOT_NAMES:
        assert (out / "plots" / f"{name}.png").read_bytes().startswith(b"\x89PNG")
        assert b"<svg" in (out / "plots" / f"{name}.svg").read_bytes()[:2000]


def test_csv_keeps_every_row_at_full_precision(rendered, results):
    out, _ = rendered
    with open(out / "results.csv", newline="", encoding="utf-8") as f:
        reader = csv.reader(f)
        header = next(reader)
        lines = list(reader)
    assert tuple(header) == ROW_FIELDS
    assert len(lines) == len(results.rows)
    by_key = {(row.tokenizer, row.language): row for row in results.rows}
    for line in lines:
        values = dict(zip(header, line))
        row = by_key[(values["tokenizer"], values["language"])]
        assert values["status"] == row.status
        if row.ok:
            assert float(values["bytes_per_token"]) == row.bytes_per_token
            assert int(values["n_tokens"]) == row.n_tokens
        else:
            assert values["premium"] == ""
    assert ReportView.of(load_results(out / "results.json")) == results


def test_skipped_rows_are_in_the_tables_not_in_the_plots(results, rendered):
    out, _ = rendered
    readme = (out / "README.md").read_text(encoding="utf-8")
    skipped = [row for row in results.rows if not row.ok]
    for row in skipped:
        line = next(line for line in readme.splitlines() if line.startswith(f"| {row.tokenizer} |"))
        assert "skipped" in line
        assert row.status.removeprefix("skipped: ") in readme  # the reason is written out
    with style_module.plot_style():
        fig = plots_module.plot_premium(results)
    ax = fig.axes[0]
    shown = [text.get_text() for text in ax.get_legend().get_texts()]
    reference = results.record.settings.reference
    expected_bars = sum(
        1 for row in results.rows if row.tokenizer in shown and row.ok and row.language != reference
    )
    drawn = sum(len(container) for container in ax.containers if type(container).__name__ == "BarContainer")
    assert drawn == expected_bars
    assert not any(
        row.tokenizer in shown and not row.ok for row in results.rows
    ), "a headline tokenizer should have measured every language"


def test_html_is_self_contained(rendered):
    out, _ = rendered
    page = (out / "index.html").read_text(encoding="utf-8")
    assert "http://" not in page and "https://" not in page
    assert not re.search(r"""src\s*=\s*["'](?!data:)""", page)
    # Everything shows from the page alone; links go only to the files written beside it, or carry
    # their data (each table's CSV).
    links = {link for link in re.findall(r"""href\s*=\s*["']([^"'#][^"']*)""", page) if not link.startswith("data:")}
    beside = {"results.csv", "summaries.csv", "results.json"} | {f"plots/{name}.svg" for name in PLOT_NAMES}
    assert links == beside
    assert all((out / link).is_file() for link in links)
    images = re.findall(r'<img [^>]*src="data:image/png;base64,([^"]+)"', page)
    assert len(images) == len(PLOT_NAMES)
    assert all(base64.b64decode(data).startswith(b"\x89PNG") for data in images)
    assert "<table" in page and "Japanese" in page and "jpn_Jpan" in page


def test_rendering_twice_gives_identical_files(results, rendered, tmp_path):
    first, _ = rendered
    write_reports(results, tmp_path, plots=("png", "svg"))
    for name in ("README.md", "results.csv", "results.json", "index.html", "plots/premium.svg", "plots/premium.png"):
        assert (tmp_path / name).read_bytes() == (first / name).read_bytes(), name


def test_by_default_the_plots_are_png_only_and_nothing_links_an_svg(results, rendered, tmp_path):
    first, _ = rendered
    written = write_reports(results, tmp_path)
    assert {p.relative_to(tmp_path).as_posix() for p in written if p.parent.name == "plots"} == {
        f"plots/{name}.png" for name in PLOT_NAMES} | {"plots/digests.json"}
    for name in ("README.md", "index.html"):
        assert ".svg" not in (tmp_path / name).read_text(encoding="utf-8"), name
    for name in PLOT_NAMES:  # the same PNGs as a report with SVG
        assert (tmp_path / "plots" / f"{name}.png").read_bytes() == (first / "plots" / f"{name}.png").read_bytes()


def test_plots_drawn_in_worker_processes_are_the_bytes_of_drawing_them_here(results):
    from benchmark.report.plots import render as figures

    here = figures.render_plots(results, svg=True, workers=1)
    there = figures.render_plots(results, svg=True, workers=2)
    assert [(p.spec.name, p.png, p.svg) for p in here] == [(p.spec.name, p.png, p.svg) for p in there]


def test_without_plots_no_figure_is_referenced(results, tmp_path):
    written = write_reports(results, tmp_path, plots=False)
    assert {p.name for p in written} == {"results.csv", "summaries.csv", "results.json", "README.md", "index.html",
                                         "manifest.json"}
    assert not (tmp_path / "plots").exists()
    assert "plots/" not in (tmp_path / "README.md").read_text(encoding="utf-8")
    assert "<img" not in (tmp_path / "index.html").read_text(encoding="utf-8")


def test_a_result_without_trained_tokenizers_still_renders(results, tmp_path):
    keep = {"tiktoken/cl100k_base", "tiktoken/o200k_base"}
    rows = tuple(row for row in results.rows if row.tokenizer in keep)
    small = ReportView(rows=rows, record=results.record)
    written = write_reports(small, tmp_path)
    names = {p.name for p in written}
    assert "train_seconds.png" not in names and "premium.png" in names
    readme = (tmp_path / "README.md").read_text(encoding="utf-8")
    assert "train_seconds" not in readme and "Findings" in readme


def test_plots_of_an_earlier_render_do_not_stay(results, tmp_path):
    out = tmp_path / "reports"
    write_reports(results, out)
    assert (out / "plots" / "premium.png").is_file()
    write_reports(results, out, plots=False)  # the folder is replaced whole
    assert not (out / "plots").exists()


def test_a_folder_holding_other_files_is_not_replaced(results, tmp_path):
    from benchmark.plumbing.errors import BenchmarkError

    (tmp_path / "notes.txt").write_text("mine", encoding="utf-8")
    with pytest.raises(BenchmarkError, match=r"holds files that are not part of a report \(notes.txt\)"):
        write_reports(results, tmp_path)
    assert [p.name for p in tmp_path.iterdir()] == ["notes.txt"]


def test_a_malformed_row_is_named(tmp_path):
    import json

    from benchmark.plumbing.errors import BenchmarkError

    raw = json.loads(FIXTURE.read_text(encoding="utf-8"))
    raw["rows"][2]["n_tokens"] = "abc"
    path = tmp_path / "results.json"
    path.write_text(json.dumps(raw), encoding="utf-8")
    tokenizer, language = raw["rows"][2]["tokenizer"], raw["rows"][2]["language"]
    with pytest.raises(BenchmarkError, match=f"row 3: n_tokens must be int, got 'abc' \\(row '{tokenizer}'/'{language}'\\)"):
        load_results(path)


@pytest.mark.parametrize("damage, message", [
    (lambda raw: raw["rows"].append(dict(raw["rows"][0])), r"row \d+: bpe/cl100k-1024/ces_Latn is also row 1"),
    (lambda raw: raw["rows"].clear(), "no measured row"),
    (lambda raw: raw["rows"][0].update(roundtrip_rate=7.0), r"roundtrip_rate is a share, from 0 to 1, got 7\.0"),
    (lambda raw: raw["rows"][0].update(n_sentences=0), "a measured row has n_sentences 0"),
    (lambda raw: raw.pop("record"), r"no run record \('record'\)"),
])
def test_results_that_run_could_not_have_written_are_refused(tmp_path, damage, message):
    import json

    from benchmark.plumbing.errors import BenchmarkError

    raw = json.loads(FIXTURE.read_text(encoding="utf-8"))
    assert (raw["rows"][0]["tokenizer"], raw["rows"][0]["language"]) == ("bpe/cl100k-1024", "ces_Latn")
    damage(raw)
    path = tmp_path / "results.json"
    path.write_text(json.dumps(raw), encoding="utf-8")
    with pytest.raises(BenchmarkError, match=message):
        load_results(path)


def test_a_failing_plot_leaves_the_folder_as_it_was(results, tmp_path, monkeypatch):
    tmp_path = tmp_path / "reports"
    write_reports(results, tmp_path, plots=False)
    before = {p.name: p.read_bytes() for p in tmp_path.iterdir()}

    def broken(_spec, _results, **_options):
        raise RuntimeError("no display")

    monkeypatch.setattr(render, "draw_plot", broken)  # in the drawing workers too: they are forked after this
    smaller = ReportView(rows=results.rows[:5], record=results.record)
    with pytest.raises(RuntimeError, match="no display"):
        write_reports(smaller, tmp_path)
    assert {p.name: p.read_bytes() for p in tmp_path.iterdir()} == before
    assert [p.name for p in tmp_path.parent.iterdir()] == ["reports"]  # no half-rendered sibling left


def test_every_plot_drawn_is_shown_in_both_pages(rendered):
    out, written = rendered
    readme = (out / "README.md").read_text(encoding="utf-8")
    page = (out / "index.html").read_text(encoding="utf-8")
    drawn = sorted(path.stem for path in written if path.suffix == ".png")
    assert drawn == sorted(PLOT_NAMES)
    for name in drawn:
        assert f"](plots/{name}.png)" in readme, name
        assert f'<figure id="plot-{name}">' in page, name


def test_every_table_on_the_page_links_its_own_csv_carried_in_the_page(rendered, results):
    import base64
    import csv
    import io

    from benchmark.report.tables.measurements import all_rows_table

    out, _ = rendered
    page = (out / "index.html").read_text(encoding="utf-8")
    tables = page.count('<table class="sortable"')
    links = re.findall(r'<a class="csv" download="([\w-]+)\.csv" href="data:text/csv;charset=utf-8;base64,'
                       r'([A-Za-z0-9+/=]+)">CSV</a>', page)
    assert tables and len(links) == tables  # one each, none pointing outside the page
    by_key = {key: list(csv.reader(io.StringIO(base64.b64decode(data).decode("utf-8")))) for key, data in links}
    expected = all_rows_table(results)
    assert by_key["all_rows"][0] == list(expected.headers)
    assert by_key["all_rows"][1:] == [list(row) for row in expected.rows]

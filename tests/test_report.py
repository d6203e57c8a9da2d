"""The reports, rendered from a small real results file (tests/data/results_fixture.json).

The fixture holds 40 FLORES-200 sentences per language under tiktoken, bpe_openai and four trained
families at 1024/4096/16384, with skipped tokenizers; tests/data/make_results_fixture.py built it.
Expected values are computed here from the fixture's rows, never copied from a report.
"""

from __future__ import annotations

import base64
import csv
import io
import json
import math
import re
from pathlib import Path

import pytest
import quickjs

from benchmark.report.publish import publish_report as write_reports
from benchmark.report import analysis, catalogue
from benchmark.report import plots as plots_module
from benchmark.report import style as style_module
from benchmark.report import token_boundaries as token_boundaries_module
from benchmark.report.analysis import FLAT_GAIN_PER_DOUBLING, headline_tokenizers, most_expensive
from benchmark.report.findings import compute_findings
from benchmark.report.html import SORT_SCRIPT
from benchmark.report.naming import LOSSLESS_SHARE, language_label, reference_language
from benchmark.report.tables import all_rows_table, throughput_table, tokens_per_sentence_table
from benchmark.results.record import TimingSettings
from benchmark.results.rows import ROW_FIELDS, Results, load_results

FIXTURE = Path(__file__).parent / "data" / "results_fixture.json"
PLOT_NAMES = (
    "production_cost", "tokens_per_sentence", "premium", "bytes_per_token", "throughput", "train_seconds", "roundtrip", "token_boundaries"
)


@pytest.fixture(scope="module")
def results() -> Results:
    return load_results(FIXTURE)


@pytest.fixture(scope="module")
def rendered(results, tmp_path_factory) -> tuple[Path, list[Path]]:
    out = tmp_path_factory.mktemp("reports")
    return out, write_reports(results, out)


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
    expected = {out / name for name in ("results.csv", "summaries.csv", "results.json", "README.md", "index.html")}
    expected |= {out / "plots" / f"{name}.{ext}" for name in PLOT_NAMES for ext in ("png", "svg")}
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
    assert load_results(out / "results.json") == results


def test_every_plot_has_a_title_and_labelled_axes(results):
    with style_module.plot_style():
        figures = plots_module.make_figures(results)
    assert set(figures) == set(PLOT_NAMES)
    for name, fig in figures.items():
        suptitle = fig._suptitle.get_text() if fig._suptitle else ""
        axes = [ax for ax in fig.axes if ax.get_visible() and ax.axison and ax.get_label() != "<colorbar>"]
        if name == "token_boundaries":
            # Text drawn on a blank canvas: no data axes, but a title and a key to read it by.
            assert suptitle
            texts = [t.get_text() for ax in fig.axes for t in ax.texts]
            assert "tiktoken/o200k_base" in " ".join(texts)
            continue
        assert axes, name
        for ax in axes:
            assert ax.get_title() or suptitle, name
            assert ax.get_xlabel() and ax.get_ylabel(), name
        # A unit on an axis or, for the heatmap, on its colour bar.
        units = " ".join(ax.get_xlabel() + " " + ax.get_ylabel() for ax in fig.axes)
        assert re.search(r"MB|seconds|bytes|%|tokens|multiples of", units, re.IGNORECASE), (name, units)


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
    # Everything shows from the page alone; links go only to the files written beside it.
    links = set(re.findall(r"""href\s*=\s*["']([^"'#][^"']*)""", page))
    beside = {"results.csv", "summaries.csv", "results.json"} | {f"plots/{name}.svg" for name in PLOT_NAMES}
    assert links == beside
    assert all((out / link).is_file() for link in links)
    images = re.findall(r'<img [^>]*src="data:image/png;base64,([^"]+)"', page)
    assert len(images) == len(PLOT_NAMES)
    assert all(base64.b64decode(data).startswith(b"\x89PNG") for data in images)
    assert "<table" in page and "Japanese" in page and "jpn_Jpan" in page


def test_findings_name_the_most_expensive_language(results):
    findings = compute_findings(results)
    reference = results.record.settings.reference
    tiktoken_rows = [r for r in results.rows if r.family == "tiktoken" and r.ok and r.language != reference]
    worst = max(tiktoken_rows, key=lambda r: r.premium)
    # In this fixture the worst case under any tokenizer is a tiktoken one.
    assert all(r.premium <= worst.premium for r in results.rows if r.ok and r.premium is not None)
    first = findings[0]
    assert first.startswith(language_label(results, worst.language))
    assert f"{worst.premium:.2f}x" in first
    o200k = [r for r in tiktoken_rows if r.tokenizer == "tiktoken/o200k_base"]
    o200k_worst = max(o200k, key=lambda r: r.premium)
    assert most_expensive(results, "tiktoken/o200k_base").language == o200k_worst.language
    assert f"tiktoken/o200k_base: {language_label(results, o200k_worst.language)}" in first


def test_findings_give_the_o200k_saving_per_language(results):
    sentence = next(s for s in compute_findings(results) if "o200k_base needs" in s)
    index = {(r.tokenizer, r.language): r for r in results.rows}
    savings = {
        code: 1 - index[("tiktoken/o200k_base", code)].n_tokens / index[("tiktoken/cl100k_base", code)].n_tokens
        for code in results.record.language_names
    }
    most, least = max(savings, key=savings.get), min(savings, key=savings.get)
    assert sentence.index(language_label(results, most)) < sentence.index(language_label(results, least))
    for code, saving in savings.items():
        assert f"{abs(saving) * 100:.0f}% {'fewer' if saving >= 0 else 'more'}" in sentence


def _flat_size_by_hand(points: list[tuple[int, float]]) -> int | None:
    for (s1, b1), (s2, b2) in zip(points, points[1:]):
        doublings = math.log2(s2 / s1)
        if (b2 / b1) ** (1 / doublings) - 1 < FLAT_GAIN_PER_DOUBLING:
            return s1
    return None


def test_findings_say_where_bytes_per_token_stops_improving(results):
    sentence = next(s for s in compute_findings(results) if s.startswith("Bytes per token of our byte-level BPE"))
    stopped_part, _, improving_part = sentence.partition("still improving")
    outcomes = set()
    for code in results.record.language_names:
        points = sorted(
            (r.vocab_size, r.bytes_per_token) for r in results.rows if r.family == "bpe" and r.language == code and r.ok
        )
        flat = _flat_size_by_hand(points)
        outcomes.add(flat)
        label = language_label(results, code)
        if flat is None:
            assert label in improving_part, code
        else:
            assert label in stopped_part and f"at {flat:,} for" in stopped_part, code
    assert len(outcomes) > 1, "the fixture should show both outcomes"


def test_rendering_twice_gives_identical_files(results, rendered, tmp_path):
    first, _ = rendered
    write_reports(results, tmp_path)
    for name in ("README.md", "results.csv", "results.json", "index.html", "plots/premium.svg", "plots/premium.png"):
        assert (tmp_path / name).read_bytes() == (first / name).read_bytes(), name


def test_without_plots_no_figure_is_referenced(results, tmp_path):
    written = write_reports(results, tmp_path, plots=False)
    assert {p.name for p in written} == {"results.csv", "summaries.csv", "results.json", "README.md", "index.html"}
    assert not (tmp_path / "plots").exists()
    assert "plots/" not in (tmp_path / "README.md").read_text(encoding="utf-8")
    assert "<img" not in (tmp_path / "index.html").read_text(encoding="utf-8")


def test_missing_cjk_font_warns_and_still_draws(results, monkeypatch):
    monkeypatch.setattr(style_module, "CJK_FONT_NAMES", ("No Such Font For This Test",))
    monkeypatch.setattr(style_module, "_cjk_font_cache", [])
    with pytest.warns(UserWarning, match="no font for Japanese/Korean"), style_module.plot_style():
        fig = token_boundaries_module.plot_token_boundaries(results)
        png = io.BytesIO()
        fig.savefig(png, format="png")
    assert png.getvalue().startswith(b"\x89PNG")


def test_stops_improving_rule_on_a_hand_made_curve():
    # 1024 -> 2048 gains 20%, 2048 -> 8192 gains 4% per doubling: flat at 2048.
    assert analysis.per_doubling_gain((1024, 2.0), (2048, 2.4)) == pytest.approx(0.2)
    assert analysis.per_doubling_gain((2048, 2.4), (8192, 2.4 * 1.04**2)) == pytest.approx(0.04)
    assert _flat_size_by_hand([(1024, 2.0), (2048, 2.4), (8192, 2.4 * 1.04**2)]) == 2048


def test_a_result_without_trained_tokenizers_still_renders(results, tmp_path):
    keep = {"tiktoken/cl100k_base", "tiktoken/o200k_base"}
    rows = tuple(row for row in results.rows if row.tokenizer in keep)
    small = Results(rows=rows, record=results.record)
    written = write_reports(small, tmp_path)
    names = {p.name for p in written}
    assert "train_seconds.png" not in names and "premium.png" in names
    readme = (tmp_path / "README.md").read_text(encoding="utf-8")
    assert "train_seconds" not in readme and "Findings" in readme



def test_families_still_improving_everywhere_share_one_sentence(results):
    # Keep only the two smallest sizes of each trained family: in this fixture every language still
    # gains 5% or more per doubling from 1024 to 4096 under our BPE and HF's.
    rows = tuple(
        r for r in results.rows if r.family == "tiktoken" or (r.family in ("bpe", "hf-bpe") and r.vocab_size <= 4096)
    )
    small = Results(rows=rows, record=results.record)
    gains = []
    for family in ("bpe", "hf-bpe"):
        for code in results.record.language_names:
            points = sorted(
                (r.vocab_size, r.bytes_per_token) for r in rows if r.family == family and r.language == code
            )
            assert _flat_size_by_hand(points) is None
            (s1, b1), (s2, b2) = points
            gains.append((b2 / b1) ** (1 / math.log2(s2 / s1)) - 1)
    sentences = [s for s in compute_findings(small) if s.startswith("Bytes per token")]
    assert len(sentences) == 1
    assert "our byte-level BPE and HF byte-level BPE is still improving at 4,096" in sentences[0]
    assert f"{min(gains):.0%} to {max(gains):.0%}" in sentences[0]


def test_plots_of_an_earlier_render_do_not_stay(results, tmp_path):
    out = tmp_path / "reports"
    write_reports(results, out)
    assert (out / "plots" / "premium.png").is_file()
    write_reports(results, out, plots=False)  # the folder is replaced whole
    assert not (out / "plots").exists()


def test_a_folder_holding_other_files_is_not_replaced(results, tmp_path):
    from benchmark.errors import BenchmarkError

    (tmp_path / "notes.txt").write_text("mine", encoding="utf-8")
    with pytest.raises(BenchmarkError, match=r"holds files that are not part of a report \(notes.txt\)"):
        write_reports(results, tmp_path)
    assert [p.name for p in tmp_path.iterdir()] == ["notes.txt"]


def test_a_malformed_row_is_named(tmp_path):
    import json

    from benchmark.errors import BenchmarkError

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

    from benchmark.errors import BenchmarkError

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

    def broken(_results):
        raise RuntimeError("no display")

    monkeypatch.setattr(plots_module, "render_plots", broken)
    smaller = Results(rows=results.rows[:5], record=results.record)
    with pytest.raises(RuntimeError, match="no display"):
        write_reports(smaller, tmp_path)
    assert {p.name: p.read_bytes() for p in tmp_path.iterdir()} == before
    assert [p.name for p in tmp_path.parent.iterdir()] == ["reports"]  # no half-rendered sibling left


def test_the_first_table_is_the_cost_in_tokens_per_sentence(results):
    table = tokens_per_sentence_table(results)
    assert table.key == "tokens_per_sentence"
    languages = list(table.headers[1:])
    by_key = {(row.tokenizer, language_label(results, row.language)): row for row in results.rows}
    checked = marked = 0
    for cells in table.rows:
        for language, cell in zip(languages, cells[1:]):
            row = by_key[(cells[0], language)]
            if row.ok:
                lossy = row.roundtrip_rate is not None and row.roundtrip_rate < 0.99
                assert cell == f"{row.n_tokens / row.n_sentences:.1f}" + (" \u2020" if lossy else "")
                checked += 1
                marked += lossy
            else:
                assert cell == "skipped"
    assert checked > 50
    # A count of text the tokenizer changed is marked, and the note says what the mark means.
    assert marked > 0 and "\u2020: this tokenizer gave back under 99% of the language's sentences" in table.note


@pytest.mark.parametrize("plot", ["tokens_per_sentence", "premium"])
def test_bars_of_lossy_tokenizers_are_hatched(results, plot):
    from matplotlib.patches import Rectangle

    reference = reference_language(results)
    shown = set(headline_tokenizers(results))
    lossy = [
        r for r in results.rows
        if r.tokenizer in shown and r.ok and r.roundtrip_rate < LOSSLESS_SHARE
        and (plot != "premium" or r.language != reference)
    ]
    assert lossy, "the fixture should have lossy rows among the main tokenizers"
    with style_module.plot_style():
        fig = plots_module.PLOT_FUNCTIONS[plot](results)
    ax = fig.axes[0]
    bars = [p for p in ax.patches if isinstance(p, Rectangle)]
    assert sum(bool(bar.get_hatch()) for bar in bars) == len(lossy)
    legend = [t.get_text() for t in ax.get_legend().get_texts()]
    assert any(text.startswith("hatched") for text in legend)
    # A tokenizer's legend entry is its plain colour, whatever its first bar looks like.
    assert not any(handle.get_hatch() for handle in ax.get_legend().get_patches()[: len(shown)])


def test_bytes_per_token_marks_flattening_only_where_a_curve_flattens(results):
    small = Results(
        rows=tuple(r for r in results.rows if r.family == "tiktoken" or (r.family == "bpe" and r.vocab_size <= 4096)),
        record=results.record,
    )
    with style_module.plot_style():
        full, still_rising = plots_module.plot_bytes_per_token(results), plots_module.plot_bytes_per_token(small)

    def legend_texts(fig):
        return " ".join(t.get_text() for legend in fig.legends for t in legend.get_texts())

    assert "stops improving" in legend_texts(full) and "flattens" in full._suptitle.get_text()
    assert "stops improving" not in legend_texts(still_rising)
    assert "flattens" not in still_rising._suptitle.get_text()


def test_roundtrip_colours_tell_a_few_lost_sentences_from_none(results):
    with style_module.plot_style():
        fig = plots_module.plot_roundtrip(results)
    mesh = fig.axes[0].collections[0]
    colours = {percent: mesh.cmap(mesh.norm(percent))[:3] for percent in (100.0, 99.5, 95.0, 89.0, 10.0)}
    assert len(set(colours.values())) == len(colours)

    def distance(a: float, b: float) -> float:
        return math.dist(colours[a], colours[b])

    # Visibly apart, not one step of a 256-colour ramp: on a linear 0-100 scale 99.5 and 100 are
    # 0.01 apart and 89 is as green as 100 (0.24 apart).
    assert distance(100.0, 99.5) > 0.2 and distance(100.0, 89.0) > 0.5
    # One sentence lost in 10,000 is not every sentence.
    assert mesh.cmap(mesh.norm(99.99)) == mesh.cmap(mesh.norm(99.5)) != mesh.cmap(mesh.norm(100.0))


def test_the_methods_describe_only_what_the_run_did(results):
    import dataclasses

    from benchmark.report.methods import methods_paragraph

    settings = dataclasses.replace(results.record.settings, timing=TimingSettings(repeats=3, warm_up={
        code: "dev split of flores200" for code in results.record.language_names}))
    full = Results(rows=results.rows, record=dataclasses.replace(results.record, settings=settings))
    text = methods_paragraph(full)
    assert "encodes the language's own dev split" in text and "Trained tokenizers learn from" in text
    assert "hf/wordpiece" in text and "timed cold" not in text

    # Only pretrained vocabularies, and a language with nothing to warm up on.
    rows = tuple(r for r in results.rows if r.family == "tiktoken")
    warm_up = {**settings.timing.warm_up, "kor_Hang": "none: timed cold (no dev split here)"}
    record = dataclasses.replace(results.record, settings=dataclasses.replace(
        settings, timing=TimingSettings(repeats=1, warm_up=warm_up)))
    text = methods_paragraph(Results(rows=rows, record=record))
    assert "Trained tokenizers" not in text and "training text" not in text and "saw no text" not in text
    assert "hf/wordpiece" not in text
    assert "one timed pass" in text
    assert "Korean (kor_Hang) had no text to warm up on and was timed cold" in text


def test_findings_name_the_cheapest_lossless_tokenizer_per_language(results):
    shown = set(headline_tokenizers(results))
    sentence = next(s for s in compute_findings(results) if s.startswith("Fewest tokens per sentence"))
    skipped_lossy = 0
    for code in results.record.language_names:
        rows = [r for r in results.rows if r.language == code and r.tokenizer in shown and r.ok]
        lossless = [r for r in rows if r.roundtrip_rate >= 0.99]
        best = min(lossless, key=lambda r: (r.n_tokens, r.tokenizer))
        skipped_lossy += min(rows, key=lambda r: r.n_tokens).n_tokens < best.n_tokens
        label = f"{language_label(results, code)} {best.n_tokens / best.n_sentences:.1f}"
        part = next(p for p in sentence.split(": ", 1)[1].split("; ") if label in p)
        assert part.startswith(best.tokenizer + " on "), (code, part)
    assert skipped_lossy, "the fixture should have a language where a lossy tokenizer counts fewer tokens"


def test_no_cheapest_finding_without_two_main_tokenizers_and_a_language_all_skipped_rules_none_out(results):
    import dataclasses

    one = Results(rows=tuple(r for r in results.rows if r.tokenizer == "tiktoken/o200k_base"), record=results.record)
    assert not [s for s in compute_findings(one) if s.startswith("Fewest tokens")]

    # Every tokenizer skipped on Korean: the main tokenizers are still those complete elsewhere.
    rows = tuple(dataclasses.replace(r, status="skipped: test") if r.language == "kor_Hang" else r for r in results.rows)
    skipped_korean = Results(rows=rows, record=results.record)
    assert headline_tokenizers(skipped_korean) == headline_tokenizers(results)
    with style_module.plot_style():
        assert plots_module.plot_tokens_per_sentence(skipped_korean) is not None


def test_the_methods_say_when_only_the_first_lines_were_measured(results):
    import dataclasses

    from benchmark.report.methods import methods_paragraph

    settings = dataclasses.replace(results.record.settings, max_sentences=40, measure_split="devtest",
                                   corpus_dir="corpora/flores200")
    capped = Results(rows=results.rows, record=dataclasses.replace(results.record, settings=settings))
    assert "(40 per language, the first 40 lines of the devtest split of corpora/flores200)" in methods_paragraph(capped)


def with_ratios(results: Results, ratio_of) -> Results:
    """The fixture with every measured row's ratio to tiktoken set by `ratio_of(row)`."""
    import dataclasses

    rows = tuple(dataclasses.replace(r, throughput_x_tiktoken=ratio_of(r)) if r.ok else r for r in results.rows)
    return Results(rows=rows, record=results.record)


def format_1(results: Results, tmp_path: Path) -> Results:
    """The fixture as a results.json written before the yardstick: format 1, no ratio, wall clock."""
    import json

    raw = json.loads(FIXTURE.read_text(encoding="utf-8"))
    del raw["format"], raw["version"]
    raw["format_version"] = 1
    for row in raw["rows"]:
        del row["throughput_x_tiktoken"]
    del raw["record"]["settings"]["timing"]
    path = tmp_path / "results.json"
    path.write_text(json.dumps(raw), encoding="utf-8")
    return load_results(path)


def test_the_fixture_was_timed_against_tiktoken(results):
    measured = [row for row in results.rows if row.ok]
    assert all(row.throughput_x_tiktoken > 0 for row in measured)
    assert results.record.settings.timing.yardstick == "tiktoken/cl100k_base"


def test_format_1_results_load_without_the_ratio_and_report_mb_s_by_the_wall_clock(results, tmp_path):
    from benchmark.report.markdown import render_markdown
    from benchmark.report.methods import methods_paragraph
    from benchmark.report.tables import all_rows_table

    old = format_1(results, tmp_path)
    assert all(row.throughput_x_tiktoken is None for row in old.rows)
    throughput = throughput_table(old)
    assert "MB/s" in throughput.title and "x" not in "".join(throughput.rows[0][1:])
    findings = " ".join(compute_findings(old))
    assert "The fastest encoder is" in findings and "MB/s (median over languages" in findings
    text = methods_paragraph(old)
    assert "per wall-clock second" in text and "tiktoken's cl100k_base encodes the same sentences" not in text
    assert "x tiktoken" not in text
    all_rows = all_rows_table(old)
    assert "x tiktoken" not in all_rows.headers and "per wall-clock second" in all_rows.note
    page = render_markdown(old, catalogue.PLOTS)
    assert catalogue.THROUGHPUT_MB_S_CAPTION in page and "multiples of tiktoken" not in page


def test_throughput_is_reported_in_multiples_of_tiktoken(results):
    from benchmark.report.markdown import render_markdown
    from benchmark.report.methods import methods_paragraph
    from benchmark.report.naming import fmt_times
    from benchmark.report.tables import all_rows_table

    throughput = throughput_table(results)
    assert "multiples of tiktoken cl100k_base's" in throughput.title
    index = {(r.tokenizer, r.language): r for r in results.rows}
    languages = [code for code in results.record.language_names]
    for row in throughput.rows:
        for code, cell in zip(languages, row[1:]):
            measured = index[row[0], code]
            assert cell == (fmt_times(measured.throughput_x_tiktoken) if measured.ok else "skipped")
    all_rows = all_rows_table(results)
    assert "x tiktoken" in all_rows.headers and "per CPU second" in all_rows.note
    text = methods_paragraph(results)
    assert "per CPU second" in text and "tiktoken's cl100k_base encodes the same sentences" in text
    assert "multiples of tiktoken" in render_markdown(results, catalogue.PLOTS)

    # The plot shows the ratios themselves (not MB/s under a ratio's label), with parity marked.
    with style_module.plot_style():
        fig = plots_module.plot_throughput(results)
    ax = fig.axes[0]
    assert "multiples of tiktoken" in ax.get_xlabel()
    plotted = sorted(round(float(x), 9) for c in ax.collections for x, _ in c.get_offsets())
    assert plotted == sorted(round(r.throughput_x_tiktoken, 9) for r in results.rows if r.ok)
    assert any(list(line.get_xdata()) == [1.0, 1.0] for line in ax.get_lines())


def test_a_run_with_a_row_without_the_ratio_reports_mb_s(results):
    from benchmark.report.analysis import has_yardstick_ratios

    first = next(r for r in results.rows if r.ok)
    mixed = with_ratios(results, lambda r: None if r is first else r.throughput_x_tiktoken)
    assert not has_yardstick_ratios(mixed)
    assert "MB/s" in throughput_table(mixed).title


def test_the_speed_finding_ranks_by_the_ratio_and_names_close_encoders_together(results):
    import statistics

    # Ratios deliberately unlike MB/s (its inverse), so a ranking by MB/s would name others.
    inverse = with_ratios(results, lambda r: 1 / r.throughput_mb_s)
    medians: dict[str, list[float]] = {}
    for row in inverse.rows:
        if row.ok:
            medians.setdefault(row.tokenizer, []).append(row.throughput_x_tiktoken)
    ranked = sorted(medians, key=lambda t: (-statistics.median(medians[t]), t))
    sentence = next(s for s in compute_findings(inverse) if "fastest encoder" in s)
    assert sentence.startswith(f"The fastest encoder{'s are' if ' are ' in sentence.split(';')[0] else ' is'} "
                               f"{ranked[0]} (")
    assert f"the slowest {'are' if ' are ' in sentence.split(';')[1] else 'is'} {ranked[-1]} (" in sentence

    # Hand-made medians: 2.0, 1.9 and 1.0 -> the first two are within 10% and named together.
    speeds = {"tiktoken/cl100k_base": 1.0, "tiktoken/o200k_base": 1.9, "bpe_openai/cl100k_base": 2.0}
    rows = tuple(r for r in results.rows if r.tokenizer in speeds)
    close = with_ratios(Results(rows=rows, record=results.record), lambda r: speeds[r.tokenizer])
    sentence = next(s for s in compute_findings(close) if "fastest encoder" in s)
    # A tie group shows three figures (two could print further apart than the tie share); no MB/s,
    # which each row timed at its own moment.
    assert sentence.startswith("The fastest encoders are bpe_openai/cl100k_base (2.00x tiktoken cl100k_base's "
                               "throughput) and tiktoken/o200k_base (1.90x), within 10% of each other")
    assert "the slowest is tiktoken/cl100k_base (1.0x)." in sentence and "MB/s" not in sentence
    # All within 10% of each other: no fastest to name.
    level = with_ratios(Results(rows=rows, record=results.record), lambda r: 1.0)
    assert not any("fastest encoder" in s for s in compute_findings(level))


def test_a_yardstick_ratio_must_be_positive(tmp_path):
    import json

    from benchmark.errors import BenchmarkError

    raw = json.loads(FIXTURE.read_text(encoding="utf-8"))
    raw["rows"][0]["throughput_x_tiktoken"] = 0.0
    path = tmp_path / "results.json"
    path.write_text(json.dumps(raw), encoding="utf-8")
    with pytest.raises(BenchmarkError, match="row 1: throughput_x_tiktoken must be > 0"):
        load_results(path)
    # A format 3 row without the column is malformed, not silently None.
    del raw["rows"][0]["throughput_x_tiktoken"]
    path.write_text(json.dumps(raw), encoding="utf-8")
    with pytest.raises(BenchmarkError, match="row 1"):
        load_results(path)


# ------------------------------------------------------------------ the HTML page's sortable tables

# A stand-in for the few DOM calls the sort script makes, so the script itself runs unchanged in
# QuickJS: clicking a header reorders `body.rows` as appending rows to a <tbody> does in a browser.
SORT_HARNESS = """
var rows = ROWS.map(function (texts) {
  return { cells: texts.map(function (text) { return { textContent: text }; }) };
});
var body = { rows: rows.slice(), appendChild: function (row) {
  this.rows.splice(this.rows.indexOf(row), 1); this.rows.push(row); } };
var table = { tBodies: [body] };
var headers = HEADERS.map(function (text, index) {
  return { cellIndex: index, dataset: {}, title: "", closest: function () { return table; },
           addEventListener: function (type, handler) { this["on" + type] = handler; } };
});
var document = { querySelectorAll: function (selector) {
  return selector === "table.sortable th" ? headers : []; } };
function click(index) {
  headers[index].onclick();
  return JSON.stringify(body.rows.map(function (row) { return rows.indexOf(row); }));
}
"""


def _sorted_by_the_page(table, clicks: list[str]) -> list[list[int]]:
    """The row order (indices into table.rows) after each click on the named headers."""
    context = quickjs.Context()
    context.eval(f"var ROWS = {json.dumps(table.rows)}; var HEADERS = {json.dumps(table.headers)};")
    context.eval(SORT_HARNESS)
    context.eval(SORT_SCRIPT)
    return [json.loads(context.eval(f"click({table.headers.index(header)})")) for header in clicks]


def test_clicking_a_column_sorts_by_the_measured_values(results):
    table = all_rows_table(results)
    by_key = {(row.tokenizer, language_label(results, row.language)): row for row in results.rows}
    measured = [by_key[(cells[0], cells[1])] for cells in table.rows]
    columns = {"tokens": "n_tokens", "unk": "unk_rate", "premium": "premium", "x tiktoken": "throughput_x_tiktoken",
               "round trip": "roundtrip_rate"}
    unk = [cells[table.headers.index("unk")] for cells in table.rows]
    assert "<0.1%" in unk and "0%" in unk and "" in unk, "the fixture should show a rate under 0.1%, a zero and a blank"
    for header, field in columns.items():
        column = table.headers.index(header)
        for order, descending in zip(_sorted_by_the_page(table, [header, header]), (True, False)):
            assert sorted(order) == list(range(len(table.rows)))
            values = [getattr(measured[i], field) if measured[i].ok else None for i in order]
            shown = [table.rows[i][column] for i in order]
            n_valued = sum(value is not None for value in values)
            # Cells with a value first, in both directions; blanks and "skipped" after them.
            assert all(value is not None for value in values[:n_valued]), (header, shown)
            for (a, b), (text_a, text_b) in zip(zip(values[:n_valued], values[1:n_valued]), zip(shown, shown[1:])):
                # Rounded cells may tie on screen; otherwise the measured values decide.
                assert text_a == text_b or (a > b if descending else a < b), (header, descending, text_a, text_b)


def test_clicking_a_text_column_sorts_alphabetically(results):
    table = all_rows_table(results)
    down, up = _sorted_by_the_page(table, ["tokenizer", "tokenizer"])
    names = [cells[0] for cells in table.rows]
    assert [names[i] for i in down] == sorted(names, reverse=True)
    assert [names[i] for i in up] == sorted(names)


def test_a_rate_never_prints_on_the_other_side_of_the_lossless_cut_off():
    from benchmark.report.naming import fmt_rate_percent

    assert LOSSLESS_SHARE == 0.99
    assert fmt_rate_percent(987 / 997) == "98.9%"  # 98.997%: "99.0%" would read as over the cut-off
    assert fmt_rate_percent(0.99) == "99.0%" and fmt_rate_percent(0.9996) == "99.9%"
    assert fmt_rate_percent(0.98949) == "98.9%" and fmt_rate_percent(0.0004) == "<0.1%"


def test_tied_fewest_tokens_are_named_together(results):
    from dataclasses import replace

    korean = {r.tokenizer: r for r in results.rows if r.language == "kor_Hang" and r.ok}
    winner = min((r for r in korean.values() if r.tokenizer in headline_tokenizers(results)
                  and (r.roundtrip_rate is None or r.roundtrip_rate >= 0.99)), key=lambda r: r.n_tokens)
    other = next(t for t in headline_tokenizers(results) if t != winner.tokenizer and korean[t].roundtrip_rate == 1)
    # One token more over the language's sentences: the same figure to one decimal.
    tied = replace(korean[other], n_tokens=winner.n_tokens + 1,
                   tokens_per_sentence=(winner.n_tokens + 1) / winner.n_sentences)
    rows = tuple(tied if r is korean[other] else r for r in results.rows)
    sentence = next(s for s in compute_findings(Results(rows=rows, record=results.record)) if s.startswith("Fewest"))
    names = " and ".join(sorted([winner.tokenizer, other]))
    assert f"{names} on Korean (kor_Hang) {winner.tokens_per_sentence:.1f}" in sentence


def test_a_saving_that_rounds_to_zero_reads_as_under_one_percent(results):
    from dataclasses import replace

    cl100k = {r.language: r for r in results.rows if r.tokenizer == "tiktoken/cl100k_base"}
    rows = tuple(replace(r, n_tokens=cl100k[r.language].n_tokens + 1) if r.tokenizer == "tiktoken/o200k_base"
                 and r.language == "eng_Latn" else r for r in results.rows)
    sentence = next(s for s in compute_findings(Results(rows=rows, record=results.record)) if "o200k_base needs" in s)
    assert "under 1% more on English (eng_Latn)" in sentence and not re.search(r"\b0%", sentence)


def test_the_summary_counts_only_tokenizers_that_were_measured(results):
    from benchmark.report.methods import run_summary

    measured = {r.tokenizer for r in results.rows if r.ok}
    never = {r.tokenizer for r in results.rows} - measured
    assert never, "the fixture should have a tokenizer skipped on every language"
    assert f"{len(measured)} tokenizers measured ({len(never)} more skipped on every language)" in run_summary(results)


def test_a_column_with_daggers_still_sorts_as_numbers(results):
    table = tokens_per_sentence_table(results)  # tokens per sentence, tokenizers down, languages across
    by_key = {(row.tokenizer, language_label(results, row.language)): row for row in results.rows}
    column = next(i for i, header in enumerate(table.headers) if any("\u2020" in cells[i] for cells in table.rows))
    (order,) = _sorted_by_the_page(table, [table.headers[column]])
    rows = [by_key[(table.rows[i][0], table.headers[column])] for i in order]
    shown = [table.rows[i][column] for i in order]
    n_measured = sum(row.ok for row in rows)
    assert all(row.ok for row in rows[:n_measured])  # "skipped" last
    for (a, b), (text_a, text_b) in zip(zip(rows[:n_measured], rows[1:n_measured]), zip(shown, shown[1:])):
        assert text_a == text_b or a.tokens_per_sentence > b.tokens_per_sentence, (text_a, text_b)

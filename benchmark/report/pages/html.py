"""reports/index.html: one self-contained page (inline CSS, plots as base64 PNG, no network).

The page reads without JavaScript; optional scripts, each in its own module, sort a table by its
headers (here), filter and page the tables (filter_box.py, table_controls.py), switch the premiums'
base (base_switch.py) and estimate a pasted text (paste_box.py), their state in the URL's fragment
(page_state.py).
"""

from __future__ import annotations

import base64
import csv
import dataclasses
import html
import io
from collections.abc import Collection, Sequence
from pathlib import Path

from benchmark.plumbing.escaping import csv_cell, json_script, visible_controls
from benchmark.report.plots.catalogue import RenderedPlot, caption_of
from benchmark.report.pages.base_switch import BOX as BASE_BOX
from benchmark.report.pages.base_switch import CSS as BASE_CSS
from benchmark.report.pages.base_switch import SCRIPT as BASE_SCRIPT
from benchmark.report.pages.base_switch import BaseSwitch
from benchmark.report.pages.by_language_section import KEY as BY_LANGUAGE_KEY
from benchmark.report.pages.by_language_section import TITLE as BY_LANGUAGE_TITLE
from benchmark.report.pages.by_language_section import leading_by_language
from benchmark.report.pages.decision_section import KEY as DECISION_KEY
from benchmark.report.pages.decision_section import TITLE as DECISION_TITLE
from benchmark.report.pages.decision_section import leading_decision
from benchmark.report.pages.filter_box import BOX as FILTER_BOX
from benchmark.report.pages.filter_box import CSS as FILTER_CSS
from benchmark.report.pages.filter_box import SCRIPT as FILTER_SCRIPT
from benchmark.report.pages.language_data import language_data_block
from benchmark.report.pages.page_state import SCRIPT as PAGE_STATE_SCRIPT
from benchmark.report.pages.paste_box import CSS as PASTE_CSS
from benchmark.report.pages.paste_box import SCRIPT as PASTE_SCRIPT
from benchmark.report.pages.paste_box import TITLE as PASTE_TITLE
from benchmark.report.pages.paste_box import paste_box
from benchmark.report.pages import table_controls
from benchmark.report.pages.filter_box import filter_attributes, header_attributes, tokenizer_filter_attributes
from benchmark.report.facts.findings import compute_findings
from benchmark.report.facts.groups import language_groups_of
from benchmark.report.facts.methods import methods_paragraph, run_summary
from benchmark.report.naming import language_label
from benchmark.report.pages.page_fonts import (
    CODE_FONTS,
    TEXT_FONTS,
    beyond_system_fonts,
    embedded_fonts,
    font_css,
    page_text,
)
from benchmark.report.pages.sections import report_sections
from benchmark.report.tables.table import SKIPPED, Table
from benchmark.report.tables.measurements import all_rows_table
from benchmark.report.pages.token_examples import CSS as TOKEN_CSS
from benchmark.report.pages.token_examples import token_examples_html, token_examples_text
from benchmark.report.view import ReportView

CSS = """
:root { --ink: #1d232a; --muted: #5b6570; --line: #d9dee3; --band: #f5f7f9; --accent: #2563a8; }
* { box-sizing: border-box; }
body { margin: 0; font: 15px/1.5 TEXT_FONTS, sans-serif; color: var(--ink); background: #fff; }
main { max-width: 1320px; margin: 0 auto; padding: 24px 24px 64px; }
h1 { font-size: 1.7rem; margin: 0 0 4px; }
h2 { font-size: 1.3rem; margin: 40px 0 10px; padding-bottom: 4px; border-bottom: 2px solid var(--line); }
h3 { font-size: 1.02rem; margin: 26px 0 8px; }
p.meta, p.note, figcaption { color: var(--muted); font-size: 0.9rem; }
nav { margin: 12px 0 0; font-size: 0.92rem; }
nav a { color: var(--accent); margin-right: 14px; text-decoration: none; }
ul.findings { padding-left: 1.2em; }
ul.findings li { margin: 6px 0; }
.scroll { overflow-x: auto; border: 1px solid var(--line); border-radius: 6px; }
.scroll.tall { max-height: 640px; overflow-y: auto; }
table { border-collapse: collapse; width: 100%; font-size: 0.86rem; font-variant-numeric: tabular-nums; }
th, td { padding: 5px 9px; border-bottom: 1px solid var(--line); white-space: nowrap; text-align: left; }
th { background: var(--band); position: sticky; top: 0; cursor: pointer; font-weight: 600; white-space: normal;
     vertical-align: bottom; }
th .code { font-weight: 400; color: var(--muted); font-size: 0.78rem; }
th.num, td.num { text-align: right; }
tbody tr:nth-child(even) { background: #fafbfc; }
tbody tr:hover { background: #eef4fb; }
td.skipped { color: #98a1aa; font-style: italic; }
td.status { white-space: normal; min-width: 260px; }
td:first-child { font-family: CODE_FONTS, monospace; font-size: 0.82rem; }
figure { margin: 18px 0 34px; }
/* The browser lays out and paints a table, plot or token example only near the screen: the
   204-language page becomes interactive in a third of the time (docs/measurements/2026-12-08-page.md). */
.scroll, figure, .tokex { content-visibility: auto; contain-intrinsic-size: auto 600px; }
figure img { width: 100%; height: auto; border: 1px solid var(--line); border-radius: 6px; }
dl.record { display: grid; grid-template-columns: max-content 1fr; gap: 4px 16px; font-size: 0.88rem; }
dl.record dt { color: var(--muted); }
dl.record dd { margin: 0; }
a.csv { font-size: 0.72rem; font-weight: 500; color: var(--accent); border: 1px solid var(--line); border-radius: 4px;
        padding: 0 5px; margin-left: 8px; text-decoration: none; vertical-align: middle; }
""".replace("TEXT_FONTS", TEXT_FONTS).replace("CODE_FONTS", CODE_FONTS)

# Where the embedded faces go in each font stack of the page (page_fonts.font_css): after the system's
# fonts in the text and in the code, first in the token examples.
FONT_STACKS = {"body": (TEXT_FONTS, "sans-serif"), "td:first-child, .tokrow .tid": (CODE_FONTS, "monospace"),
               ".toks": ("", "system-ui, sans-serif")}

TALL_ROWS = 30  # a table of more rows scrolls in its own box, so the sections after it stay near

# Optional: click a header to sort by that column (numbers as numbers); the page reads without it.
SORT_SCRIPT = """
document.querySelectorAll("table.sortable th").forEach(function (th) {
  th.title = "click to sort";
  th.addEventListener("click", function () {
    var col = th.cellIndex, body = th.closest("table").tBodies[0], rows = Array.from(body.rows);
    var down = th.dataset.dir !== "down"; th.dataset.dir = down ? "down" : "up";
    function key(r) { var t = r.cells[col].textContent.replace(/[,%x]/g, "").split(" ")[0];
      // "<0.1%" (a rate that rounds to zero but is not) sorts just below 0.1, above "0%".
      var n = t.charAt(0) === "<" ? parseFloat(t.slice(1)) - 1e-9 : parseFloat(t);
      return isNaN(n) ? r.cells[col].textContent : n; }
    rows.sort(function (a, b) { var x = key(a), y = key(b);
      if (typeof x !== typeof y) return typeof x === "number" ? -1 : 1;
      return (x < y ? -1 : x > y ? 1 : 0) * (down ? -1 : 1); });
    rows.forEach(function (r) { body.appendChild(r); });
  });
});
"""


def _header(text: str) -> str:
    # "Japanese (jpn_Jpan)" on two lines keeps a table of six languages within a laptop screen.
    name, sep, rest = text.partition(" (")
    if sep and rest.endswith(")") and " " not in rest:
        return f'{html.escape(name)}<br><span class="code">({html.escape(rest)}</span>'
    return html.escape(text)


def _csv_link(table: Table) -> str:
    """A link to the table as CSV, carried in the page itself (a data: URL), so it works wherever the
    page is, moved alone or sent by mail; cells as the table shows them, none read as a formula."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow([csv_cell(h) for h in table.headers])
    writer.writerows([csv_cell(cell) for cell in row] for row in table.rows)
    data = base64.b64encode(out.getvalue().encode("utf-8")).decode("ascii")
    return (f'<a class="csv" download="{html.escape(table.key)}.csv" '
            f'href="data:text/csv;charset=utf-8;base64,{data}">CSV</a>')


def _table_html(table: Table, *, tall: bool = False, heading: str = "h3", languages: Collection[str] = (),
                switch: BaseSwitch | None = None) -> str:
    """`languages`: the run's language labels, so the filter box can narrow the table to them;
    `switch`: the base switch, which marks the premium cells it rewrites."""
    marks = switch.cell_attributes(table) if switch is not None else {}
    esc = html.escape
    numeric = table.numeric or (False,) * len(table.headers)
    head = "".join(
        f'<th class="num"{header_attributes(h, languages)}>{_header(h)}</th>' if n
        else f"<th{header_attributes(h, languages)}>{_header(h)}</th>" for h, n in zip(table.headers, numeric)
    )
    body = []
    for r, row in enumerate(table.rows):
        cells = []
        for value, is_number in zip(row, numeric):
            classes = []
            if is_number:
                classes.append("num")
            if value == SKIPPED or value.startswith("skipped"):
                classes.append("skipped")
            if table.headers[len(cells)] == "status":
                classes.append("status")
            attr = (f' class="{" ".join(classes)}"' if classes else "") + marks.get((r, len(cells)), "")
            cells.append(f"<td{attr}>{esc(value)}</td>")
        body.append("<tr>" + "".join(cells) + "</tr>")
    note = f'<p class="note">{esc(table.note)}</p>' if table.note else ""
    scroll = "scroll tall" if tall else "scroll"
    filtering = filter_attributes(table.headers, languages) or tokenizer_filter_attributes(table.headers)
    filtering += switch.table_attribute(table) if switch is not None else ""
    return (
        f'<{heading} id="{esc(table.key)}">{esc(table.title)} {_csv_link(table)}</{heading}>\n'
        f'<div class="{scroll}"><table class="sortable"{filtering}><thead><tr>{head}'
        "</tr></thead>\n"
        f"<tbody>\n" + "\n".join(body) + f"\n</tbody></table></div>\n{note}\n"
    )


def _figure_html(plot: RenderedPlot, results: ReportView) -> str:
    esc = html.escape
    data = base64.b64encode(plot.png).decode("ascii")
    svg_link = f' (<a href="plots/{esc(plot.spec.name)}.svg">SVG</a>)' if plot.svg is not None else ""
    return (f'<figure id="plot-{esc(plot.spec.name)}"><h3>{esc(plot.spec.title)}</h3>\n'
            f'<img alt="{esc(plot.spec.title)}" src="data:image/png;base64,{data}">\n'
            f'<figcaption>{esc(caption_of(plot.spec, results))}{svg_link}</figcaption></figure>')


def render_html(results: ReportView, plots: Sequence[RenderedPlot], *, prices: Path | None = None) -> str:
    """The whole index.html; `prices`: the user's prices file for the money figures."""
    esc = html.escape
    findings = "\n".join(f"<li>{esc(sentence)}</li>" for sentence in compute_findings(results))
    drawn = {plot.spec.name: plot for plot in plots}
    labels = {language_label(results, row.language) for row in results.rows}
    body, nav = [], []
    switch = BaseSwitch(results)  # marks the premium cells of every table below, then writes its block
    differs = leading_by_language(results, prices=prices)  # first: what differs by language
    if differs is not None:
        nav.append(f'<a href="#{BY_LANGUAGE_KEY}">{esc(BY_LANGUAGE_TITLE)}</a>')
        body.append(f'<h2 id="{BY_LANGUAGE_KEY}">{esc(BY_LANGUAGE_TITLE)}</h2>\n<p>{esc(differs.intro)}</p>')
        body += [_table_html(table, languages=labels, tall=len(table.rows) > TALL_ROWS, switch=switch)
                 for table in differs.tables]
    leading = leading_decision(results, prices=prices)  # then which model, and why
    if leading is not None:
        nav.append(f'<a href="#{DECISION_KEY}">{esc(DECISION_TITLE)}</a>')
        body.append(f'<h2 id="{DECISION_KEY}">{esc(DECISION_TITLE)}</h2>\n<p>{esc(leading.intro)}</p>')
        body += [_table_html(table, languages=labels, switch=switch) for table in leading.tables]
    paste = paste_box(results, prices=prices)  # then the reader's own text, estimated
    if paste:
        nav.append(f'<a href="#paste">{esc(PASTE_TITLE)}</a>')
    lead_html, body = "\n".join(body), []
    nav.append('<a href="#findings">Findings</a>')
    for section in report_sections(results):
        shown = [drawn[name] for name in section.plots if name in drawn]
        as_text = token_examples_html(results) if section.key == "examples" else ""
        if not shown and not section.tables and not as_text:
            continue
        nav.append(f'<a href="#{esc(section.key)}">{esc(section.title)}</a>')
        body.append(f'<h2 id="{esc(section.key)}">{esc(section.title)}</h2>\n<p>{esc(section.intro)}</p>')
        body += [_figure_html(plot, results) for plot in shown]
        body += [as_text] if as_text else []
        body += [_table_html(table, languages=labels, switch=switch) for table in section.tables]
    all_rows = _table_html(all_rows_table(results), tall=True, heading="h2", languages=labels, switch=switch)
    record = results.record
    record_items = [("Date", record.date)]
    if record.package_versions:
        record_items.append(("Packages", ", ".join(f"{k} {v}" for k, v in sorted(record.package_versions.items()))))
    machine = {k: v for k, v in dataclasses.asdict(record.machine).items() if v is not None}
    if machine:
        record_items.append(("Machine", ", ".join(f"{k}: {v}" for k, v in sorted(machine.items()))))
    if record.corpus_checksums:
        record_items.append(("Corpus files", f"{len(record.corpus_checksums)} (their SHA-256 sums are in results.json)"))
    record_html = "".join(f"<dt>{esc(k)}</dt><dd>{esc(str(v))}</dd>" for k, v in record_items)
    nav += ['<a href="#all_rows">All measurements</a>', '<a href="#methods">Method</a>', '<a href="#record">Run record</a>']
    sections_html = "\n".join(body)
    pairwise_link = (' Each language\'s ratio of token totals between two production tokenizers, with its interval: '
                     '<a href="pairwise.csv">pairwise.csv</a>.' if results.pairwise else "")
    pairwise_link += (' Tokens per character and per byte, to estimate without a tokenizer, with their held-out '
                      'errors: <a href="calibration.csv">calibration.csv</a>, '
                      '<a href="calibration.json">calibration.json</a>.' if results.calibration else "")
    main = f"""<main>
<h1>Token cost by language</h1>
<p class="meta">{esc(run_summary(results))}</p>
<nav>{"".join(nav)}</nav>
{FILTER_BOX}
{table_controls.BOX}
{BASE_BOX}
{lead_html}
{paste}
<h2 id="findings">Findings</h2>
<ul class="findings">
{findings}
</ul>
<p class="note">Click a column header to sort a table (optional script; the tables read without it).</p>
{sections_html}
{all_rows}
<p class="note">Every table's CSV button holds that table as it reads here, inside the page (it works wherever the page is
moved). Beside the page, every row at full precision: <a href="results.csv">results.csv</a>; one line per tokenizer over
every language: <a href="summaries.csv">summaries.csv</a>; with the run record: <a href="results.json">results.json</a>.{pairwise_link}</p>
<h2 id="methods">How the figures were measured</h2>
<p>{esc(methods_paragraph(results))}</p>
{f"<p>{esc(leading.methods)}</p>" if leading is not None else ""}
<h2 id="record">Run record</h2>
<dl class="record">{record_html}</dl>
</main>"""
    # Subset faces for every character of the token examples and every one the page shows beyond what
    # every browser's fonts draw: the page draws them without system fonts.
    fonts = embedded_fonts(token_examples_text(results) + beyond_system_fonts(page_text(main)))
    fonts_css = font_css(fonts, FONT_STACKS)
    groups_json = json_script("language-groups", language_groups_of(results))  # for the page's filters
    # html.escape leaves control characters: a name's ESC or U+202E is shown as \x1b, \u202e (the
    # page's own text has none), never obeyed by a terminal or reordering the page around it.
    return visible_controls(f"""<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Token cost by language: results</title>
<style>{CSS}{TOKEN_CSS}{FILTER_CSS}{table_controls.CSS}{BASE_CSS}{PASTE_CSS}{fonts_css}</style>
</head>
<body>
{main}
{groups_json}
{language_data_block(results)}
{switch.block()}
<script>{PAGE_STATE_SCRIPT}{SORT_SCRIPT}{FILTER_SCRIPT}{table_controls.SCRIPT}{BASE_SCRIPT}{PASTE_SCRIPT}</script>
</body>
</html>
""")

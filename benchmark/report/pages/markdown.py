"""reports/README.md: the findings first, then each section (its plots, then its tables), then how
the figures were measured."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from benchmark.plumbing.escaping import markdown_text, visible_controls
from benchmark.report.plots.catalogue import PlotSpec, caption_of
from benchmark.report.pages.by_language_section import TITLE as BY_LANGUAGE_TITLE
from benchmark.report.pages.by_language_section import leading_by_language
from benchmark.report.pages.decision_section import TITLE as DECISION_TITLE
from benchmark.report.pages.decision_section import escaped_table, leading_decision
from benchmark.report.pages.escaped import markdown_results
from benchmark.report.facts.findings import compute_findings
from benchmark.report.facts.methods import methods_paragraph, run_summary
from benchmark.report.pages.sections import report_sections
from benchmark.report.tables.table import Table
from benchmark.report.view import ReportView


def _escape_markdown(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def to_markdown(table: Table) -> str:
    numeric = table.numeric or (False,) * len(table.headers)
    lines = [
        "| " + " | ".join(_escape_markdown(h) for h in table.headers) + " |",
        "|" + "|".join("---:" if is_number else "---" for is_number in numeric) + "|",
    ]
    lines += ["| " + " | ".join(_escape_markdown(c) for c in row) + " |" for row in table.rows]
    text = f"### {table.title}\n\n" + "\n".join(lines) + "\n"
    if table.note:
        text += f"\n{table.note}\n"
    return text


def render_markdown(results: ReportView, plots: Sequence[PlotSpec], *, svg: bool = False,
                    prices: Path | None = None) -> str:
    """The whole README.md. `plots` are the figures written under plots/ (empty: no figures), as
    PNG, and as SVG too with `svg`; `prices`: the user's prices file for the money figures."""
    differs = leading_by_language(results, prices=prices)  # first: what differs by language (escaped below)
    leading = leading_decision(results, prices=prices)  # then which model, and why
    results = ReportView.of(markdown_results(results))  # every outside text as literal text, not markup
    drawn = {info.name: info for info in plots}
    parts = ["# Token cost by language: results", "", run_summary(results), ""]
    if differs is not None:
        parts += [f"## {BY_LANGUAGE_TITLE}", "", markdown_text(differs.intro), ""]
        parts += [to_markdown(escaped_table(table)) for table in differs.tables]
    if leading is not None:
        parts += [f"## {DECISION_TITLE}", "", markdown_text(leading.intro), ""]
        parts += [to_markdown(escaped_table(table)) for table in leading.tables]
    parts += ["## Findings", ""]
    parts += [f"- {sentence}" for sentence in compute_findings(results)]
    parts.append("")
    for section in report_sections(results):
        shown = [drawn[name] for name in section.plots if name in drawn]
        if not shown and not section.tables:
            continue
        parts += [f"## {section.title}", "", section.intro, ""]
        for info in shown:
            parts += [f"![{info.title}](plots/{info.name}.png)", "",
                      caption_of(info, results) + (f" ([SVG](plots/{info.name}.svg))" if svg else ""), ""]
        parts += [to_markdown(table) for table in section.tables]
    money = [markdown_text(leading.methods), ""] if leading is not None else []
    parts += ["## How the figures were measured", "", methods_paragraph(results), "", *money,
              "Every row at full precision: [results.csv](results.csv); one line per tokenizer over every language: "
              "[summaries.csv](summaries.csv); with the run record: [results.json](results.json)."
              + (" Each language's ratio of token totals between two production tokenizers, with its interval: "
                 "[pairwise.csv](pairwise.csv)." if results.pairwise else "")
              + (" Tokens per character and per byte, to estimate without a tokenizer, with their held-out errors: "
                 "[calibration.csv](calibration.csv), [calibration.json](calibration.json)."
                 if results.calibration else ""), ""]
    parts += ["## Run record", ""]
    record = results.record
    if record.package_versions:
        versions = ", ".join(f"{k} {v}" for k, v in sorted(record.package_versions.items()))
        parts += [f"- Packages: {versions}"]
    if record.corpus_checksums:
        parts += [f"- Corpus files: {len(record.corpus_checksums)} (their SHA-256 sums are in results.json)"]
    parts += [f"- Date: {record.date}", ""]
    # Every outside text above went through markdown_text; this keeps any that did not from putting
    # a control character (ESC, U+202E) in a file a reader may `cat`.
    return visible_controls("\n".join(parts))

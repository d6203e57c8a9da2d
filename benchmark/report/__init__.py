"""Reports people read, drawn from a `Results` object alone (no measuring, no tokenizers).

    write_reports(results, Path("reports"))

writes `results.csv`, `README.md` (findings first), `index.html` (one self-contained page) and
`plots/*.png` + `plots/*.svg` into a folder; `results.json` is the run's (benchmark.report.publish puts
the two together). This package is the only place pandas, seaborn and matplotlib are imported,
and only when a report is written.

Each module has one job. `write_reports` builds one `ReportView` and passes it to every renderer;
the renderers (markdown.py, html.py, and the plots: figures.py with plots.py, tokenizer_plots.py,
many_languages.py, token_boundaries.py) read the modules above them and never each other:

    view.py              the results plus what every renderer orders by, derived once: language
                         order, reference, main and production tokenizers, each tokenizer's family
    naming.py            labels and number formats (fmt_*), tokenizer sort order
    analysis.py          figures derived from the rows: flattening, most expensive, speed ranking...
    compare.py           figures that compare models: cheapest per language, mixes, Gini summaries
    examples.py          which tokenizers and languages the token-boundary examples show
    findings.py          the findings, worded from analysis.py and compare.py
    methods.py           the run summary and how the figures were measured
    catalogue.py         each plot declared once: name, title, caption, drawing function, section,
                         its form for many languages
    sections.py          the sections in reading order: title, intro, plots (from the catalogue), tables
    style.py             fonts, plot style, the fixed colours
    tables.py            results.csv and the tables, pivoted from Results.to_frame()
    tokenizer_tables.py  the tables that compare tokenizers (cost, cheapest, fairness, mixes, words)
    plots.py             the figures of the trained tokenizers, speed and round trips
    tokenizer_plots.py   the figures that compare tokenizers (production cost, fairness, mixes)
    many_languages.py    the plots' layouts past ten languages (heatmaps, bands)
    token_boundaries.py  the token-boundary PNG
    figures.py           every spec drawn to PNG and SVG bytes (one at a time: a worker can draw one)
    token_examples.py    the page's token examples as text, for scripts a PNG cannot shape
    markdown.py          README.md
    html.py              index.html
    escaped.py           the results with every outside text escaped for README.md
    manifest.py          the output folder's manifest: the files a report wrote, so only those are replaced
    publish.py           the output folder: results.json and the reports, whole or not at all
"""

from __future__ import annotations

from pathlib import Path

from benchmark.plumbing.fileio import atomic_write_bytes, atomic_write_text
from benchmark.results.rows import Results

__all__ = ["write_reports"]


def write_reports(results: Results, output_dir: Path, *, plots: bool | tuple[str, ...] = True) -> list[Path]:
    """Write results.csv, summaries.csv, pairwise.csv, README.md, index.html and plots/*.png into
    output_dir, and plots/*.svg when `plots` holds "svg" (True: PNG only; False or (): no plots);
    return the paths written."""
    from benchmark.report.html import render_html
    from benchmark.report.markdown import render_markdown
    from benchmark.report.tables import results_csv
    from benchmark.results.pairwise import pairwise_csv
    from benchmark.results.rows import summaries_csv

    from benchmark.report.view import ReportView

    view = ReportView.of(results)  # the facts every renderer orders and labels by, derived once
    output_dir = Path(output_dir)
    rendered = []
    formats = ("png",) if plots is True else tuple(plots or ())
    if formats:
        from benchmark.report.figures import render_plots

        rendered = render_plots(view, svg="svg" in formats)
    texts = {
        "results.csv": results_csv(view),
        "summaries.csv": summaries_csv(view),
        "README.md": render_markdown(view, [plot.spec for plot in rendered], svg="svg" in formats),
        "index.html": render_html(view, rendered),
    }
    if view.pairwise:  # two production tokenizers or more measured (a file before format 4 has none)
        texts["pairwise.csv"] = pairwise_csv(view.pairwise)
    written: list[Path] = []
    for name, content in texts.items():
        atomic_write_text(output_dir / name, content)
        written.append(output_dir / name)
    for plot in rendered:
        for suffix, data in ((".png", plot.png), (".svg", plot.svg)):
            if data is None:
                continue
            path = output_dir / "plots" / f"{plot.spec.name}{suffix}"
            atomic_write_bytes(path, data)
            written.append(path)
    return written

"""Reports people read, drawn from a `Results` object alone (no measuring, no tokenizers).

    write_reports(results, Path("reports"))

writes `results.csv`, `README.md` (findings first), `index.html` (one self-contained page) and
`plots/*.png` + `plots/*.svg` into a folder; `results.json` is the run's (benchmark.report.publish puts
the two together). This package is the only place pandas, seaborn and matplotlib are imported,
and only when a report is written.

Each module has one job; the renderers (markdown.py, html.py, plots.py) read the others and never
each other:

    naming.py            orders, labels and number formats (fmt_*)
    analysis.py          figures derived from the rows: main tokenizers, flattening, speed ranking...
    findings.py          the findings, worded from analysis.py
    methods.py           the run summary and how the figures were measured
    catalogue.py         each plot's name, title and caption
    style.py             fonts, plot style, the fixed colours
    tables.py            results.csv and the tables, pivoted from Results.to_frame()
    markdown.py          README.md
    html.py              index.html
    plots.py             the figures; token_boundaries.py the token-boundary plot
"""

from __future__ import annotations

from pathlib import Path

from benchmark.fileio import atomic_write_bytes, atomic_write_text
from benchmark.results.rows import Results

__all__ = ["write_reports"]


def write_reports(results: Results, output_dir: Path, *, plots: bool = True) -> list[Path]:
    """Write results.csv, summaries.csv, README.md, index.html, plots/*.png and plots/*.svg into output_dir;
    return the paths written."""
    from benchmark.report.html import render_html
    from benchmark.report.markdown import render_markdown
    from benchmark.report.tables import results_csv
    from benchmark.results.rows import summaries_csv

    output_dir = Path(output_dir)
    rendered = []
    if plots:
        from benchmark.report.plots import render_plots

        rendered = render_plots(results)
    texts = {
        "results.csv": results_csv(results),
        "summaries.csv": summaries_csv(results),
        "README.md": render_markdown(results, [plot.info for plot in rendered]),
        "index.html": render_html(results, rendered),
    }
    written: list[Path] = []
    for name, content in texts.items():
        atomic_write_text(output_dir / name, content)
        written.append(output_dir / name)
    for plot in rendered:
        for suffix, data in ((".png", plot.png), (".svg", plot.svg)):
            path = output_dir / "plots" / f"{plot.info.name}{suffix}"
            atomic_write_bytes(path, data)
            written.append(path)
    return written

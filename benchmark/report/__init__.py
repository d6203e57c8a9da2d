"""Reports people read, drawn from a `Results` object alone (no measuring, no tokenizers).

    write_reports(results, Path("reports"))

writes `results.csv`, `results.json`, `README.md` (findings first), `index.html` (one
self-contained page) and `plots/*.png` + `plots/*.svg`. This package is the only place pandas,
seaborn and matplotlib are imported, and only when a report is written.
"""

from __future__ import annotations

from pathlib import Path

from benchmark.fileio import atomic_write_bytes, atomic_write_text
from benchmark.results import Results, save_results

__all__ = ["write_reports"]


def write_reports(results: Results, output_dir: Path, *, plots: bool = True) -> list[Path]:
    """Write results.csv, results.json, README.md, index.html, plots/*.png and plots/*.svg into
    output_dir (each file atomically); return the paths written."""
    from benchmark.report.html import render_html
    from benchmark.report.markdown import render_markdown
    from benchmark.report.tables import results_csv

    output_dir = Path(output_dir)
    # Everything is rendered in memory first: a renderer that fails leaves the folder as it was.
    rendered = []
    if plots:
        from benchmark.report.plots import render_plots

        rendered = render_plots(results)
    texts = {
        "results.csv": results_csv(results),
        "README.md": render_markdown(results, [plot.info for plot in rendered]),
        "index.html": render_html(results, rendered),
    }

    if rendered:
        # Before any file is replaced: a plots folder that cannot be made fails here, not halfway.
        (output_dir / "plots").mkdir(parents=True, exist_ok=True)
    written: list[Path] = []
    for name, content in texts.items():
        atomic_write_text(output_dir / name, content)
        written.append(output_dir / name)
    json_path = output_dir / "results.json"
    save_results(results, json_path)
    written.append(json_path)
    for plot in rendered:
        for suffix, data in ((".png", plot.png), (".svg", plot.svg)):
            path = output_dir / "plots" / f"{plot.info.name}{suffix}"
            atomic_write_bytes(path, data)
            written.append(path)
    _remove_stale_plots(output_dir, {plot.info.name for plot in rendered})
    return written


def _remove_stale_plots(output_dir: Path, kept: set[str]) -> None:
    """Delete our plot files that this render did not write (--no-plots, or a plot this run has no
    data for): left in place they would show an earlier run beside these results. Only file names
    this package writes are touched."""
    from benchmark.report.plots import PLOTS

    for info in PLOTS:
        if info.name not in kept:
            for suffix in (".png", ".svg"):
                (output_dir / "plots" / f"{info.name}{suffix}").unlink(missing_ok=True)

"""Reports people read, drawn from a `Results` object alone (no measuring, no tokenizers).

    write_reports(results, Path("reports"))

writes `results.csv`, `summaries.csv`, `pairwise.csv`, `groups.csv`, `code.csv`, `calibration.csv` and
`calibration.json`,
`README.md` (findings first), `index.html`
(one self-contained page) and `plots/*.png` + `plots/*.svg` into a folder; `publish_report` puts
them beside the run's `results.json` in the output folder, swapped in whole
(benchmark.plumbing.publish). This package is the only place pandas, seaborn and matplotlib are
imported, and only when a report is written.

The rooms, by job; each imports only from the rooms above it in this list, and a file of one room
is named after its topic, so a topic's figures, table and plot sit under one name in each room
(facts/hangul_first.py, tables/hangul_first.py, plots/hangul_first.py):

    view.py    the results plus what every renderer orders by, derived once: language order,
               reference, main and production tokenizers, each tokenizer's family
    naming.py  labels and number formats (fmt_*), the phrases every writer shares
    facts/     what the rows say, as figures and in words (plain Python, no pandas): analysis,
               comparisons of models, the examples chosen, the findings, the methods paragraph
    tables/    the rounded tables both pages show, and results.csv (pandas)
    plots/     every plot declared once (plots/catalogue.py), drawn with seaborn, rendered to PNG and SVG
    pages/     README.md and index.html: the sections in reading order, the leading decision,
               the page's fonts, filter box and token examples

`write_reports` builds one `ReportView` and hands it to every renderer (the two pages, the
tables, the plots); no renderer imports another.
"""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path

from benchmark.plumbing.errors import BenchmarkError
from benchmark.plumbing.fileio import atomic_write_bytes, atomic_write_text
from benchmark.plumbing.publish import OutputClaim, publish, real_output
from benchmark.results.rows import Results

__all__ = ["keep_measurements", "preload", "publish_report", "write_reports"]


def preload(*, plots: bool = True) -> None:
    """Load what writing the reports uses (the pages' modules and, with `plots`, the plotting
    libraries), so that it is done when the reports are written: a run calls this while its
    workers count, and the workers that draw the plots, forked later, inherit it."""
    import benchmark.report.pages.html  # noqa: F401
    import benchmark.report.pages.markdown  # noqa: F401

    if plots:
        from benchmark.report.plots.style import preload_drawing

        preload_drawing()


def write_reports(results: Results, output_dir: Path, *, plots: bool | tuple[str, ...] = True,
                  prices: Path | None = None, previous: Path | None = None) -> list[Path]:
    """Write results.csv, summaries.csv, pairwise.csv, README.md, index.html and plots/*.png into
    output_dir, and plots/*.svg when `plots` holds "svg" (True: PNG only; False or (): no plots),
    with plots/digests.json; return the paths written. `prices`: the user's prices file for the
    money figures (else the pinned price database's). `previous`: a report folder whose plots are
    taken where they were drawn from the same data, code and style (plots/reuse.py)."""
    from benchmark.report.view import ReportView

    view = ReportView.of(results)  # the facts every renderer orders and labels by, derived once
    output_dir = Path(output_dir)
    formats = ("png",) if plots is True else tuple(plots or ())
    drawing = None
    if formats:
        from benchmark.report.plots.render import start_plots

        drawing = start_plots(view, svg="svg" in formats, previous=previous)
    try:  # the tables while the workers draw the plots
        from benchmark.report.pages.html import render_html
        from benchmark.report.pages.markdown import render_markdown
        from benchmark.report.tables.measurements import results_csv
        from benchmark.results.groups import groups_csv
        from benchmark.results.pairwise import pairwise_csv
        from benchmark.results.rows import summaries_csv

        texts = {"results.csv": results_csv(view), "summaries.csv": summaries_csv(view)}
        if view.pairwise:  # two production tokenizers or more measured (a file before format 4 has none)
            texts["pairwise.csv"] = pairwise_csv(view.pairwise)
        if view.domain_premiums:  # a corpus with per-line domain labels (none before format 6)
            from benchmark.results.domain_premiums import domain_premiums_csv

            texts["domain_premiums.csv"] = domain_premiums_csv(view.domain_premiums)
        if view.groups:  # the run's languages per family and tier (none before format 6)
            texts["groups.csv"] = groups_csv(view.groups)
        if view.code:  # the code sample measured (none in a file from before it)
            from benchmark.results.code import code_csv

            texts["code.csv"] = code_csv(view.code.entries)
        if view.calibration:  # a production tokenizer measured on a corpus with dev (none before format 5)
            texts.update(calibration_files(view))
        rendered = drawing.results() if drawing is not None else []
    except BaseException:
        if drawing is not None:
            drawing.cancel()
        raise
    texts["README.md"] = render_markdown(view, [plot.spec for plot in rendered], svg="svg" in formats, prices=prices)
    texts["index.html"] = render_html(view, rendered, prices=prices)
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
    if rendered:
        from benchmark.report.plots.reuse import DIGESTS, digests_json

        atomic_write_text(output_dir / DIGESTS, digests_json({plot.spec.name: plot.digest for plot in rendered}))
        written.append(output_dir / DIGESTS)
    return written


def calibration_files(view) -> dict[str, str]:
    """calibration.csv and calibration.json: the run's calibration table, each group named in
    English (a language by the record, a script by its ISO 15924 name)."""
    import dataclasses

    from benchmark.corpora.languages import SCRIPT_NAMES
    from benchmark.results.calibration import calibration_csv, calibration_json

    record = view.record
    names = {"all": "all languages", **SCRIPT_NAMES, **record.language_names}
    sources = {tokenizer: dataclasses.asdict(entry.source) for tokenizer, entry in record.tokenizers.items()
               if entry.source is not None}
    return {"calibration.csv": calibration_csv((*view.calibration, *view.calibration_domains), names),
            "calibration.json": calibration_json(view.calibration, method=record.settings.calibration,
                                                 date=record.date, corpus=record.settings.corpus, names=names,
                                                 sources=sources, domains=view.calibration_domains)}


def publish_report(results: Results, folder: Path, *, plots: bool = True, results_file: Path | None = None,
                   show_progress: bool = False, claim: OutputClaim | None = None,
                   prices: Path | None = None) -> list[Path]:
    """`results.json` (saved, or `results_file` copied byte for byte) and the reports rendered
    from it (benchmark.report), published in `folder` in one swap (under `claim`, if given)."""
    from benchmark.plumbing.progress import status
    from benchmark.results.rows import save_results

    def write(staging: Path) -> list[Path]:
        json_path = staging / "results.json"
        if results_file is None:
            save_results(results, json_path)
        else:
            shutil.copyfile(results_file, json_path)
        with status(f"writing reports to {folder}/", show_progress):
            # the folder's report, under the claim's lock until the swap: its unchanged plots are reused
            return [json_path, *write_reports(results, staging, plots=plots, prices=prices,
                                              previous=real_output(folder))]

    if claim is not None:
        return claim.publish(write)
    return publish(folder, write)


def keep_measurements(results: Results, output: Path) -> Path:
    """Save the results of a run that could not be published beside the output folder (in the
    temporary folder when that is not writable), under a name no file has yet; returns where."""
    from benchmark.results.rows import save_results

    output = Path(output)
    name = output.name or real_output(output).name or "output"
    for folder in (output.parent, Path(tempfile.gettempdir())):
        for n in range(1, 100):
            kept = folder / f"{name}-unrendered-results{'' if n == 1 else f'-{n}'}.json"
            if kept.exists() or kept.is_symlink():
                continue
            try:
                save_results(results, kept)
                return kept
            except OSError:
                break
    raise BenchmarkError(f"{output}: the measurements could not be saved anywhere (no writable folder)")

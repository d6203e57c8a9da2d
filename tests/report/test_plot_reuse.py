"""A report reuses the previous report's plots that were drawn from the same data, code and style
(benchmark/report/plots/reuse.py), byte for byte, and only files that report wrote, unchanged.

On tests/data/results_fixture.json (tests/support/report_fixture.py): `rendered` is that report
published once with PNG and SVG, its plots drawn.
"""

from __future__ import annotations

import dataclasses
import json
import os
import shutil

import pytest
from tests.support.report_fixture import PLOT_NAMES, results  # noqa: F401 (fixtures)

from benchmark.plumbing.manifest import listed_unchanged, write_manifest
from benchmark.report.plots import render as render_module
from benchmark.report.plots import reuse
from benchmark.report.plots.catalogue import PLOT_BY_NAME, PLOTS, RenderedPlot
from benchmark.report.view import ReportView
from benchmark.results.record import MachineInfo


# The plots the fixture has nothing for: asked again each time (they draw nothing, at once).
NOTHING_TO_DRAW = sorted({spec.name for spec in PLOTS} - set(PLOT_NAMES))


@pytest.fixture
def drawn(monkeypatch):
    """The names of the plots drawn (not reused) while the test runs; each 'drawn' as fake bytes."""
    names = []

    def fake_draw(spec, results, *, svg=False):
        names.append(spec.name)
        return None if spec.name in NOTHING_TO_DRAW else RenderedPlot(spec, b"drawn", b"drawn" if svg else None)

    monkeypatch.setattr(render_module, "draw_plot", fake_draw)
    return names


@pytest.fixture
def copied(rendered, tmp_path):
    out, _ = rendered
    copy = tmp_path / "report"
    shutil.copytree(out, copy)
    return copy


def _digests_of(results):
    return {spec.name: reuse.plot_digest(spec, results) for spec in PLOTS}


def test_a_report_records_each_plot_digest(rendered, results):
    out, written = rendered
    assert out / reuse.DIGESTS in written
    recorded = json.loads((out / reuse.DIGESTS).read_text(encoding="utf-8"))
    assert recorded["format"] == reuse.DIGESTS_FORMAT
    assert recorded["plots"] == {name: reuse.plot_digest(PLOT_BY_NAME[name], results) for name in PLOT_NAMES}


def test_a_second_report_takes_every_plot_from_the_first_byte_for_byte(rendered, results, drawn):
    out, _ = rendered
    plots = render_module.render_plots(results, svg=True, workers=1, previous=out)
    assert sorted(drawn) == NOTHING_TO_DRAW
    assert [plot.spec.name for plot in plots] == [spec.name for spec in PLOTS if spec.name in PLOT_NAMES]
    for plot in plots:  # the bytes drawn by the first report (drawing twice gives the same: test_write_reports)
        assert plot.reused
        assert plot.png == (out / "plots" / f"{plot.spec.name}.png").read_bytes()
        assert plot.svg == (out / "plots" / f"{plot.spec.name}.svg").read_bytes()


def test_png_only_reuses_the_pngs_and_svg_needs_the_svgs(copied, results, drawn):
    render_module.render_plots(results, svg=False, workers=1, previous=copied)
    assert sorted(drawn) == NOTHING_TO_DRAW
    drawn.clear()
    (copied / "plots" / "premium.svg").unlink()
    write_manifest(copied)  # a report of PNGs but one
    render_module.render_plots(results, svg=True, workers=1, previous=copied)
    assert sorted(drawn) == sorted(["premium", *NOTHING_TO_DRAW])


def test_a_changed_or_replaced_plot_is_drawn_again(copied, results, drawn):
    with open(copied / "plots" / "premium.png", "ab") as f:
        f.write(b"edited")
    (copied / "plots" / "roundtrip.png").unlink()
    os.mkfifo(copied / "plots" / "roundtrip.png")  # a FIFO in its place is not read (it would wait)
    (copied / "plots" / "throughput.png").unlink()
    (copied / "plots" / "throughput.png").symlink_to(copied / "plots" / "train_seconds.png")
    render_module.render_plots(results, svg=True, workers=1, previous=copied)
    assert sorted(drawn) == sorted(["premium", "roundtrip", "throughput", *NOTHING_TO_DRAW])


def test_only_a_report_is_reused(copied, results, drawn):
    (copied / "manifest.json").unlink()  # the same files, but nothing says this program wrote them
    render_module.render_plots(results, svg=True, workers=1, previous=copied)
    assert sorted(drawn) == sorted(spec.name for spec in PLOTS)


def test_an_edited_digests_file_reuses_nothing(copied, results, drawn):
    path = copied / reuse.DIGESTS
    path.write_text(path.read_text(encoding="utf-8").replace('"version": 1', '"version": 1 '), encoding="utf-8")
    render_module.render_plots(results, svg=True, workers=1, previous=copied)
    assert sorted(drawn) == sorted(spec.name for spec in PLOTS)
    assert listed_unchanged(copied, reuse.DIGESTS) is None
    assert listed_unchanged(copied, "README.md") == (copied / "README.md").read_bytes()
    assert listed_unchanged(copied, "plots") is None  # a folder is not a listed file


def _rerun(results: ReportView, *, timing_changed: bool, trained_again: bool = True) -> ReportView:
    """The same counts as another run of them gives: another date, machine, phases, counting and
    suite, and when `timing_changed` the timing measured again (speeds 1.5 times, more repeats; the
    training seconds too when `trained_again`)."""
    factor = 1.5 if timing_changed else 1.0

    def scaled(value, name="throughput_mb_s"):
        kept = name == "train_seconds" and not trained_again
        return None if value is None else value * (1.0 if kept else factor)

    rows = tuple(dataclasses.replace(row, **{name: scaled(getattr(row, name), name) for name in reuse.TIMING_FIELDS})
                 for row in results.rows)
    record = results.record
    settings = dataclasses.replace(
        record.settings, counting=dataclasses.replace(record.settings.counting, n_workers=7),
        suite=record.settings.suite and dataclasses.replace(record.settings.suite, git_commit="0" * 40))
    if timing_changed:
        timing = dataclasses.replace(settings.timing, repeats=(settings.timing.repeats or 0) + 7)
        settings = dataclasses.replace(settings, timing=timing)
        if trained_again:
            settings = dataclasses.replace(settings, train_seconds="another clock")
    tokenizers = {tid: dataclasses.replace(entry, train_seconds=scaled(entry.train_seconds, "train_seconds"))
                  for tid, entry in record.tokenizers.items()}
    record = dataclasses.replace(
        record, date="2031-01-01T00:00:00+00:00", settings=settings, tokenizers=tokenizers,
        machine=MachineInfo(platform="another", cpu_count=64), package_versions={"python": "3.99"},
        phase_seconds={name: 1.0 for name in record.phase_seconds}, phase_peak_mb={})
    return ReportView.of(dataclasses.replace(results, rows=rows, record=record))


def test_what_a_plot_does_not_draw_leaves_its_digest_as_it_was(results):
    before, after = _digests_of(results), _digests_of(_rerun(results, timing_changed=True))
    changed = {name for name in before if before[name] != after[name]}
    assert changed == set(reuse.TIMING_PLOTS)
    assert _digests_of(_rerun(results, timing_changed=False)) == before  # the timing the same: only what no plot draws changed
    cached = _digests_of(_rerun(results, timing_changed=True, trained_again=False))  # the models from the cache
    assert {name for name in before if before[name] != cached[name]} == {"throughput"}


def test_what_a_plot_draws_changes_its_digest(results):
    before = _digests_of(results)
    first = results.rows[0]
    rows = (dataclasses.replace(first, n_tokens=first.n_tokens + 1), *results.rows[1:])
    after = _digests_of(ReportView.of(dataclasses.replace(results, rows=rows)))
    assert all(before[name] != after[name] for name in before)
    names = {**results.record.language_names, "jpn_Jpan": "Nihongo"}
    renamed = ReportView.of(dataclasses.replace(results, record=dataclasses.replace(results.record,
                                                                                    language_names=names)))
    assert all(before[name] != digest for name, digest in _digests_of(renamed).items())


def test_what_the_digest_leaves_out_does_not_change_a_plot(rendered, results):
    # The digest leaves out the record's run context and, for every plot but throughput, the timing
    # settings and speeds: drawing a rerun that changed exactly those (the models from the cache,
    # their training seconds as before) must give the same bytes, or a reused plot would be stale.
    out, _ = rendered
    plots = render_module.render_plots(_rerun(results, timing_changed=True, trained_again=False), svg=True, workers=2)
    assert sorted(plot.spec.name for plot in plots) == sorted(PLOT_NAMES)
    for plot in plots:
        same = (plot.png == (out / "plots" / f"{plot.spec.name}.png").read_bytes()
                and plot.svg == (out / "plots" / f"{plot.spec.name}.svg").read_bytes())
        assert same == (plot.spec.name != "throughput"), plot.spec.name


def test_a_plot_code_digest_covers_the_modules_it_imports():
    files = {path.relative_to(reuse._PACKAGE).as_posix() for path in reuse.code_files(("benchmark.report.plots.compare",))}
    assert {"report/plots/compare.py", "report/plots/style.py", "report/plots/render.py", "report/view.py",
            "report/facts/compare.py", "results/rows.py"} <= files
    assert "report/plots/token_boundaries.py" not in files
    assert reuse.code_digest(("benchmark.report.plots.compare",)) != reuse.code_digest(
        ("benchmark.report.plots.token_boundaries",))


def test_each_module_a_plot_imports_is_parsed_once_for_every_plot():
    reuse._imports_in.cache_clear()
    modules = [(spec.draw.__module__,) for spec in PLOTS]
    files = {path for module in modules for path in reuse.code_files(module)}
    assert reuse._imports_in.cache_info().misses <= len(files)  # once per source file, not once per plot
    assert reuse._imports_in.cache_info().hits > 0  # the plots share modules

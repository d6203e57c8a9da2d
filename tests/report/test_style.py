"""One palette for the whole report: each family its own colour, line style and marker, the same in
every plot, and told apart by colour-blind readers too.

Distance is CAM02-UCS's (Luo et al. 2006: a distance of 1 is about one just-noticeable difference)
between colours as seen with normal vision and with simulated deuteranopia, protanopia and
tritanopia (Machado et al. 2009 at full severity, colorspacious). The threshold, 10, is a little
under the closest pair of Okabe & Ito's palette (11.0 by this measure), the scheme most used for
colour-blind readers: families shown together are at least as far apart as that palette's colours.
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from colorspacious import cspace_convert
from matplotlib.colors import to_rgb
from tests.support.report_fixture import results  # noqa: F401 (fixtures)

from benchmark.adapters.families import FAMILIES
from benchmark.report.plots import style as style_module
from benchmark.report.plots.catalogue import PLOT_BY_NAME
from tests.support.paths import DATA

MIN_DISTANCE = 10.0
VISIONS = ("normal", "deuteranomaly", "protanomaly", "tritanomaly")
OKABE_ITO = ("#E69F00", "#56B4E9", "#009E73", "#F0E442", "#0072B2", "#D55E00", "#CC79A7", "#000000")


def closest_pair(colours: dict[str, tuple]) -> tuple[float, str, str, str]:
    """(distance, vision, a, b): the two colours nearest each other under any of VISIONS."""
    names = list(colours)
    rgb = np.array([colours[name] for name in names])
    found = []
    for vision in VISIONS:
        seen = rgb if vision == "normal" else np.clip(
            cspace_convert(rgb, {"name": "sRGB1+CVD", "cvd_type": vision, "severity": 100}, "sRGB1"), 0, 1)
        ucs = cspace_convert(seen, "sRGB1", "CAM02-UCS")
        found += [(float(np.linalg.norm(ucs[i] - ucs[j])), vision, names[i], names[j])
                  for i, j in itertools.combinations(range(len(names)), 2)]
    return min(found)


def test_the_threshold_is_that_of_a_palette_made_for_colour_blind_readers():
    distance = closest_pair({c: to_rgb(c) for c in OKABE_ITO})[0]
    assert MIN_DISTANCE <= distance < MIN_DISTANCE + 1.5


@pytest.mark.parametrize("kind", ["production", "trained"])
def test_families_of_one_kind_stay_apart_for_colour_blind_readers(kind):
    families = [f.family for f in FAMILIES if f.kind == kind]
    styles = style_module.family_styles(families)
    distance, vision, a, b = closest_pair({f: styles[f].colour for f in families})
    assert distance >= MIN_DISTANCE, (a, b, vision, distance)


def test_every_family_has_its_own_colour_and_marker():
    families = [f.family for f in FAMILIES] + ["bpe-custom-mix", "file-extra"]
    styles = style_module.family_styles(families)
    assert len({s.colour for s in styles.values()}) == len(families)
    for kind in ("production", "trained"):
        markers = [styles[f.family].marker for f in FAMILIES if f.kind == kind]
        assert len(set(markers)) == len(markers), kind
    # Our BPE solid; each library's trainer its own dashes.
    libraries = [f.family for f in FAMILIES if f.kind == "trained" and not f.family.startswith("bpe")]
    assert len(libraries) >= 4
    assert len({str(styles[f].linestyle) for f in libraries}) == len(libraries)
    assert all(styles[f].linestyle == "-" for f in families if f.startswith("bpe-"))


def test_a_new_vendor_gets_its_own_colour_from_the_table_alone(monkeypatch):
    # Adding a vendor is its module and its line in the table: the palette follows.
    from benchmark.adapters import families as families_module
    from benchmark.adapters.table import Family

    new = Family("newvendor", "New Vendor", "production", order=95)
    monkeypatch.setattr(style_module, "FAMILIES", (*families_module.FAMILIES, new))
    monkeypatch.setattr(style_module, "family_info",
                        lambda f: new if f == "newvendor" else families_module.family_info(f))
    production = [f.family for f in families_module.FAMILIES if f.kind == "production"] + ["newvendor"]
    styles = style_module.family_styles(production)
    assert styles["newvendor"].colour not in [styles[f].colour for f in production[:-1]]
    assert styles["newvendor"].marker not in [styles[f].marker for f in production[:-1]]


def test_a_tokenizer_is_a_shade_of_its_family_colour_and_its_largest_size_the_colour_itself(results):
    colours = style_module.tokenizer_colours(results)
    for family in set(results.family.values()):
        tids = [tid for tid in results.tokenizers if results.family[tid] == family]
        assert colours[tids[-1]] == pytest.approx(style_module.family_style(results, family).colour)


def test_tick_labels_in_a_family_colour_read_on_white(results):
    from seaborn.utils import relative_luminance

    for colour in style_module.tokenizer_colours(results).values():
        assert relative_luminance(style_module.text_colour(colour)) <= 0.18  # contrast 4.5:1 or more


def _line_styles(fig) -> dict[str, tuple]:
    """legend label -> (colour, line style) of every line legend in the figure."""
    found = {}
    for ax in fig.axes:
        legend = ax.get_legend()
        if legend is None:
            continue
        for handle, text in zip(legend.legend_handles, legend.get_texts()):
            if hasattr(handle, "get_linestyle") and hasattr(handle, "get_marker"):
                found[text.get_text()] = (tuple(to_rgb(handle.get_color())), handle.get_linestyle())
    return found


def test_a_family_looks_the_same_in_every_plot_and_its_legend_draws_its_line():

    from benchmark.adapters.families import family_name
    from benchmark.report.view import ReportView
    from benchmark.results.rows import load_results

    results = ReportView.of(load_results(DATA / "results_mixes.json"))
    with style_module.plot_style():
        gini = _line_styles(PLOT_BY_NAME["gini_by_size"].figure(results))
        seconds = _line_styles(PLOT_BY_NAME["train_seconds"].figure(results))
    assert seconds
    for family in results.trained_families:
        name = family_name(family)
        style = style_module.family_style(results, family)
        if name in seconds:
            assert seconds[name][0] == pytest.approx(style.colour), name
        for label, drawn in gini.items():
            if label.split(" = ")[0].removesuffix(" (the same curve)") == name:
                assert drawn[0] == pytest.approx(style.colour), name
    # The legend draws each family's line as the plot does: the libraries' trainers not solid.
    for family in ("hf-bpe", "sentencepiece-unigram", "hf-wordpiece", "hf-parity"):
        if family_name(family) in seconds:
            assert seconds[family_name(family)][1] != "-", family
    assert {ls for _, ls in seconds.values()} >= {"-", "--"}


def test_fairness_shows_one_kind_per_panel_with_a_legend_of_its_families():

    from benchmark.report.view import ReportView
    from benchmark.results.rows import load_results

    results = ReportView.of(load_results(DATA / "results_mixes.json"))
    with style_module.plot_style():
        fig = PLOT_BY_NAME["fairness"].figure(results)
    panels = [ax for ax in fig.axes if ax.get_legend() is not None]
    assert len(panels) == 2
    production = set(results.production) | {t for t in results.tokenizers if results.family[t] == "bpe_openai"}
    for ax, vendors in zip(panels, (True, False)):
        labels = [label.get_text() for label in ax.get_yticklabels()]
        assert labels and all((label in production) == vendors for label in labels)
        legend = [text.get_text() for text in ax.get_legend().get_texts()]
        assert legend, ax.get_title()

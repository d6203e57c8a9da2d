"""The premium's decomposition drawn (facts/decomposition.py has the figures): per production
tokenizer, each language's byte premium and the tokenizer's factor on top of it, with the
information floor marked.
"""

from __future__ import annotations

import math

from benchmark.report.facts.decomposition import decomposed_groups, decomposed_rows
from benchmark.report.naming import language_label, language_name
from benchmark.report.plots.style import new_figure
from benchmark.report.view import ReportView

PANEL_COLUMNS = 4
LABELLED_MANY = 12  # past view.MANY_LANGUAGES, the languages named on a panel's axis: the dearest ones
BYTES_COLOUR = "0.75"
FACTOR_COLOURS = ("#d95f02", "#1b9e77")  # the tokenizer adds to the bytes' premium / takes from it
TICKS = (0.5, 0.75, 1, 1.25, 1.5, 2, 3, 4, 5, 7, 10, 15, 20)
WIDE_TICKS = (0.5, 1, 2, 5, 10, 20)


def plot_premium_decomposition(results: ReportView):
    """Per production tokenizer, languages by premium (dearest on top): a grey bar from 1 to the
    byte premium, a coloured one from there to the premium (the tokenizer's factor: on a log axis
    the two lengths add up to the premium's; green where it is below 1), the premium as a dot and
    the information floor as a black tick."""
    panels = decomposed_groups(results)
    if not panels:
        return None
    from matplotlib.ticker import FixedLocator, FuncFormatter, NullLocator
    n_languages = max(len(decomposed_rows(results, group[0])) for group in panels)
    columns = min(PANEL_COLUMNS, len(panels))
    lines = math.ceil(len(panels) / columns)
    panel_height = 0.9 + (0.32 if not results.many else 0.07) * n_languages
    fig = new_figure(max(10.0, 3.4 * columns + 0.6), 1.1 + panel_height * lines)
    axes = fig.subplots(lines, columns, squeeze=False, sharex=True)
    values = [v for group in panels for row in decomposed_rows(results, group[0])
              for v in (1.0, row.premium, row.byte_premium, row.information_floor) if v is not None]
    width = 6 if not results.many else 2.2
    for ax, group in zip(axes.flat, panels):
        rows = decomposed_rows(results, group[0])
        ys = range(len(rows))
        for y, row in zip(ys, rows):
            ax.plot([1, row.byte_premium], [y, y], color=BYTES_COLOUR, linewidth=width, solid_capstyle="butt", zorder=1)
            ax.plot([row.byte_premium, row.premium], [y, y], color=FACTOR_COLOURS[row.premium < row.byte_premium],
                    linewidth=width, solid_capstyle="butt", zorder=2)
        ax.scatter([row.premium for row in rows], list(ys), s=22 if not results.many else 5, color="black",
                   edgecolors="white", linewidths=0.5, zorder=4)
        floors = [(row.information_floor, y) for y, row in zip(ys, rows) if row.information_floor is not None]
        ax.scatter([x for x, _ in floors], [y for _, y in floors], marker="|", color="black",
                   s=60 if not results.many else 12, linewidths=1.2, zorder=3)
        ax.set_xscale("log")
        ticks = TICKS if max(values) / min(values) < 5 else WIDE_TICKS  # a wide range: fewer, further apart
        ax.xaxis.set_major_locator(FixedLocator([t for t in ticks if min(values) / 1.1 <= t <= max(values) * 1.1]))
        ax.xaxis.set_major_formatter(FuncFormatter(lambda v, _: f"{v:g}x"))
        ax.xaxis.set_minor_locator(NullLocator())
        ax.tick_params(axis="x", labelbottom=True, labelsize=8)
        ax.axvline(1, color="0.35", linestyle="--", linewidth=0.8, zorder=0)
        labelled = range(len(rows)) if not results.many else range(max(0, len(rows) - LABELLED_MANY), len(rows))
        ax.set_yticks(list(labelled), [language_label(results, rows[k].language) for k in labelled],
                      fontsize=8 if not results.many else 6)
        ax.set_ylim(-0.7, len(rows) - 0.3)
        ax.set_title(" = ".join(group), fontsize=9)
        ax.set_xlabel(f"premium over {language_name(results, results.reference)} (log)", fontsize=8)
    for ax in list(axes.flat)[len(panels):]:
        ax.set_visible(False)
    from matplotlib.lines import Line2D

    handles = [Line2D([], [], color=BYTES_COLOUR, linewidth=6, label="byte premium"),
               Line2D([], [], color=FACTOR_COLOURS[0], linewidth=6, label="tokenizer's factor, above 1"),
               Line2D([], [], color=FACTOR_COLOURS[1], linewidth=6, label="tokenizer's factor, below 1 (bytes it saves)"),
               Line2D([], [], color="black", marker="o", linestyle="", markersize=5, label="premium"),
               Line2D([], [], color="black", marker="|", linestyle="", markersize=10, label="information floor")]
    fig.legend(handles=handles, loc="outside upper center", ncol=5, frameon=False, fontsize=8)
    return fig

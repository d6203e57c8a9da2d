"""The premium decomposed, as the report shows it: how much of each language's premium its bytes
explain (the byte premium, no tokenizer involved) and how much the tokenizer adds (its factor),
with the information floor marked; the finding that names where the tokenizer's share is largest,
and the per-script medians of a many-language run. Rows of results format 4 or later carry the
figures (docs/methodology.md); older files draw and say nothing here.
"""

from __future__ import annotations

import math
import statistics

from typing import TYPE_CHECKING

from benchmark.report.naming import join_words, language_label, language_name
from benchmark.report.style import new_figure
from benchmark.report.view import ReportView

if TYPE_CHECKING:  # the tables module loads pandas; the plot's spec is imported without it
    from benchmark.report.tables import Table

PANEL_COLUMNS = 4
LABELLED_MANY = 12  # past view.MANY_LANGUAGES, the languages named on a panel's axis: the dearest ones
BYTES_COLOUR = "0.75"
FACTOR_COLOURS = ("#d95f02", "#1b9e77")  # the tokenizer adds to the bytes' premium / takes from it
TICKS = (0.5, 0.75, 1, 1.25, 1.5, 2, 3, 4, 5, 7, 10, 15, 20)
WIDE_TICKS = (0.5, 1, 2, 5, 10, 20)


def decomposed_rows(results: ReportView, tokenizer: str) -> list:
    """The tokenizer's measured rows that carry the decomposition, the reference left out, cheapest first."""
    rows = [row for row in results.rows if row.tokenizer == tokenizer and row.ok and row.language != results.reference
            and row.premium is not None and row.byte_premium is not None and row.tokenizer_factor is not None]
    return sorted(rows, key=lambda row: (row.premium, row.language))


def _panels(results: ReportView) -> list[list[str]]:
    """The production tokenizers with decomposed rows, those that count every language alike in one panel."""
    groups: dict[tuple, list[str]] = {}
    for tokenizer in results.production:
        rows = decomposed_rows(results, tokenizer)
        if rows:
            groups.setdefault(tuple((row.language, row.n_tokens) for row in rows), []).append(tokenizer)
    return list(groups.values())


def plot_premium_decomposition(results: ReportView):
    """Per production tokenizer, languages by premium (dearest on top): a grey bar from 1 to the
    byte premium, a coloured one from there to the premium (the tokenizer's factor: on a log axis
    the two lengths add up to the premium's; green where it is below 1), the premium as a dot and
    the information floor as a black tick."""
    panels = _panels(results)
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


def tokenizer_share_finding(results: ReportView) -> str | None:
    """The languages whose premium the production tokenizers' merges add most to, beyond the bytes:
    the largest median tokenizer's factor over the production tokenizers."""
    factors: dict[str, list[float]] = {}
    for tokenizer in results.production:
        for row in decomposed_rows(results, tokenizer):
            factors.setdefault(row.language, []).append(row.tokenizer_factor)
    if len(factors) < 2:
        return None
    median = {code: statistics.median(values) for code, values in factors.items()}
    top = sorted(median, key=lambda code: (-median[code], code))[:3]
    bytes_most = max(median, key=lambda code: (_median_of(results, code, "byte_premium"), code))
    named = join_words([f"{language_name(results, code)} ({median[code]:.2f}x)" for code in top])
    return (f"Beyond what their bytes explain, the production tokenizers charge most for {named}: the median "
            f"tokenizer's factor, each language's bytes per token against {language_name(results, results.reference)}'s. "
            f"{language_name(results, bytes_most)} pays most for its bytes alone (byte premium "
            f"{_median_of(results, bytes_most, 'byte_premium'):.2f}x, tokenizer's factor {median[bytes_most]:.2f}x).")


def _median_of(results: ReportView, code: str, name: str) -> float:
    values = [getattr(row, name) for tokenizer in results.production for row in decomposed_rows(results, tokenizer)
              if row.language == code and getattr(row, name) is not None]
    return statistics.median(values) if values else 0.0


def script_decomposition_table(results: ReportView) -> Table:
    """At many languages: per script (most expensive first) the median byte premium of its
    languages, then per production tokenizer the median tokenizer's factor and excess premium."""
    from benchmark.report.script_summary import MIN_SCRIPTS, script_of_language
    from benchmark.report.tables import Table

    empty = Table("script_decomposition", "", ("script",), ())
    if not results.many:
        return empty
    shown = [group[0] for group in _panels(results)]
    cells: dict[str, dict[str, list]] = {}
    for tokenizer in shown:
        for row in decomposed_rows(results, tokenizer):
            script = script_of_language(results, row.language)
            if script is not None:
                cells.setdefault(script, {}).setdefault(tokenizer, []).append(row)
    if len(cells) < MIN_SCRIPTS:
        return empty
    from benchmark.corpora.languages import SCRIPT_NAMES

    def median(rows, name):
        values = [getattr(row, name) for row in rows if getattr(row, name) is not None]
        return f"{statistics.median(values):.2f}" if values else ""

    order = sorted(cells, key=lambda s: (-statistics.median(r.premium for rows in cells[s].values() for r in rows), s))
    lines = []
    for script in order:
        by_tokenizer = cells[script]
        any_rows = next(iter(by_tokenizer.values()))
        lines.append((f"{SCRIPT_NAMES.get(script, script)} ({script})", str(len(any_rows)), median(any_rows, "byte_premium"),
                      *(f"{median(by_tokenizer[t], 'tokenizer_factor')} / {median(by_tokenizer[t], 'excess_premium')}"
                        if t in by_tokenizer else "" for t in shown)))
    return Table("script_decomposition", "Where each script's premium comes from",
                 ("script", "languages", "byte premium", *shown), tuple(lines),
                 note="Medians over the script's languages (the reference left out): the byte premium (the text's "
                      "UTF-8 bytes over the reference's, the same under every tokenizer), then per tokenizer its factor / "
                      "the excess premium over the information floor. Scripts most expensive first.",
                 numeric=(False, True, True) + (False,) * len(shown))

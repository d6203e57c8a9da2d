"""The plots' layouts for runs of more than MANY_LANGUAGES languages (report/view.py), where bars
grouped by language and one colour per language stop being readable (30, 100, all 204 of FLORES-200).

- cost and premium: a heatmap, languages down (most expensive first), the main tokenizers across,
  each cell annotated; round trips the same way, worst language first;
- bytes per token: for each family, the median over languages with the middle half and the whole
  range as bands, and a few languages named (the reference, the lowest and the highest);
- throughput (measurements.py): one small dot per language in the tokenizer's colour and the median.

Long heatmaps are cut into panels side by side (at most MAX_ROWS_PER_PANEL rows each), so a figure
of 204 languages stays within about 17 x 14 inches and its labels at a readable 7 points.
"""

from __future__ import annotations

import math
import statistics
import textwrap
from dataclasses import dataclass

from benchmark.report.facts.analysis import FLAT_GAIN_PER_DOUBLING, bytes_per_token_curve, first_flat_step, lossy_lines
from benchmark.report.naming import (
    LOSSLESS_SHARE,
    LOSSY_MARK,
    fmt_rate_percent,
    language_label,
)
from benchmark.report.plots.style import (
    ROUNDTRIP_BANDS,
    colour_tick_labels,
    family_style,
    new_figure,
    plain_log_ticks,
    tokenizer_colours,
)
from benchmark.report.view import ReportView

MAX_ROWS_PER_PANEL = 105  # about 19 inches: a tall figure, but at its size on the page
ROW_IN = 0.16  # one language's row: room for a 7-point label
LABEL_PT, CELL_PT = 7.0, 6.5
# Up to this many rows, taller rows and larger cell numbers: a 13-language heatmap read at its size
# on the page (990 px wide) needs more than 6.5 points.
ROOMY_ROWS, ROOMY_ROW_IN, ROOMY_CELL_PT = 40, 0.27, 8.5
COLORBAR_PT = 8.0
MAX_WIDTH_IN = 12.0  # the page shows a figure this wide (1,320 px) at its own size, so 7 points stay 7
ANNOTATED_CELL_IN, MIN_CELL_IN = 0.55, 0.28  # a cell wide enough for "123.4 †", and the narrowest one
HEADER_IN = 1.9  # the title, the tokenizer names (rotated) above the cells, a note below
COLORBAR_IN = 1.3  # the colour bar and its label
MIN_WIDTH_IN, MIN_HEIGHT_IN = 9.0, 3.6  # room for the title and the colour bar's labels


@dataclass(frozen=True)
class PanelLayout:
    n_panels: int
    rows_per_panel: int
    cell_in: float
    width_in: float
    height_in: float
    row_in: float = ROW_IN

    @property
    def cell_pt(self) -> float:
        return ROOMY_CELL_PT if self.row_in == ROOMY_ROW_IN else CELL_PT

    @property
    def annotated(self) -> bool:
        return self.cell_in >= ANNOTATED_CELL_IN


def panel_layout(n_rows: int, n_columns: int, label_in: float) -> PanelLayout:
    """Panels side by side of at most MAX_ROWS_PER_PANEL rows with annotated cells, within
    MAX_WIDTH_IN; where they do not fit, narrower cells (unannotated, down to MIN_CELL_IN), then
    fewer, taller panels."""

    def width(n_panels: int, cell_in: float) -> float:
        return n_panels * (label_in + n_columns * cell_in) + COLORBAR_IN

    n_panels = math.ceil(n_rows / MAX_ROWS_PER_PANEL)
    cell_in = ANNOTATED_CELL_IN
    if width(n_panels, cell_in) > MAX_WIDTH_IN:
        cell_in = max(MIN_CELL_IN, ((MAX_WIDTH_IN - COLORBAR_IN) / n_panels - label_in) / n_columns)
    while n_panels > 1 and width(n_panels, cell_in) > MAX_WIDTH_IN:
        n_panels -= 1
    rows = math.ceil(n_rows / n_panels)
    row_in = ROOMY_ROW_IN if rows <= ROOMY_ROWS else ROW_IN
    return PanelLayout(n_panels, rows, cell_in, max(width(n_panels, cell_in), MIN_WIDTH_IN),
                       max(HEADER_IN + rows * row_in, MIN_HEIGHT_IN), row_in)


def _label_in(labels: list[str]) -> float:
    # About half an em a character: enough for constrained layout to start from.
    return 0.25 + max((len(label) for label in labels), default=4) * LABEL_PT * 0.55 / 72


def _language_heatmap(values, annotations, labels: list[str], tokenizers: list[str], results: ReportView, *,
                      cmap, norm, colorbar_label: str, title: str, ylabel: str, note: str = ""):
    """Languages down (`labels`), tokenizers across: `values` (rows x columns, NaN where nothing
    was measured: grey) coloured by `norm`, `annotations` written in the cells when they fit."""
    import numpy as np
    from matplotlib.colors import to_rgb
    from seaborn.utils import relative_luminance

    layout = panel_layout(len(labels), len(tokenizers), _label_in(labels))
    fig = new_figure(layout.width_in, layout.height_in)
    axes = fig.subplots(1, layout.n_panels, squeeze=False).ravel()
    colours = tokenizer_colours(results)
    per = layout.rows_per_panel
    mesh = None
    for k, ax in enumerate(axes):
        block = values[k * per:(k + 1) * per]
        texts = annotations[k * per:(k + 1) * per]
        n = len(block)
        ax.grid(False)
        missing = np.where(np.isnan(block), 1.0, np.nan)
        ax.pcolormesh(missing, cmap="Greys", vmin=0, vmax=6, edgecolors="white", linewidth=0.4)
        mesh = ax.pcolormesh(np.ma.masked_invalid(block), cmap=cmap, norm=norm, edgecolors="white", linewidth=0.4)
        ax.set_xlim(0, len(tokenizers))
        ax.set_ylim(per, 0)  # rows as tall in every panel, the first at the top
        for side in ("top", "right", "bottom", "left"):
            ax.spines[side].set_visible(False)
        if layout.annotated:
            for (i, j), text in np.ndenumerate(texts):
                if not text:
                    continue
                shade = "0.35" if np.isnan(block[i, j]) else (
                    "white" if relative_luminance(to_rgb(mesh.cmap(mesh.norm(block[i, j])))) < 0.45 else "0.1")
                ax.text(j + 0.5, i + 0.5, text, ha="center", va="center", fontsize=layout.cell_pt, color=shade)
        ax.set_yticks(np.arange(n) + 0.5, labels[k * per:(k + 1) * per], fontsize=LABEL_PT)
        ax.tick_params(axis="both", length=0, pad=2)
        ax.xaxis.tick_top()
        ax.xaxis.set_label_position("top")
        ax.set_xticks(np.arange(len(tokenizers)) + 0.5, tokenizers, rotation=40, ha="left",
                      rotation_mode="anchor", fontsize=LABEL_PT + 0.5)
        colour_tick_labels(ax.get_xticklabels(), colours)
        ax.set_xlabel("Tokenizer", fontsize=8)
        ax.set_ylabel(ylabel if k == 0 else f"{ylabel} (continued)", fontsize=8)
    shrink = min(1.0, 6 / layout.height_in + 0.2)
    colorbar = fig.colorbar(mesh, ax=list(axes), shrink=shrink, pad=0.02, aspect=30)
    # Wrapped to the bar's length (about 0.6 em a character), so the label never runs off the figure.
    bar_pt = shrink * (layout.height_in - HEADER_IN) * 72
    colorbar.set_label(textwrap.fill(colorbar_label, max(12, int(bar_pt / (0.6 * COLORBAR_PT))),
                                     break_long_words=False), fontsize=COLORBAR_PT)
    fig.suptitle(textwrap.fill(title, int(layout.width_in * 8.5), break_long_words=False), fontweight="bold")  # ~8.5 bold characters an inch
    if note:
        fig.supxlabel(textwrap.fill(note, int(layout.width_in * 15)), fontsize=8, color="0.3")
    return fig


def language_grid(frame, value: str, text: str, languages: list[str], tokenizers: list[str]) -> tuple:
    """(values, texts): the frame's `value` and `text` columns as arrays of languages x tokenizers,
    NaN and "" where the frame has no line."""
    grid = frame.pivot(index="language", columns="tokenizer", values=[value, text])
    values = grid[value].reindex(index=languages, columns=tokenizers).to_numpy(dtype=float)
    texts = grid[text].reindex(index=languages, columns=tokenizers).fillna("").to_numpy(dtype=object)
    return values, texts


def roundtrip_cells(results: ReportView, languages: list[str], tokenizers: list[str], *, skipped: str) -> tuple:
    """(percent, texts), languages x tokenizers: each row's round-trip rate in percent and as the
    table rounds it, `skipped` written where the row was not measured."""
    frame = results.to_frame()
    ok = frame["status"].eq("ok")
    text = [fmt_rate_percent(None if math.isnan(v) else v).rstrip("%") for v in frame["roundtrip_rate"].tolist()]
    frame = frame.assign(percent=(100 * frame["roundtrip_rate"]).where(ok), text=text)
    frame = frame.assign(text=frame["text"].where(ok, skipped))
    return language_grid(frame, "percent", "text", languages, tokenizers)


def _premium_lossy(reference: str):
    """lossy_lines for premiums: a premium divides by the reference's count, so changed text on
    either side changes it (as the premium table marks it)."""
    def lossy(frame):
        at_reference = frame[frame["language"].eq(reference)]
        reference_lossy = dict(zip(at_reference["tokenizer"], lossy_lines(at_reference)))
        return lossy_lines(frame) | frame["tokenizer"].map(reference_lossy).eq(True)
    return lossy


def _cost_values(results: ReportView, languages: list[str], tokenizers: list[str], value: str, fmt, lossy) -> tuple:
    """(values, annotations, any lossy cell) of `value`, languages x tokenizers, from the measured
    rows; an annotation gets LOSSY_MARK where `lossy(frame)` says the count is of changed text."""
    frame = results.to_frame()
    frame = frame[frame["status"].eq("ok") & frame[value].notna()]
    frame = frame.assign(lossy=lossy(frame), text=[fmt(v) for v in frame[value].tolist()])
    frame = frame.assign(text=frame["text"].where(~frame["lossy"], frame["text"] + f" {LOSSY_MARK}"))
    values, texts = language_grid(frame, value, "text", languages, tokenizers)
    shown = frame["language"].isin(languages) & frame["tokenizer"].isin(tokenizers)
    return values, texts, bool(frame["lossy"][shown].any())


def cost_heatmap(results: ReportView, *, premium: bool):
    """Tokens per sentence (premium False) or the premium: languages down, most expensive (by the
    mean over the main tokenizers) first, the main tokenizers across."""
    import numpy as np
    from matplotlib.colors import LogNorm

    reference = results.reference
    ref_name = results.record.language_names.get(reference, reference)
    tokenizers = results.headline
    languages = [code for code in results.languages if not (premium and code == reference)]
    if not tokenizers or not languages:
        return None
    if premium:
        values, texts, any_lossy = _cost_values(results, languages, tokenizers, "premium", lambda v: f"{v:.2f}",
                                                _premium_lossy(reference))
    else:
        values, texts, any_lossy = _cost_values(results, languages, tokenizers, "tokens_per_sentence",
                                                lambda v: f"{v:.1f}", lossy_lines)
    means = [np.nanmean(row) if not np.isnan(row).all() else -math.inf for row in values]
    order = sorted(range(len(languages)), key=lambda i: (-means[i], i))  # ties: run order
    measured = values[~np.isnan(values)]
    norm = LogNorm(vmin=max(measured.min(), 1e-3), vmax=measured.max()) if measured.size else None
    note = (f"{LOSSY_MARK} under {LOSSLESS_SHARE:.0%} of sentences round-trip: the count is of text the tokenizer "
            "changed." if any_lossy else "")
    labels = [language_label(results, languages[i]) for i in order]
    if premium:
        title = f"Token premium vs {ref_name} for the same sentences: {len(languages)} languages, most expensive first"
        colorbar_label = f"Premium (tokens relative to {ref_name}, x, log scale)"
    else:
        title = (f"What the same sentences cost: tokens per sentence in {len(languages)} languages, "
                 "most expensive first")
        colorbar_label = "Tokens per sentence (mean, log scale)"
    fig = _language_heatmap(values[order], texts[order], labels, tokenizers, results, cmap="YlOrRd", norm=norm,
                            colorbar_label=colorbar_label, title=title, ylabel="Language", note=note)
    if measured.size:
        plain_log_ticks(fig.axes[-1].yaxis, measured.tolist())
    return fig


def tokens_heatmap(results: ReportView):
    return cost_heatmap(results, premium=False)


def premium_heatmap(results: ReportView):
    return cost_heatmap(results, premium=True)


def roundtrip_by_language(results: ReportView):
    """The round-trip heatmap with languages down (worst first) and every tokenizer across."""
    import numpy as np
    import seaborn as sns
    from matplotlib.colors import BoundaryNorm, ListedColormap

    tokenizers = results.tokenizers
    languages = results.languages
    if not tokenizers or not languages:
        return None
    values, texts = roundtrip_cells(results, languages, tokenizers, skipped="\u2013")
    bands = ROUNDTRIP_BANDS
    norm = BoundaryNorm([low for _, low, _ in bands] + [bands[-1][2]], len(bands))
    cmap = ListedColormap(sns.color_palette("RdYlGn", len(bands), as_cmap=False))
    # A language exact under every tokenizer says nothing the others do not: those share one row.
    # A tokenizer skipped for every language (a size too large for the text) does not stop the fold.
    skipped = np.isnan(values).all(axis=0)
    exact = [not np.isnan(row[~skipped]).any() and np.nanmin(row, initial=math.inf) >= bands[-1][1]
             for row in values]
    worst = [np.nanmin(row) if not np.all(np.isnan(row)) else math.inf for row in values]
    order = sorted((i for i in range(len(languages)) if not exact[i]), key=lambda i: (worst[i], i))
    labels = [language_label(results, languages[i]) for i in order]
    values, texts = values[order], texts[order]
    n_exact = sum(exact)
    if n_exact:
        labels.append(f"all {n_exact} languages" if n_exact == len(languages) else f"the other {n_exact} languages")
        values = np.vstack([values, np.where(skipped, np.nan, 100.0)[None, :]])
        texts = np.vstack([texts, np.where(skipped, "\u2013", "100").astype(object)[None, :]])
    note = (f"{n_exact} of {len(languages)} languages round-trip every sentence under every tokenizer: they share "
            "the last row. " if n_exact else "") + "Grey: skipped."
    fig = _language_heatmap(values, texts, labels, tokenizers, results, cmap=cmap, norm=norm,
                            colorbar_label="Exact round trips (% of sentences)",
                            title=f"Round-trip fidelity in {len(languages)} languages, worst first: % of sentences "
                                  "that decode back exactly",
                            ylabel="Language", note=note)
    colorbar = fig.axes[-1]
    colorbar.set_yticks([(low + high) / 2 for _, low, high in bands], labels=[name for name, _, _ in bands])
    colorbar.minorticks_off()
    return fig


def named_languages(results: ReportView, family: str) -> list[str]:
    """The languages a band plot names: the reference, and the lowest and highest bytes per token
    under the family's largest size."""
    reference = results.reference
    at_largest = {}
    for code in results.languages:
        points = bytes_per_token_curve(results, family, code)
        if points:
            at_largest[code] = points[-1]
    if not at_largest:
        return [reference]
    size = max(point[0] for point in at_largest.values())
    values = {code: point[1] for code, point in at_largest.items() if point[0] == size}
    lowest = min(values, key=lambda code: (values[code], code))
    highest = max(values, key=lambda code: (values[code], code))
    return list(dict.fromkeys(code for code in (reference, lowest, highest) if code))


NAMED_COLOURS = ((0.0, 0.0, 0.0), (0.80, 0.25, 0.10), (0.05, 0.45, 0.70))  # reference, lowest, highest


def draw_family_bands(ax, results: ReportView, family: str, named: list[str]) -> bool:
    """One family's curves over many languages: the median, the middle half and the whole range as
    bands, the named languages as thin lines, the fixed vocabularies as a median with their spread;
    a ring where the median stops improving, all in the colour of the family's largest tokenizer.
    Returns whether it drew a ring."""
    import numpy as np

    colour = family_colour(results, family)

    curves = [dict(bytes_per_token_curve(results, family, code)) for code in results.languages]
    sizes = sorted({size for curve in curves for size in curve})
    stats = np.array([np.percentile([c[s] for c in curves if s in c], [0, 25, 50, 75, 100]) for s in sizes])
    if len(sizes) > 1:
        ax.fill_between(sizes, stats[:, 0], stats[:, 4], color=colour, alpha=0.15, linewidth=0)
        ax.fill_between(sizes, stats[:, 1], stats[:, 3], color=colour, alpha=0.35, linewidth=0)
    else:  # one size measured: the bands are a bar, as for a fixed vocabulary
        ax.vlines(sizes, stats[:, 0], stats[:, 4], color=colour, alpha=0.5, linewidth=1)
        ax.vlines(sizes, stats[:, 1], stats[:, 3], color=colour, alpha=0.8, linewidth=4)
    ax.plot(sizes, stats[:, 2], color=colour, linewidth=2.2, marker="o", markersize=4)
    for code, line_colour in zip(named, NAMED_COLOURS):
        points = bytes_per_token_curve(results, family, code)
        if points:
            ax.plot(*zip(*points), color=line_colour, linewidth=1.1, linestyle="--", marker=".", markersize=4)
    pair = results.openai_pair
    if pair:
        index = results.index
        for tid, marker, size in zip(pair, ("X", "*"), (8, 12)):
            rows = [index.get((tid, code)) for code in results.languages]
            found = [row for row in rows if row and row.ok and row.bytes_per_token]
            if not found:
                continue
            x = found[0].vocab_size
            low, q1, median, q3, high = np.percentile([row.bytes_per_token for row in found], [0, 25, 50, 75, 100])
            ax.vlines(x, low, high, color="0.55", linewidth=1)
            ax.vlines(x, q1, q3, color="0.3", linewidth=4)
            ax.plot([x], [median], marker=marker, markersize=size, color="0.15", markeredgecolor="white")
            for code, line_colour in zip(named, NAMED_COLOURS):
                row = index.get((tid, code))
                if row and row.ok and row.bytes_per_token:
                    ax.plot([x * 1.12], [row.bytes_per_token], marker=marker, markersize=size * 0.6,
                            color=line_colour, linestyle="none")
    flat = first_flat_step(list(zip(sizes, stats[:, 2].tolist())))
    if flat is not None:
        ax.plot([flat[0]], [stats[sizes.index(flat[0]), 2]], marker="o", markersize=12, markerfacecolor="none",
                markeredgecolor=colour, markeredgewidth=1.5)
    return flat is not None


def band_legend(results: ReportView, named: list[str], any_flat: bool) -> list:
    from matplotlib.lines import Line2D
    from matplotlib.patches import Patch

    n = len(results.languages)
    handles = [Line2D([], [], color="0.3", linewidth=2.2, marker="o", markersize=4, label=f"median of {n} languages"),
               Patch(facecolor="0.3", alpha=0.35, label="middle half (25-75%)"),
               Patch(facecolor="0.3", alpha=0.15, label="all, lowest to highest")]
    handles += [Line2D([], [], color=c, linestyle="--", marker=".", label=language_label(results, code))
                for code, c in zip(named, NAMED_COLOURS)]
    if any_flat:
        handles.append(Line2D([], [], color="0.4", marker="o", markersize=11, markerfacecolor="none", linestyle="none",
                              label=f"median stops improving\n(<{FLAT_GAIN_PER_DOUBLING:.0%} per doubling)"))
    pair = results.openai_pair
    if pair:
        for tid, marker, size in zip(pair, ("X", "*"), (8, 12)):
            handles.append(Line2D([], [], color="0.15", marker=marker, markersize=size, linestyle="none",
                                  label=f"{tid}\n(median; bar: middle half, line: range)"))
    return handles


def family_colour(results: ReportView, family: str):
    return family_style(results, family).colour


def draw_throughput_dots(ax, frame, tokenizers: list[str], results: ReportView) -> list:
    """One small dot per language on each tokenizer's line (spread up and down in a fixed pattern,
    so that equal speeds stay visible) and the median over languages; returns the legend handles."""
    from matplotlib.lines import Line2D

    colours = tokenizer_colours(results)
    n_languages = frame["language"].nunique()
    for k, tid in enumerate(tokenizers):
        speeds = frame[frame["tokenizer"].eq(tid)]["throughput"].tolist()
        # The golden ratio's multiples, modulo 1: evenly spread offsets, the same on every run.
        offsets = [((i * 0.6180339887) % 1 - 0.5) * 0.55 for i in range(len(speeds))]
        ax.scatter(speeds, [k + o for o in offsets], s=7, color=colours[tid], alpha=0.55, linewidths=0)
        if speeds:
            ax.plot([statistics.median(speeds)], [k], marker="|", markersize=18, markeredgewidth=2.5, color="0.1")
    ax.set_yticks(range(len(tokenizers)), tokenizers)
    ax.set_ylim(len(tokenizers) - 0.5, -0.5)
    return [Line2D([], [], color="0.45", marker="o", markersize=3, linestyle="none",
                   label=f"one dot per language ({n_languages})"),
            Line2D([], [], color="0.1", marker="|", markersize=12, markeredgewidth=2.5, linestyle="none",
                   label="median over languages")]


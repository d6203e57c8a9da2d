"""The figures that compare tokenizers: what each language costs on the production tokenizers, how
evenly each tokenizer charges the languages (Gini), and what the training mix does to the
premium and to the Gini. Same conventions as measurements.py: each takes the `ReportView`, returns a Figure
(or None when there is nothing to draw).
"""

from __future__ import annotations

from benchmark.adapters.families import family_name
from benchmark.report.facts.analysis import is_lossy
from benchmark.report.facts.compare import by_gini, mix_families, mix_rows, mix_size, summaries
from benchmark.report.naming import language_label, language_name
from benchmark.adapters.families import is_production
from benchmark.report.plots.style import family_styles, new_figure, text_colour, tokenizer_colours
from benchmark.report.view import ReportView

DOT_PLOT_LANGUAGES = 24  # up to this many languages a dot per model; past it a heatmap
MARKERS = ("o", "s", "D", "^", "v", "P", "X", "*", "h", "<", ">", "p")


def _heatmap(ax, results: ReportView, languages: list[str], columns: list[str], values, *, label: str,
             xlabel: str, fmt: str = ".1f", cmap: str = "viridis_r") -> None:
    """Languages down (sorted as given), `columns` across, `values[i][j]` in the cells."""
    import numpy as np
    import seaborn as sns

    grid = np.array(values, dtype=float)
    sns.heatmap(grid, ax=ax, cmap=cmap, mask=np.isnan(grid), annot=len(languages) <= 40, fmt=fmt,
                annot_kws={"fontsize": 7}, cbar_kws={"label": label}, linewidths=0.3, linecolor="white")
    ax.set_yticks(np.arange(len(languages)) + 0.5, [language_label(results, c) for c in languages], rotation=0,
                  fontsize=7 if len(languages) > 40 else 9)
    ax.set_xticks(np.arange(len(columns)) + 0.5, columns, rotation=45, ha="right", fontsize=8)
    ax.set_xlabel(xlabel)
    ax.set_ylabel("Language")


def plot_production_cost(results: ReportView):
    """Tokens per sentence on every production tokenizer, by language."""
    tokenizers = results.production
    languages = results.languages
    if not tokenizers or not languages:
        return None
    index = results.index

    def value(tid: str, code: str) -> float:
        row = index.get((tid, code))
        return row.tokens_per_sentence if row is not None and row.ok and row.tokens_per_sentence else float("nan")

    if len(languages) > DOT_PLOT_LANGUAGES:
        import statistics

        ranked = sorted(languages, key=lambda c: -statistics.median(
            [v for t in tokenizers if (v := value(t, c)) == v] or [0]))
        fig = new_figure(11, min(2 + 0.16 * len(ranked), 40))
        ax = fig.add_subplot()
        _heatmap(ax, results, ranked, tokenizers, [[value(t, c) for t in tokenizers] for c in ranked],
                 label="Tokens per sentence (mean)", xlabel="Tokenizer")
        ax.set_title("What the same sentences cost on today's models: tokens per sentence, dearest language first")
        return fig
    colours = tokenizer_colours(results)
    fig = new_figure(11, 1.8 + 0.62 * len(languages))
    ax = fig.add_subplot()
    positions = {code: len(languages) - 1 - k for k, code in enumerate(languages)}  # the reference on top
    for code in languages:
        points = [v for t in tokenizers if (v := value(t, code)) == v]
        if points:
            ax.plot([min(points), max(points)], [positions[code]] * 2, color="0.88", linewidth=16,
                    solid_capstyle="round", zorder=1)
    # Tokenizers that count every language the same (one vocabulary shipped twice) share a marker.
    same: dict[tuple, list[str]] = {}
    for tid in tokenizers:
        same.setdefault(tuple(round(value(tid, code), 2) for code in languages), []).append(tid)
    # Each marker a little above or below the row, in the legend's order, so equal values (Qwen and
    # cl100k on Czech) stay side by side instead of one hiding the other.
    offsets = [0.32 * ((k + 0.5) / len(same) - 0.5) * 2 for k in range(len(same))]
    for k, group in enumerate(same.values()):
        xs = [value(group[0], code) for code in languages]
        ys = [positions[code] - offsets[k] for code in languages]
        ax.scatter(xs, ys, s=52, marker=MARKERS[k % len(MARKERS)], color=colours[group[0]], edgecolors="0.25",
                   linewidths=0.5, zorder=3, label=" = ".join(group))
    ax.set_yticks(list(positions.values()), [language_label(results, code) for code in positions])
    ax.set_xlabel("Tokens per sentence (mean; the same sentences in every language)")
    ax.set_ylabel("Language")
    ax.grid(axis="y", visible=False)
    ax.legend(title="Tokenizer", loc="upper left", bbox_to_anchor=(1.01, 1), frameon=False)
    ax.set_title("What the same sentences cost on today's models: tokens per sentence, by language")
    return fig


def plot_fairness(results: ReportView):
    """Each tokenizer's Gini over the languages, most even on top, with its interval: the vendors'
    and the trained ones in two panels on one scale (their colours are told apart within a kind)."""
    from matplotlib.patches import Patch

    ranked = by_gini(results)
    if len(ranked) < 2:
        return None
    colours = tokenizer_colours(results)
    styles = family_styles(set(results.family.values()))
    lossy = {row.tokenizer for row in results.rows if row.ok and is_lossy(row)}
    production = set(results.production) | {s.tokenizer for s in ranked if is_production(s.family)}
    panels = [(title, [s for s in ranked if (s.tokenizer in production) == wanted])
              for title, wanted in (("The vendors' tokenizers", True), ("Trained here", False))]
    panels = [(title, found) for title, found in panels if found]
    fig = new_figure(11, 1.4 + 0.3 * len(ranked) + 0.5 * len(panels))
    axes = fig.subplots(len(panels), 1, sharex=True, squeeze=False,
                        height_ratios=[len(found) + 1.5 for _, found in panels]).ravel()
    for ax, (title, found) in zip(axes, panels):
        ys = list(range(len(found)))[::-1]
        for y, s in zip(ys, found):
            bar = ax.barh(y, s.gini, color=colours.get(s.tokenizer, (0.5, 0.5, 0.5)), edgecolor="white", height=0.75)
            if s.tokenizer in lossy:
                bar[0].set_hatch("////")
            if s.gini_ci_low is not None:
                # max(0, ...): a results.json of an older run may hold an interval a rounding off its estimate
                below, above = max(0.0, s.gini - s.gini_ci_low), max(0.0, s.gini_ci_high - s.gini)
                ax.errorbar(s.gini, y, xerr=[[below], [above]], fmt="none", ecolor="0.2", elinewidth=1, capsize=2)
        ax.set_yticks(ys, [s.tokenizer for s in found], fontsize=8)
        for label in ax.get_yticklabels():
            label.set_color(text_colour(colours.get(label.get_text(), (0.3, 0.3, 0.3))))
        ax.set_ylim(-0.7, len(found) - 0.3)
        ax.set_ylabel("Tokenizer")
        ax.grid(axis="y", visible=False)
        ax.set_title(title, fontsize=10)
        families = list(dict.fromkeys(s.family for s in found))
        handles = [Patch(facecolor=styles[f].colour, label=family_name(f)) for f in families]
        if any(s.tokenizer in lossy for s in found):
            handles.append(Patch(facecolor="0.55", edgecolor="white", hatch="////", label="text changed"))
        ax.legend(handles=handles, title="Family (lighter: smaller)", loc="upper left", bbox_to_anchor=(1.01, 1),
                  frameon=False, fontsize=8)
    axes[-1].set_xlim(0, 1.04 * max(s.gini_ci_high if s.gini_ci_high is not None else s.gini for s in ranked))
    axes[-1].set_xlabel("Gini coefficient of the languages' token counts for the same sentences (0: every "
                        "language costs the same)")
    fig.suptitle(f"Fairness over {ranked[0].n_languages} languages: how evenly each tokenizer charges them "
                 "(95% CI; hatched: text changed)", fontweight="bold")
    return fig


def plot_mix_premium(results: ReportView):
    """The premium of each language under each training mix of our BPE at one size, with OpenAI's
    two vocabularies as reference points."""
    size = mix_size(results)
    families = mix_families(results)
    if size is None or len(families) < 2:
        return None
    reference = results.reference
    languages = [code for code in results.languages if code != reference]
    by_mix = mix_rows(results, size)
    index = results.index
    pair = results.openai_pair or ()
    labels = [f"{family_name(f)}" for f in families]
    if len(languages) > DOT_PLOT_LANGUAGES:
        first = by_mix[families[0]]
        ranked = sorted(languages, key=lambda c: -(first[c].premium or 0) if c in first else 0)
        fig = new_figure(10, min(2 + 0.16 * len(ranked), 40))
        ax = fig.add_subplot()
        grid = [[by_mix[f][c].premium if c in by_mix[f] and by_mix[f][c].premium else float("nan") for f in families]
                for c in ranked]
        _heatmap(ax, results, ranked, labels, grid, label=f"Premium over {language_name(results, reference)}",
                 xlabel=f"Training mix ({size:,} tokens)", fmt=".2f", cmap="rocket_r")
        ax.set_title(f"Training mix against premium: our BPE at {size:,} tokens")
        return fig
    import numpy as np

    colours = {f: tokenizer_colours(results)[by_mix[f][next(iter(by_mix[f]))].tokenizer] for f in families}
    fig = new_figure(11, 5.2)
    ax = fig.add_subplot()
    width = 0.8 / len(families)
    for i, family in enumerate(families):
        xs = [j - 0.4 + width * (i + 0.5) for j in range(len(languages))]
        heights = [by_mix[family][c].premium if c in by_mix[family] else np.nan for c in languages]
        ax.bar(xs, heights, width=width * 0.92, color=colours[family], edgecolor="white", label=family_name(family))
    for tid, marker in zip(pair, ("X", "*")):
        ys = [index[(tid, c)].premium if (tid, c) in index and index[(tid, c)].ok else np.nan for c in languages]
        ax.scatter(range(len(languages)), ys, marker=marker, s=110, color="0.15", zorder=4, label=tid,
                   edgecolors="white", linewidths=0.6)
    ax.axhline(1.0, color="0.3", linestyle="--", linewidth=1)
    ax.set_xticks(range(len(languages)), [language_label(results, c).replace(" (", "\n(") for c in languages])
    ax.set_xlabel("Language")
    ax.set_ylabel(f"Premium (tokens relative to {language_name(results, reference)}, x)")
    ax.grid(axis="x", visible=False)
    ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1), frameon=False, title=f"Training mix ({size:,} tokens)")
    ax.set_title(f"What the training mix does to the premium: our BPE at {size:,} tokens, OpenAI's as reference")
    return fig


def plot_gini_by_size(results: ReportView):
    """The Gini against vocabulary size for each trained family, production tokenizers as lines."""
    from matplotlib.lines import Line2D

    by_family: dict[str, list[tuple[int, float, str]]] = {}
    production = []
    for s in summaries(results):
        if s.gini is None:
            continue
        if s.tokenizer in results.production:
            production.append(s)
        elif s.family in results.trained_families:
            by_family.setdefault(s.family, []).append((s.vocab_size, s.gini, s.tokenizer))
    curves = {f: sorted(points) for f, points in by_family.items() if len(points) >= 2}
    if not curves:
        return None
    colours = tokenizer_colours(results)
    styles = family_styles(set(results.family.values()))
    fig = new_figure(11, 5.0)
    ax = fig.add_subplot()
    handles = []
    order = [f for f in mix_families(results) if f in curves] + [f for f in results.trained_families
                                                                  if f in curves and f not in mix_families(results)]
    # Families whose curves are the same to three places (HF's byte-level BPE and our balanced one
    # train the same merges) are drawn once, and the legend names them together.
    same: dict[tuple, list[str]] = {}
    for family in order:
        same.setdefault(tuple((p[0], round(p[1], 3)) for p in curves[family]), []).append(family)
    for group in same.values():
        points, style = curves[group[0]], styles[group[0]]
        ax.plot([p[0] for p in points], [p[1] for p in points], marker=style.marker, color=style.colour,
                linewidth=2 if group[0].startswith("bpe-") else 1.4, linestyle=style.linestyle)
        label = " = ".join(family_name(f) for f in group)
        handles.append(Line2D([], [], color=style.colour, marker=style.marker, linestyle=style.linestyle,
                              label=label + (" (the same curve)" if len(group) > 1 else "")))
    # Tokenizers with the same Gini to three places share a line and a label; labels are spread
    # apart so that close lines stay readable.
    lines: dict[float, list] = {}
    for s in production:
        lines.setdefault(round(s.gini, 3), []).append(s)
    ax.set_ylim(bottom=0)
    top = max([g for g in lines] + [p[1] for points in curves.values() for p in points]) * 1.08
    ax.set_ylim(0, top)
    gap = top * 0.035
    placed: list[float] = []
    for gini in sorted(lines):
        group = lines[gini]
        colour = colours.get(group[0].tokenizer, (0.5, 0.5, 0.5))
        ax.axhline(gini, color=colour, linewidth=0.8, linestyle="--")
        y = max(gini, placed[-1] + gap) if placed else gini
        placed.append(y)
        ax.annotate(", ".join(s.tokenizer for s in group), (1.0, y), xycoords=("axes fraction", "data"),
                    xytext=(4, 0), textcoords="offset points", va="center", fontsize=7, color=text_colour(colour))
    sizes = sorted({p[0] for points in curves.values() for p in points})
    ax.set_xscale("log", base=2)
    ax.set_xticks(sizes, [f"{size:,}" for size in sizes])
    ax.minorticks_off()
    ax.set_xlabel("Vocabulary size (tokens, log scale)")
    ax.set_ylabel("Gini of the languages' token counts")
    ax.legend(handles=handles, title="Trained family", loc="upper center", bbox_to_anchor=(0.5, -0.14),
              ncol=min(len(handles), 4), frameon=False)
    ax.set_title("Fairness against vocabulary size: the Gini per training mix (dashed: production tokenizers)")
    return fig

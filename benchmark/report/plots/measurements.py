"""The plots of what was measured (tables/measurements.py has the same figures as tables): tokens
per sentence, premium, bytes per token against vocabulary size, throughput, training time and
round trips; seaborn on matplotlib's Agg canvas.

Each `plot_*` function takes the results and returns a matplotlib `Figure` (or None when the
results hold nothing to draw), so tests can read titles and axis labels off the objects. No
pyplot: figures are plain `Figure` objects on an Agg canvas (style.new_figure). What each plot is
called, how to read it and where it is shown is in catalogue.py; fonts and colours in style.py.
"""

from __future__ import annotations

import math

from benchmark.adapters.families import family_name
from benchmark.report.facts.analysis import (
    FLAT_GAIN_PER_DOUBLING,
    bytes_per_token_curve,
    flattening,
    has_yardstick_ratios,
    lossy_lines,
)
from benchmark.report.naming import LOSSLESS_SHARE, language_label, language_name, repeats_phrase
from benchmark.report.plots import many_languages
from benchmark.report.plots.style import (
    ROUNDTRIP_BANDS,
    colour_tick_labels,
    family_styles,
    language_colours,
    new_figure,
    plain_log_ticks,
    tokenizer_colours,
)
from benchmark.report.view import ReportView


def _two_line_label(results: ReportView, code: str) -> str:
    name = language_name(results, code)
    return f"{name}\n({code})" if name != code else code


def _size_label(vocab_size: float) -> str:
    # 1024 -> "1k", 16384 -> "16k", 100277 -> "100k": the sizes people say out loud.
    return f"{vocab_size / 1000:.0f}k" if vocab_size >= 1000 else f"{vocab_size:.0f}"


# ----------------------------------------------------------------------------- the plots


def _measured(results: ReportView):
    """The long-form frame (Results.to_frame) of the measured rows only: skipped rows are in the
    tables, not in the plots."""
    frame = results.to_frame()
    return frame[frame["status"].eq("ok")]


def _grouped_bars(ax, results: ReportView, tokenizers: list[str], languages: list[str], value: str,
                  interval: tuple[str, str] | None = None) -> None:
    """One group of bars per language, one bar per tokenizer, in the tokenizers' colours. The
    frame's `value` column is a bar's height; its `interval` columns, if given, the (low, high)
    whiskers, a missing end drawn at the height."""
    import numpy as np
    from matplotlib.patches import Patch

    measured = _measured(results)
    measured = measured[measured[value].notna() & measured["language"].isin(languages)]
    position = {code: j for j, code in enumerate(languages)}
    colours = tokenizer_colours(results)
    width = 0.8 / len(tokenizers)
    lossy_drawn = False  # hatched: a count of text the tokenizer changed (see naming.LOSSLESS_SHARE)
    for i, tid in enumerate(tokenizers):
        bars = measured[measured["tokenizer"].eq(tid)]
        bars = bars.assign(x=bars["language"].map(position)).sort_values("x")
        xs = (bars["x"] - 0.4 + width * (i + 0.5)).tolist()
        heights = bars[value]
        lossy = lossy_lines(bars).tolist()
        lossy_drawn |= any(lossy)
        drawn = ax.bar(xs, heights.tolist(), width=width * 0.92, color=colours[tid], edgecolor="white", linewidth=0.4)
        for bar, hatched in zip(drawn, lossy):
            bar.set_hatch("////" if hatched else "")
        if interval is not None:
            low, high = (bars[column].fillna(heights) for column in interval)
            errors = [(heights - low).clip(lower=0).tolist(), (high - heights).clip(lower=0).tolist()]
            ax.errorbar(xs, heights.tolist(), yerr=np.array(errors), fmt="none", ecolor="0.2", elinewidth=1, capsize=2)
    ax.set_xticks(range(len(languages)), [_two_line_label(results, code) for code in languages])
    ax.set_xlim(-0.5, len(languages) - 0.5)
    ax.set_xlabel("Language")
    ax.grid(axis="x", visible=False)
    # Legend patches made here: a bar container's own would show its first bar's hatch.
    handles = ax.get_legend_handles_labels()[0] + [Patch(facecolor=colours[tid], label=tid) for tid in tokenizers]
    if lossy_drawn:
        handles.append(Patch(facecolor="0.55", edgecolor="white", hatch="////",
                             label=f"hatched: under {LOSSLESS_SHARE:.0%} of sentences\nround-trip (text changed)"))
    ax.legend(handles=handles, title="Tokenizer", loc="upper left", bbox_to_anchor=(1.01, 1), frameon=False)


def _panels(results: ReportView) -> list[tuple[str, list[str]]]:
    """The main tokenizers split by kind, one panel each: the vendors' vocabularies, and the ones
    trained here with OpenAI's two for reference. On one axis the trained ones' extremes (English-only
    merges: 7x) squash the 1-2.5x range where the vendors differ."""
    production = [tid for tid in results.headline if tid in set(results.production)]
    trained = [tid for tid in results.headline if tid not in set(production)]
    pair = [tid for tid in results.openai_pair or () if tid in results.headline]
    if trained and set(production) - set(pair):  # vendors beyond OpenAI's two: a panel of their own
        return [("The vendors' tokenizers", production),
                ("Trained here (OpenAI's two for reference)", pair + [tid for tid in trained if tid not in pair])]
    return [("", results.headline)]


def _cut_tall_bars(ax, bars: list[tuple[float, float]]) -> bool:
    """Where a few bars (x, height) stand over three times the median, the axis stops above the
    others and each cut bar is labelled with its height at the top, so the outliers (English-only
    merges: 7x) do not squash the range where the rest differ."""
    import statistics

    heights = [h for _, h in bars if h is not None and h > 0]
    if not heights:
        return False
    median = statistics.median(heights)
    kept = [h for h in heights if h <= 3 * median]
    if len(kept) == len(heights) or not kept:
        return False
    top = 1.15 * max(kept)
    ax.set_ylim(top=top)
    for x, h in bars:
        if h is not None and h > top:
            ax.annotate(f"{h:.1f}" if h < 100 else f"{h:.0f}", (x, top), xytext=(0, -2), textcoords="offset points",
                        ha="center", va="top", rotation=90, fontsize=7, color="white", fontweight="bold")
    return True


def _bar_panels(results: ReportView, languages: list[str], value: str, ylabel: str, title: str,
                interval: tuple[str, str] | None = None, parity: str | None = None):
    panels = _panels(results)
    if not panels[0][1] or not languages:
        return None
    fig = new_figure(11, 0.6 + 4.6 * len(panels))
    axes = fig.subplots(len(panels), 1, squeeze=False).ravel()
    for ax, (panel_title, tokenizers) in zip(axes, panels):
        if parity:
            ax.axhline(1.0, color="0.3", linestyle="--", linewidth=1, label=f"parity: {parity} = 1.0")
        _grouped_bars(ax, results, tokenizers, languages, value, interval)
        ax.set_ylabel(ylabel)
        bars = [(bar.get_x() + bar.get_width() / 2, bar.get_height()) for container in ax.containers
                if hasattr(container, "patches") for bar in container.patches]
        cut = _cut_tall_bars(ax, bars)
        ax.set_title(panel_title + (" (bars cut at the top are labelled with their height)" if cut else ""),
                     fontsize=10)
    fig.suptitle(title, fontweight="bold")
    return fig


def plot_tokens_per_sentence(results: ReportView):
    return _bar_panels(results, results.languages, "tokens_per_sentence", "Tokens per sentence (mean)",
                       "What the same sentences cost: tokens per sentence, by language and tokenizer")


def plot_premium(results: ReportView):
    reference = results.reference
    ref_name = language_name(results, reference)
    languages = [code for code in results.languages if code != reference]
    return _bar_panels(results, languages, "premium", f"Premium (tokens relative to {ref_name}, x)",
                       f"Token premium vs {ref_name} for the same sentences (95% bootstrap CI)",
                       ("premium_ci_low", "premium_ci_high"), parity=ref_name)


def plot_bytes_per_token(results: ReportView):
    from matplotlib.lines import Line2D

    families = [f for f in results.trained_families if any(r.family == f and r.ok for r in results.rows)]
    if not families:
        return None
    languages = results.languages
    lang_colours = language_colours(results)
    index = results.index
    pair = results.openai_pair
    ncols = min(len(families), 2)
    nrows = math.ceil(len(families) / ncols)
    fig = new_figure(11, 3.6 * nrows + 0.8)
    axes = fig.subplots(nrows, ncols, sharey=True, squeeze=False).ravel()
    ticks: set[int] = set()
    any_flat = False
    # The fixed vocabularies have one size for every language: spread their markers sideways (by a
    # factor on the log axis) so that two languages with close values do not hide each other.
    spread = {code: 2 ** (0.16 * (k - (len(languages) - 1) / 2)) for k, code in enumerate(languages)}
    many = results.many  # then bands over the languages and a few of them named
    named = many_languages.named_languages(results, families[0]) if many else []
    for ax, family in zip(axes, families):
        if many:
            any_flat |= many_languages.draw_family_bands(ax, results, family, named)
            ticks.update(row.vocab_size for row in results.rows
                         if row.ok and (row.family == family or (pair and row.tokenizer in pair)))
        else:
            for code in languages:
                points = bytes_per_token_curve(results, family, code)
                if not points:
                    continue
                ticks.update(size for size, _ in points)
                ax.plot(*zip(*points), marker="o", markersize=4, color=lang_colours[code], linewidth=1.6)
                flat = flattening(results, family, code)
                if flat is not None and flat.flat_at is not None:
                    any_flat = True
                    y = dict(points)[flat.flat_at]
                    ax.plot([flat.flat_at], [y], marker="o", markersize=11, markerfacecolor="none",
                            markeredgecolor=lang_colours[code], markeredgewidth=1.4)
                if pair:
                    for tid, marker, size in zip(pair, ("X", "*"), (9, 13)):
                        row = index.get((tid, code))
                        if row and row.ok and row.bytes_per_token:
                            ticks.add(row.vocab_size)
                            ax.plot([row.vocab_size * spread[code]], [row.bytes_per_token], marker=marker,
                                    markersize=size, linestyle="none", color=lang_colours[code],
                                    markeredgecolor="white")
        ax.set_xscale("log", base=2)
        ax.set_title(family_name(family), fontsize=10)
        ax.set_xlabel("Vocabulary size (tokens, log scale)")
        ax.set_ylabel("Bytes per token (UTF-8)")
    for ax in axes[len(families):]:
        ax.set_visible(False)
    for ax in axes[: len(families)]:
        ax.set_xticks(sorted(ticks), [_size_label(t) for t in sorted(ticks)])
        ax.minorticks_off()
    if many:
        handles = many_languages.band_legend(results, named, any_flat)
    else:
        handles = [Line2D([], [], color=lang_colours[c], marker="o", label=language_label(results, c))
                   for c in languages]
        if any_flat:
            handles.append(Line2D([], [], color="0.4", marker="o", markersize=11, markerfacecolor="none",
                                  linestyle="none",
                                  label=f"stops improving\n(<{FLAT_GAIN_PER_DOUBLING:.0%} per doubling)"))
        if pair:
            for tid, marker, size in zip(pair, ("X", "*"), (9, 13)):
                handles.append(Line2D([], [], color="0.4", marker=marker, markersize=size, linestyle="none",
                                      label=tid))
    fig.legend(handles=handles, loc="outside right upper", frameon=False, title="Language / marker")
    title = "Bytes per token against vocabulary size"
    fig.suptitle(title + (": where the curve flattens" if any_flat else ""), fontweight="bold")
    return fig


def plot_throughput(results: ReportView):
    import seaborn as sns

    measured = _measured(results)
    timed = measured[measured["throughput_mb_s"].fillna(0).ne(0)]  # a throughput of 0: not timed
    if timed.empty:
        return None
    # The yardstick ratio where the run measured it: MB/s moves with the machine's speed.
    by_ratio = has_yardstick_ratios(results)
    value = "throughput_x_tiktoken" if by_ratio else "throughput_mb_s"
    tokenizers = [tid for tid in results.tokenizers if tid in set(timed["tokenizer"])]
    languages = [code for code in results.languages if code in set(timed["language"])]
    labels = {code: language_label(results, code) for code in languages}
    frame = timed.assign(language=timed["language"].map(labels), throughput=timed[value])
    fig = new_figure(11, 1.6 + 0.36 * len(tokenizers))
    ax = fig.add_subplot()
    many = results.many  # then one dot per language in the tokenizer's colour, and the median
    if many:
        ax.set_xscale("log")
        handles = many_languages.draw_throughput_dots(ax, frame, tokenizers, results)
    else:
        lang_colours = language_colours(results)
        sns.stripplot(
            data=frame,
            x="throughput",
            y="tokenizer",
            hue="language",
            order=tokenizers,
            hue_order=[labels[c] for c in languages],
            palette={labels[c]: lang_colours[c] for c in languages},
            dodge=True,
            jitter=False,
            size=6,
            log_scale=True,
            ax=ax,
        )
    colour_tick_labels(ax.get_yticklabels(), tokenizer_colours(results))
    plain_log_ticks(ax.xaxis, frame["throughput"].tolist() + ([1.0] if by_ratio else []))
    ax.set_ylabel("Tokenizer")
    if by_ratio:
        ax.axvline(1.0, color="0.35", linewidth=1, linestyle="--", zorder=0)
        ax.set_xlabel("Throughput in multiples of tiktoken cl100k_base's on the same sentences "
                      "(timed in turns with it, one thread, log scale)")
        ax.set_title(f"Encoder throughput per tokenizer and language, relative to tiktoken ({repeats_phrase(results)})")
    else:
        ax.set_xlabel("Throughput (MB of UTF-8 text per second, one thread, log scale)")
        ax.set_title(f"Encoder throughput per tokenizer and language ({repeats_phrase(results)})")
    if many:
        ax.legend(handles=handles, loc="upper left", bbox_to_anchor=(1.01, 1), frameon=False)
    else:
        ax.legend(title="Language", loc="upper left", bbox_to_anchor=(1.01, 1), frameon=False)
    ax.grid(axis="y", visible=False)
    return fig


def plot_train_seconds(results: ReportView):
    from matplotlib.lines import Line2D

    measured = _measured(results)
    # A tokenizer's training time is on each of its rows: one point per tokenizer.
    trained = measured[measured["train_seconds"].notna()].drop_duplicates("tokenizer")
    if trained.empty:
        return None
    present = set(trained["family"])
    families = [f for f in results.trained_families if f in present]
    families += sorted(present - set(families))
    fig = new_figure(9, 4.6)
    ax = fig.add_subplot()
    styles = family_styles(set(results.family.values()))
    handles = []
    for family in families:
        points = trained[trained["family"].eq(family)].sort_values(["vocab_size", "train_seconds", "tokenizer"])
        sizes, seconds = (points[column].tolist() for column in ("vocab_size", "train_seconds"))
        style = styles[family]
        ax.plot(sizes, seconds, color=style.colour, linewidth=1.6, linestyle=style.linestyle, marker=style.marker,
                markersize=6, markeredgecolor="white")
        handles.append(Line2D([], [], color=style.colour, marker=style.marker, linestyle=style.linestyle,
                              label=family_name(family)))
    sizes = sorted(set(trained["vocab_size"].tolist()))
    ax.set_xscale("log", base=2)
    ax.set_xticks(sizes, [f"{s:,}" for s in sizes])
    ax.minorticks_off()
    ax.set_ylim(bottom=0)
    ax.set_xlabel("Vocabulary size (tokens, log scale)")
    ax.set_ylabel("Training time (seconds, wall clock)")
    ax.set_title("Training time against vocabulary size, per trained family")
    ax.legend(handles=handles, title="Family", loc="upper left", bbox_to_anchor=(1.01, 1), frameon=False)
    return fig


def plot_roundtrip(results: ReportView):
    import numpy as np
    import seaborn as sns
    from matplotlib.colors import BoundaryNorm, ListedColormap

    tokenizers = results.tokenizers
    languages = results.languages
    if not tokenizers or not languages:
        return None
    # The cell as the table shows it, "skipped" where the row was, blank where it has no rate.
    values, annotations = (cells.T for cells in many_languages.roundtrip_cells(results, languages, tokenizers,
                                                                              skipped="skipped"))
    fig = new_figure(10, 1.8 + 0.34 * len(tokenizers))
    ax = fig.add_subplot()
    ax.set_facecolor("0.93")  # skipped cells show the background
    ax.grid(False)
    bands = ROUNDTRIP_BANDS  # bands, not a linear scale (style.py says why)
    cmap = sns.color_palette("RdYlGn", len(bands), as_cmap=False)
    sns.heatmap(
        values,
        mask=np.isnan(values),
        annot=annotations,
        fmt="",
        cmap=ListedColormap(cmap),
        norm=BoundaryNorm([low for _, low, _ in bands] + [bands[-1][2]], len(bands)),
        linewidths=0.5,
        linecolor="white",
        cbar_kws={"label": "Exact round trips (% of sentences)"},
        annot_kws={"fontsize": 8},
        ax=ax,
    )
    colorbar = ax.collections[0].colorbar
    colorbar.set_ticks([(low + high) / 2 for _, low, high in bands], labels=[name for name, _, _ in bands])
    colorbar.minorticks_off()
    # seaborn does not annotate masked cells; write "skipped" into them ourselves.
    for i, j in zip(*np.nonzero(np.isnan(values))):
        if annotations[i, j]:
            ax.text(j + 0.5, i + 0.5, annotations[i, j], ha="center", va="center", fontsize=7, color="0.45")
    ax.set_xticks(np.arange(len(languages)) + 0.5, [_two_line_label(results, c) for c in languages], rotation=0)
    ax.set_yticks(np.arange(len(tokenizers)) + 0.5, tokenizers, rotation=0)
    colour_tick_labels(ax.get_yticklabels(), tokenizer_colours(results))
    ax.set_xlabel("Language")
    ax.set_ylabel("Tokenizer")
    ax.set_title("Round-trip fidelity: % of sentences with decode(encode(s)) == s")
    return fig

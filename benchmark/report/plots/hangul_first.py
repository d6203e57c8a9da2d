"""The Korean question drawn (facts/hangul_first.py has the figures): Korean's premium, with its
interval, and its partial-character share against vocabulary size, a line per family.
"""

from __future__ import annotations

from benchmark.adapters.families import family_name
from benchmark.report.facts.hangul_first import korean_points
from benchmark.report.naming import language_name
from benchmark.report.plots.style import new_figure, tokenizer_colours
from benchmark.report.view import ReportView


def plot_korean_by_size(results: ReportView):
    """Korean's premium (with its interval) and partial-character share against size, a line per family."""
    points = korean_points(results)
    if not points or max(len(p) for p in points.values()) < 2:
        return None
    colours = tokenizer_colours(results)
    fig = new_figure(12, 4.8)
    premium_ax, partial_ax = fig.subplots(1, 2)
    for family, series in points.items():
        sizes = [p.vocab_size for p in series]
        colour = colours.get(series[-1].tokenizer)
        style = {"marker": "o", "color": colour, "label": family_name(family),
                 "linestyle": ":" if family.startswith("hf-") else "-"}
        premium_ax.plot(sizes, [p.premium for p in series], **style)
        bands = [p for p in series if p.premium_ci is not None]
        if bands:
            premium_ax.fill_between([p.vocab_size for p in bands], [p.premium_ci[0] for p in bands],
                                    [p.premium_ci[1] for p in bands], color=colour, alpha=0.15, linewidth=0)
        partial_ax.plot(sizes, [100 * (p.partial_char_rate or 0) for p in series], **style)
    reference = language_name(results, results.reference)
    premium_ax.axhline(1.0, color="grey", linewidth=0.8, linestyle="--")
    premium_ax.set_ylabel(f"Korean premium (tokens / {reference}'s)")
    partial_ax.set_ylabel("Korean tokens that are part of a character (%)")
    partial_ax.set_ylim(bottom=0)
    for ax in (premium_ax, partial_ax):
        all_sizes = sorted({p.vocab_size for series in points.values() for p in series})
        ax.set_xscale("log", base=2)
        ax.set_xticks(all_sizes, [f"{size:,}" for size in all_sizes])
        ax.minorticks_off()
        ax.set_xlabel("Vocabulary size (tokens, log scale)")
    premium_ax.set_title("Premium, with its 95% interval (shaded)")
    partial_ax.set_title("Partial-character share")
    handles, labels = premium_ax.get_legend_handles_labels()
    fig.legend(handles, labels, loc="outside lower center", ncol=len(labels), frameon=False)
    fig.suptitle("Korean against vocabulary size: Hangul syllables first, frequency BPE and parity-aware BPE")
    return fig

"""Lorenz curves beside the Gini: for each production tokenizer, the share of all tokens against
the share of languages, the languages sorted from the fewest tokens to the most; the diagonal is
every language costing the same, and the Gini is twice the area between it and the curve."""

from __future__ import annotations

from benchmark.report.facts.compare import summaries
from benchmark.report.plots.style import new_figure, tokenizer_colours
from benchmark.report.view import ReportView


def lorenz_points(totals: list[int]) -> tuple[list[float], list[float]]:
    """(share of languages, share of tokens) from (0, 0) to (1, 1), the totals sorted ascending."""
    ordered = sorted(totals)
    whole, n = sum(ordered), len(ordered)
    xs, ys, running = [0.0], [0.0], 0
    for k, value in enumerate(ordered, start=1):
        running += value
        xs.append(k / n)
        ys.append(running / whole)
    return xs, ys


def plot_lorenz(results: ReportView):
    """One curve per production tokenizer measured on every language, its Gini in the legend."""
    ginis = {s.tokenizer: s.gini for s in summaries(results) if s.gini is not None}
    curves = []
    for tokenizer in results.production:
        rows = [results.index.get((tokenizer, code)) for code in results.languages]
        if tokenizer in ginis and all(row is not None and row.ok for row in rows):
            curves.append((tokenizer, [row.n_tokens for row in rows]))
    if not curves or len(results.languages) < 2:
        return None
    colours = tokenizer_colours(results)
    fig = new_figure(9, 7)
    ax = fig.subplots()
    ax.plot([0, 1], [0, 1], color="0.4", linestyle="--", linewidth=1, label="equality (Gini 0)")
    for tokenizer, totals in sorted(curves, key=lambda c: (-ginis[c[0]], c[0])):
        xs, ys = lorenz_points(totals)
        ax.plot(xs, ys, color=colours.get(tokenizer, (0.5, 0.5, 0.5)), linewidth=1.6,
                label=f"{tokenizer} (Gini {ginis[tokenizer]:.3f})")
    ax.set_xlim(0, 1)
    ax.set_ylim(0, 1)
    ax.set_aspect("equal")
    ax.set_xlabel(f"Share of the {len(results.languages)} languages, fewest tokens first")
    ax.set_ylabel("Share of all their tokens for the same sentences")
    ax.legend(title="Tokenizer (most unequal first)", loc="upper left", fontsize=8, frameon=False)
    ax.set_title("Lorenz curves: how the tokens of the same sentences are shared among the languages")
    return fig

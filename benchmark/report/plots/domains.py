"""How far the premium moves with the kind of text: one panel per language, a row per tokenizer,
a marker per domain at its premium with its 95% interval (tables/domains.py has the figures)."""

from __future__ import annotations

from benchmark.report.naming import language_label, language_name
from benchmark.report.plots.style import new_figure
from benchmark.report.facts.domains import domain_names, domain_tokenizers
from benchmark.report.view import ReportView

MAX_PANELS = 12  # languages drawn; the table has them all


def plot_domain_premiums(results: ReportView):
    """The premium per domain, per tokenizer, one panel per language (None without domains)."""
    import seaborn as sns

    domains, tokenizers = domain_names(results), domain_tokenizers(results)
    if len(domains) < 2 or not tokenizers:
        return None
    found = {(e.tokenizer, e.language, e.domain): e for e in results.domain_premiums}
    languages = [code for code in results.languages
                 if any((t, code, d) in found for t in tokenizers for d in domains)][:MAX_PANELS]
    colours = dict(zip(domains, sns.color_palette("colorblind", len(domains))))
    n_columns = min(3, len(languages))
    n_rows = -(-len(languages) // n_columns)
    fig = new_figure(4.6 * n_columns, 0.5 + 0.32 * len(tokenizers) * n_rows + 0.9 * n_rows)
    axes = fig.subplots(n_rows, n_columns, sharey=True, squeeze=False).ravel()
    step = 0.7 / max(1, len(domains) - 1)
    for ax, code in zip(axes, languages):
        for k, domain in enumerate(domains):
            points = [(row, found[(t, code, domain)]) for row, t in enumerate(tokenizers) if (t, code, domain) in found]
            if not points:
                continue
            y = [row - 0.35 + k * step for row, _ in points]
            x = [e.premium for _, e in points]
            errors = [[e.premium - e.premium_ci_low for _, e in points], [e.premium_ci_high - e.premium for _, e in points]]
            ax.errorbar(x, y, xerr=errors, fmt="o", markersize=4, color=colours[domain], elinewidth=1.2,
                        capsize=0, label=domain)
        ax.axvline(1.0, color="grey", linewidth=0.8, linestyle="--")
        ax.set_title(language_label(results, code))
        ax.set_yticks(range(len(tokenizers)), tokenizers)
        ax.set_ylim(len(tokenizers) - 0.5, -0.5)
        ax.set_xlabel(f"premium over {language_name(results, results.reference)}")
        ax.grid(axis="x", linewidth=0.4, alpha=0.5)
    for ax in axes[len(languages):]:
        ax.set_visible(False)
    handles, labels = axes[0].get_legend_handles_labels()
    fig.legend(handles, labels, loc="outside lower center", ncol=len(labels), frameon=False, title="kind of text")
    fig.suptitle("The same language, different kinds of text: the premium per domain (95% interval)")
    return fig

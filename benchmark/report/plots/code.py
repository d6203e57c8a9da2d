"""What source code costs: tokens per kilobyte of each programming language's sample, one bar per
tokenizer and language (a hue per language), the reference language's FLORES prose marked beside
them for scale (tables/code.py has the figures)."""

from __future__ import annotations

from benchmark.report.facts.code import code_language_name, code_tokenizers, prose_tokens_per_kb
from benchmark.report.naming import language_name
from benchmark.report.plots.style import new_figure
from benchmark.report.view import ReportView


def plot_code(results: ReportView):
    """Tokens per kB per tokenizer, a hue per programming language (None without the code sample)."""
    import pandas as pd
    import seaborn as sns

    tokenizers = code_tokenizers(results)
    if not tokenizers:
        return None
    names = [code_language_name(language) for language in results.code.languages]
    frame = pd.DataFrame([{"tokenizer": e.tokenizer, "language": code_language_name(e.language),
                           "tokens_per_kb": e.tokens_per_kb} for e in results.code.entries])
    fig = new_figure(10, 1.6 + 0.42 * len(tokenizers))
    ax = fig.add_subplot()
    sns.barplot(frame, y="tokenizer", x="tokens_per_kb", hue="language", order=tokenizers, hue_order=names,
                palette="colorblind", orient="h", ax=ax, errorbar=None)
    prose = [(k, value) for k, t in enumerate(tokenizers) if (value := prose_tokens_per_kb(results, t)) is not None]
    if prose:
        ax.scatter([value for _, value in prose], [k for k, _ in prose], marker="|", s=260, color="black",
                   linewidths=2, zorder=3, label=f"{language_name(results, results.reference)} prose (FLORES)")
    ax.set_xlabel("Tokens per kilobyte of source (1,000 bytes of UTF-8); lower is cheaper")
    ax.set_ylabel("")
    ax.grid(axis="x", linewidth=0.4, alpha=0.5)
    handles, labels = ax.get_legend_handles_labels()
    ax.get_legend().remove()  # below the axes: inside, it hides the longest bars
    fig.legend(handles, labels, loc="outside lower center", ncol=len(labels), frameon=False, title="text")
    ax.set_title("Source code: tokens per kilobyte, per programming language")
    return fig

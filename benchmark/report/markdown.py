"""reports/README.md: the findings first, then how they were measured, the tables, the plots."""

from __future__ import annotations

from collections.abc import Sequence

from benchmark.report.findings import compute_findings
from benchmark.report.naming import language_label, ordered_languages, reference_language
from benchmark.report.plots import PlotInfo
from benchmark.report.tables import report_tables, to_markdown
from benchmark.results import Results


def run_summary(results: Results) -> str:
    """One line: when, on what, how many sentences."""
    record = results.record
    languages = ", ".join(language_label(results, code) for code in ordered_languages(results))
    n_sentences = max((row.n_sentences for row in results.rows if row.ok), default=0)
    n_tokenizers = len({row.tokenizer for row in results.rows})
    machine = record.machine
    where = ", ".join(str(machine[k]) for k in ("platform", "processor") if machine.get(k))
    cpus = f", {machine['cpu_count']} CPUs" if machine.get("cpu_count") else ""
    quick = " (quick run)" if record.settings.get("quick") else ""
    return (
        f"Run of {record.date}{quick}: {n_tokenizers} tokenizers, {n_sentences:,} sentences per language "
        f"({languages}); machine: {where or 'unknown'}{cpus}."
    )


def methods_paragraph(results: Results) -> str:
    reference = reference_language(results)
    n_sentences = max((row.n_sentences for row in results.rows if row.ok), default=0)
    return (
        f"Every sentence ({n_sentences:,} per language, the devtest split) is encoded on its own as plain text "
        "(no special tokens, no truncation) and the token counts are summed. The premium is a language's token "
        f"count divided by {language_label(results, reference)}'s on the same lines; its 95% interval is a seeded "
        "bootstrap over sentences. Bytes and characters are those of the sentences in UTF-8. Throughput is MB of "
        "UTF-8 text encoded per second on a single thread, the median of repeated timings on devtest text the "
        "tokenizer has not seen (each tokenizer first encodes the dev split, so caches hold no measured text). "
        "Trained tokenizers learn from the dev split of all languages, an equal share each, and no measurement "
        "sees training text. Only the timing columns (train seconds, MB/s, tokens/s) change between runs."
    )


def render_markdown(results: Results, plots: Sequence[PlotInfo]) -> str:
    """The whole README.md. `plots` are the figures written under plots/ (empty: no figures)."""
    parts = ["# Token cost by language: results", "", run_summary(results), "", "## Findings", ""]
    parts += [f"- {sentence}" for sentence in compute_findings(results)]
    parts += ["", "## How the figures were measured", "", methods_paragraph(results), "", "## Tables", ""]
    for table in report_tables(results):
        parts += [to_markdown(table)]
    parts += ["Every row at full precision: [results.csv](results.csv); with the run record: [results.json](results.json).", ""]
    if plots:
        parts += ["## Plots", ""]
        for info in plots:
            parts += [
                f"### {info.title}",
                "",
                f"![{info.title}](plots/{info.name}.png)",
                "",
                f"{info.caption} ([SVG](plots/{info.name}.svg))",
                "",
            ]
    parts += ["## Run record", ""]
    record = results.record
    if record.package_versions:
        versions = ", ".join(f"{k} {v}" for k, v in sorted(record.package_versions.items()))
        parts += [f"- Packages: {versions}"]
    if record.corpus_checksums:
        parts += [f"- Corpus files checked: {len(record.corpus_checksums)} (SHA-256 sums in results.json)"]
    parts += [f"- Date: {record.date}", ""]
    return "\n".join(parts)

"""The tables of the section "By family and by resource tier": one line per language family (or
Joshi et al. class), one column per production tokenizer, each cell the group's premium over the
reference with its 95% paired interval and the Gini within the group (blank for one language)."""

from __future__ import annotations

from benchmark.report.facts.groups import group_table_rows
from benchmark.report.naming import fmt_ratio_interval, language_label
from benchmark.report.tables.table import Table
from benchmark.report.view import ReportView

_TITLES = {"family": "By language family (Glottolog)", "tier": "By resource tier (Joshi et al. 2020 classes)"}


def group_table(results: ReportView, kind: str) -> Table:
    """The `kind` ("family" or "tier") table; no rows when the run has no group summaries."""
    lines = group_table_rows(results, kind)
    tokenizers = [t for t in results.production if any(t in by for _, _, by in lines)]
    rows = []
    for group, languages, by_tokenizer in lines:
        shown = ", ".join(language_label(results, code) for code in languages[:4])
        shown += f" and {len(languages) - 4} more" if len(languages) > 4 else ""
        cells = []
        for tokenizer in tokenizers:
            entry = by_tokenizer.get(tokenizer)
            if entry is None:
                cells.append("")
                continue
            gini = "" if entry.gini is None else f", Gini {entry.gini:.3f}"
            cells.append(fmt_ratio_interval(entry.premium, entry.premium_ci_low, entry.premium_ci_high) + gini)
        rows.append((group, str(len(languages)), shown, *cells))
    note = (f"Each cell: the group's premium over {language_label(results, results.reference)} (the mean of its "
            "languages' tokens for the same sentences over the reference's; 95% paired bootstrap over sentences) "
            "and the Gini of its languages' token counts (none for one language). Families: Glottolog 5.1's "
            "top-level families, an isolate its own; classes: Joshi et al. (2020) via TokCollate; 'not covered': "
            "the sources give none (benchmark/corpora/language_groups/README.md).")
    return Table(f"groups_{kind}", _TITLES[kind], ("group", "languages", "which", *tokenizers), tuple(rows), note,
                 (False, True, False) + (True,) * len(tokenizers))

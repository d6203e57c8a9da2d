"""The tables that compare tokenizers: what each language costs on the production tokenizers, the
models with the fewest and the most tokens per language, the training mixes, the fairness
summary, vocabulary health, and the word and character figures. Built on table.py's grid (`pivot`)
and the figures of facts/compare.py.
"""

from __future__ import annotations

from dataclasses import replace

from benchmark.adapters.families import family_name
from benchmark.pricing.formats import fmt_ci
from benchmark.report.facts.analysis import is_lossy, lossy_lines
from benchmark.report.facts.compare import TokenRange, by_gini, mix_families, mix_rows, mix_size, summaries, token_ranges
from benchmark.report.naming import (
    LOSSY_MARK,
    fmt_int,
    fmt_one_decimal,
    fmt_rate_percent,
    fmt_ratio,
    fmt_ratio_interval,
    language_label,
)
from benchmark.report.tables.table import Table, column_text, languages_down, measured_frame, pivot
from benchmark.report.tables.measurements import premium_table, tokens_per_sentence_table
from benchmark.report.view import ReportView
from benchmark.results.pairwise import ratio_between


def with_models(results: ReportView, tokenizer_id: str) -> str:
    """A production tokenizer named with the models that use it, as the run record has them:
    "tiktoken/o200k_base (GPT-4o, GPT-4.1, GPT-5, o3, gpt-oss ...)"; the id alone for results
    made before models were recorded."""
    from benchmark.adapters.models import tokenizer_label

    entry = results.record.tokenizers.get(tokenizer_id)
    models = getattr(entry, "models", ()) if entry is not None else ()
    return tokenizer_label(tokenizer_id, models, name=tokenizer_id) if models else tokenizer_id


def _named_with_models(results: ReportView, table: Table) -> Table:
    """The grid with each tokenizer's name followed by its models (down, or across with many languages)."""
    if results.many:
        return replace(table, headers=(table.headers[0], *(with_models(results, t) for t in table.headers[1:])))
    return replace(table, rows=tuple((with_models(results, row[0]), *row[1:]) for row in table.rows))


def production_cost_table(results: ReportView) -> Table:
    return _named_with_models(results, tokens_per_sentence_table(
        results, results.production, key="production_cost",
        title="What each language costs on today's models: tokens per sentence"))


def production_premium_table(results: ReportView) -> Table:
    reference = results.reference
    name = results.record.language_names.get(reference, reference)
    return _named_with_models(results, premium_table(results, results.production, key="production_premium",
                                                     title=f"The premium over {name} on today's models (95% CI)"))


def fewest_tokens_table(results: ReportView) -> Table:
    """Per language: the production tokenizer(s) with the fewest tokens, the one with the most,
    and how many times more the most takes; with pairwise intervals (results format 4), whether
    the fewest is really fewer than the next: "tied" when the interval of their ratio holds 1."""
    rows, paired = [], bool(results.pairwise)
    for tokens in token_ranges(results):
        row = (language_label(results, tokens.language), ", ".join(row.tokenizer for row in tokens.fewest),
               fmt_one_decimal(tokens.fewest[0].tokens_per_sentence),
               tokens.most_names, fmt_one_decimal(tokens.most.tokens_per_sentence), f"{tokens.spread:.2f}x")
        rows.append(row + ((_against_next(results, tokens),) if paired else ()))
    return Table("fewest_tokens", "The fewest tokens per language",
                 ("language", "fewest tokens", "tokens / sentence", "most tokens", "tokens / sentence",
                  "most / fewest") + (("fewest / next (95% interval)",) if paired else ()), tuple(rows),
                 note="Among the production tokenizers that give every sentence back (99% or more); models whose "
                 "figures round to the same tenth are named together, in both columns."
                 + (" Fewest / next: the fewest tokens over the next fewest, with its paired bootstrap "
                    "interval; tied when that interval holds 1." if paired else ""),
                 numeric=(False, False, True, False, True, True) + ((False,) if paired else ()))


def _against_next(results: ReportView, tokens: TokenRange) -> str:
    if tokens.runner_up is None:
        return ""
    found = ratio_between(results.pairwise, tokens.language, tokens.fewest[0].tokenizer, tokens.runner_up.tokenizer)
    if found is None:
        return ""
    ratio, low, high = found
    if low <= 1 <= high:
        return f"tied with {tokens.runner_up.tokenizer}"
    return f"{ratio:.3f}x {tokens.runner_up.tokenizer}{fmt_ci(low, high, label='', point_alone=False, digits=3)}"


def fairness_table(results: ReportView) -> Table:
    """The tokenizers ranked by how evenly they charge the languages for the same content."""
    index = {(row.tokenizer, row.language): row for row in results.rows}
    lossy = {tid for (tid, _), row in index.items() if row.ok and is_lossy(row)}
    rows = []
    for s in by_gini(results):
        mark = f" {LOSSY_MARK}" if s.tokenizer in lossy else ""
        worst = (f"{s.worst_to_best:.2f}x ({language_label(results, s.worst_language)} / "
                 f"{language_label(results, s.best_language)})" if s.worst_to_best is not None else "")
        gini = fmt_ratio_interval(s.gini, s.gini_ci_low, s.gini_ci_high, 3)
        rows.append((s.tokenizer, family_name(s.family), gini + mark,
                     worst, fmt_ratio_interval(s.mean_premium, s.mean_premium_ci_low, s.mean_premium_ci_high),
                     fmt_ratio(s.renyi_efficiency)))
    return Table("fairness", "Fairness: how evenly each tokenizer charges the languages for the same content",
                 ("tokenizer", "family", "Gini (95% CI)", "most / fewest tokens", "mean premium (95% CI)",
                  "Rényi efficiency"), tuple(rows),
                 note="Gini of the languages' token counts for the same sentences: 0 when every language costs the "
                 "same, larger the more unequal; most / fewest: the tokens of the language that takes the most over "
                 "the one that takes the fewest; "
                 "mean premium: over the languages other than the reference. Intervals: 95% bootstrap over sentences "
                 "(the premium's resamples). Rényi efficiency: the Rényi entropy (alpha 2.5) of the tokenizer's token "
                 "distribution on all the measured text over log2 of its vocabulary size. Most even first."
                 + (f" {LOSSY_MARK}: the tokenizer changes some text, so its counts are of changed text."
                    if any(LOSSY_MARK in row[2] for row in rows) else ""),
                 numeric=(False, False, True, True, True, True))


def vocabulary_table(results: ReportView) -> Table:
    """Vocabulary health: entries that cannot be text on their own, and entries unreachable."""
    rows = []
    for s in summaries(results):
        if s.n_entries_checked is None and s.n_partial_char_entries is None:
            continue
        rows.append((s.tokenizer, fmt_int(s.vocab_size), fmt_int(s.n_partial_char_entries),
                     fmt_int(s.n_entries_checked), fmt_int(s.n_unreachable),
                     "; ".join(s.unreachable_examples[:3])))
    return Table("vocabulary", "Vocabulary health: partial-character and unreachable entries",
                 ("tokenizer", "vocab size", "partial-character entries", "entries checked", "unreachable",
                  "examples (id, text -> what it encodes to)"), tuple(rows),
                 note="Partial-character entries: tokens whose bytes are not valid UTF-8 on their own (part of a "
                 "character); they only ever occur inside text, which is what people often count as 'unreachable'. "
                 "Unreachable: entries whose own text, encoded, does not give back exactly that token; every entry "
                 "that can stand alone is checked.",
                 numeric=(False, True, True, True, True, False))


def mix_table(results: ReportView) -> Table | None:
    """Each language's premium under each training mix at one size, beside the production ones."""
    size = mix_size(results)
    if size is None or len(mix_families(results)) < 2:
        return None
    by_mix = mix_rows(results, size)
    languages = [code for code in results.languages if code != results.reference]
    rows, lines = [], []  # lines: each row's rows by language, for the cells' tokenizers
    for family in mix_families(results):
        line = by_mix[family]
        rows.append((f"{family_name(family)} ({size:,})",
                     *(fmt_ratio(line[code].premium) if code in line else "" for code in languages),
                     fmt_int(sum(row.n_tokens for row in line.values()))))
        lines.append(line)
    for tid in results.production:
        found = {row.language: row for row in results.rows if row.tokenizer == tid and row.ok}
        if all(code in found for code in languages):
            rows.append((tid, *(fmt_ratio(found[code].premium) for code in languages),
                         fmt_int(sum(row.n_tokens for row in found.values()))))
            lines.append(found)
    premiums = tuple((r, c, line[code].tokenizer, code) for r, line in enumerate(lines)
                     for c, code in enumerate(languages, start=1) if code in line and line[code].premium is not None)
    reference = results.reference
    name = results.record.language_names.get(reference, reference)
    return languages_down(results, Table("mixes", f"Training mixes: the premium over {name} of our BPE trained in each mix",
                 ("tokenizer", *(language_label(results, code) for code in languages), "tokens, all languages"),
                 tuple(rows),
                 note=f"Our BPE at {size:,} tokens, trained on the same dev text in each mix (a weight multiplies a "
                 "language's pre-token counts, the same as repeating its text), then the production tokenizers as "
                 "reference points. 'tokens, all languages' is the price in compression: every language's tokens together.",
                 numeric=(False,) + (True,) * (len(languages) + 1), premium_cells=premiums, premium_style="plain"))


def word_tables(results: ReportView) -> list[Table]:
    """Fertility, continued words and partial-character tokens for the main and production
    tokenizers (every tokenizer is in the table of all measurements)."""
    frame = measured_frame(results)
    shown = list(dict.fromkeys(results.production + results.headline))
    segmenters = results.record.settings.words.segmenters
    blank = [code for code in results.languages
             if code in segmenters and segmenters[code].segmenter == "none"]
    why = ""
    if blank:
        why = (" Blank: no word segmenter for " + ", ".join(language_label(results, c) for c in blank))
        # The run record says why; where it is the missing extra, say the fix here, where the blank is.
        if any("segmenters]" in (segmenters[c].note or "") for c in blank):
            why += (": install the segmenters extra (pip install '.[segmenters]' in a clone of this repository) "
                    "and run again.")
        else:
            why += " (see the run record's settings.words)."
    # The dictionary segmenters this run used, each with its languages (UAX #29 found the others' words).
    dictionaries: dict[str, list[str]] = {}
    for code in results.languages:
        entry = segmenters.get(code)
        if entry is not None and entry.segmenter != "none" and not entry.segmenter.startswith("UAX #29"):
            dictionaries.setdefault(entry.segmenter, []).append(results.record.language_names.get(code, code))
    used = "; ".join(f"{', '.join(names)}: {name}" for name, names in dictionaries.items())
    how = (f", or a dictionary segmenter where a language is written without spaces ({used})" if used else
           "" if segmenters else ", or a dictionary segmenter where a language is written without spaces")
    if frame["fertility"].isna().all():
        return []
    return [
        pivot(results, frame, "fertility", "Fertility: tokens per word", column_text(frame, fmt_ratio, "fertility"),
              note="Tokens per word of the measured text; words come from Unicode word boundaries (UAX #29)"
              + how + "." + why, lossy=lossy_lines(frame), tokenizers=shown),
        pivot(results, frame, "continued_words", "Continued words: share of words split into two or more tokens",
              column_text(frame, fmt_rate_percent, "continued_word_rate"),
              note="The rest are kept whole (one token, which may carry a leading space)." + why,
              lossy=lossy_lines(frame), tokenizers=shown),
        pivot(results, frame, "partial_chars", "Partial-character tokens: share of tokens that are part of a character",
              column_text(frame, fmt_rate_percent, "partial_char_rate"),
              note="Tokens whose bytes are not valid UTF-8 on their own: the byte-level twin of the unknown-token "
              "rate. Blank: the tokenizer cannot split a character.", lossy=lossy_lines(frame), tokenizers=shown),
    ]

"""The report's sections, in reading order: each a title, a sentence on what it answers, its plots
(the catalogue's specs that name the section) and its tables. README.md and index.html lay out the same sections, plots
first (people read the plots before the tables).
"""

from __future__ import annotations

from dataclasses import dataclass

from benchmark.report.plots.catalogue import SECTION_KEYS, plots_in
from benchmark.report.facts.compare import by_gini, mix_families
from benchmark.adapters.families import is_production
from benchmark.report.tables.compare import (
    fewest_tokens_table,
    fairness_table,
    mix_table,
    production_cost_table,
    production_premium_table,
    vocabulary_table,
    word_tables,
)
from benchmark.report.tables.groups import group_table
from benchmark.report.tables.scripts import script_decomposition_table
from benchmark.report.tables.scripts import script_of_language, script_premium_table
from benchmark.report.tables.table import Table
from benchmark.report.tables.measurements import (
    bytes_per_token_table,
    premium_table,
    roundtrip_table,
    throughput_table,
    tokenizer_table,
    tokens_per_sentence_table,
)
from benchmark.report.tables.calibration import calibration_tables
from benchmark.report.tables.calibration_domains import domain_tables
from benchmark.report.facts.domains import domain_names, largest_moves
from benchmark.report.tables.domains import domain_premium_table
from benchmark.report.tables.code import code_table
from benchmark.report.facts.code import code_intro
from benchmark.report.tables.hangul_first import korean_table
from benchmark.report.naming import language_label
from benchmark.report.view import ReportView


@dataclass(frozen=True)
class Section:
    key: str  # the HTML id
    title: str
    intro: str
    plots: tuple[str, ...]  # catalogue names (catalogue.plots_in), drawn where the run has data for them
    tables: tuple[Table, ...]


def trained_tokenizers(results: ReportView) -> list[str]:
    """The tokenizers that are not a vendor's fixed vocabulary (trained here, or a user's file),
    after OpenAI's two as the reference everyone knows."""
    families = {row.tokenizer: row.family for row in results.rows}
    others = [tid for tid in results.tokenizers if not is_production(families[tid])]
    return list(results.openai_pair or ()) + others if others else []


def _by_script(results: ReportView) -> Table:
    """The median premium per script, once some script has several languages (else it would repeat
    the premium table)."""
    scripts = [script_of_language(results, code) for code in {row.language for row in results.rows}]
    if len(scripts) == len(set(scripts)):
        return Table("script_premium", "", ("script",), ())
    return script_premium_table(results, results.production)


def domains_intro(results: ReportView) -> str:
    """What the domain section answers, and where the kind of text moves the premium most."""
    moves = largest_moves(results)
    said = ("The corpus labels each line with its kind of text, so the premium is also measured on the lines of "
            "each kind alone, with its interval.")
    if moves:
        code, tokenizer, ratio, high, low = moves[0]
        said += (f" It moves most for {language_label(results, code)} on {tokenizer}: {ratio:.2f}x as high on "
                 f"{high} as on {low}.")
    return said


def report_sections(results: ReportView) -> list[Section]:
    """The sections that have something to show, in reading order."""
    trained = trained_tokenizers(results)
    sections = []
    if results.production:
        sections.append(Section(
            "cost", "What each language costs on today's models",
            "Tokens per sentence and the premium over the reference language on every production tokenizer the run "
            "measured, and the model with the fewest tokens for each language.", plots_in("cost"),
            tuple(t for t in (production_cost_table(results), production_premium_table(results),
                              fewest_tokens_table(results), _by_script(results),
                              script_decomposition_table(results)) if t.rows)))
    if len(by_gini(results)) >= 2:
        sections.append(Section(
            "fairness", "How evenly each tokenizer charges the languages",
            "One figure per tokenizer over all the languages measured: how unequal their costs are for the same "
            "content.", plots_in("fairness"), (fairness_table(results),)))
    if len(domain_names(results)) >= 2:  # one kind of text alone (UI strings) is the premium table again
        sections.append(Section(
            "domains", "The same language, different kinds of text",
            domains_intro(results), plots_in("domains"), (domain_premium_table(results),)))
    groups = [t for t in (group_table(results, "family"), group_table(results, "tier")) if t.rows]
    if groups:
        sections.append(Section(
            "groups", "By family and by resource tier",
            "The premium over the reference and the Gini within each language family (Glottolog) and each "
            "resource class (Joshi et al. 2020: 0, left behind, to 5, winners) of the run's languages.",
            plots_in("groups"), tuple(groups)))
    if results.code:
        sections.append(Section("code", "Source code: tokens per kilobyte", code_intro(results), plots_in("code"),
                                (code_table(results),)))
    mixes = mix_table(results)
    korean = korean_table(results)
    if mix_families(results):
        sections.append(Section(
            "mixes", "What drives the premium, and what closes it: training mixes",
            "Our BPE trained on the same text with English weighted more or less, and with parity-aware merges: "
            "the premium follows the training data.", plots_in("mixes"),
            tuple(t for t in (mixes, korean if korean.rows else None) if t)))
    if trained:
        sections.append(Section(
            "trained", "Tokenizers trained here",
            "Our byte-level BPE, SentencePiece Unigram, HuggingFace WordPiece and byte-level BPE, trained on the "
            "same text at each size (OpenAI's two vocabularies first, for reference).",
            plots_in("trained"),
            (tokens_per_sentence_table(results, trained), premium_table(results, trained),
             bytes_per_token_table(results, trained))))
    words = word_tables(results)
    if words:
        sections.append(Section("words", "Words and characters",
                                "Tokens per word, words split into several tokens, and tokens that are part of a "
                                "character, for the production and main tokenizers.", plots_in("words"), tuple(words)))
    calibration = calibration_tables(results) + domain_tables(results)  # the domain level after the whole corpus
    if calibration:
        sections.append(Section(
            "calibration", "Estimating tokens without a tokenizer",
            "What to use in place of characters / 4: each production tokenizer's tokens per character, fitted on "
            "the dev sentences, and how far that estimate and characters / 4 miss on the devtest sentences.",
            plots_in("calibration"), calibration))
    sections += [
        Section("speed", "Encoder speed", "Throughput on one thread, timed in turns with tiktoken's cl100k_base.",
                plots_in("speed"), (throughput_table(results),)),
        Section("fidelity", "Round trips", "Which tokenizers give the text back exactly.", plots_in("fidelity"),
                (roundtrip_table(results),)),
        Section("vocabulary", "Vocabulary health", "What a vocabulary holds that text can never produce on its own.",
                plots_in("vocabulary"), tuple(t for t in (vocabulary_table(results),) if t.rows)),
        Section("examples", "One sentence, token by token", "Where each main tokenizer cuts the example sentence.",
                plots_in("examples"), ()),
        Section("tokenizers", "Every tokenizer", "What each is, its size and training time, and why a size was "
                "skipped.", plots_in("tokenizers"), (tokenizer_table(results),)),
    ]
    # subtle: a plot's spec names its section by key: a key here that the catalogue does not list
    # would leave its plots drawn and shown nowhere.
    assert {section.key for section in sections} <= set(SECTION_KEYS), [s.key for s in sections]
    return [section for section in sections if section.tables or section.plots]

"""The report's one view of a run: the results plus the facts every renderer orders, labels and
chooses by (language order, the reference language, the main and the production tokenizers, each
tokenizer's family), each computed once, on first use, for the whole report.

    view = ReportView.of(load_results("reports/results.json"))
    view.languages[:2], view.reference, view.headline

A `ReportView` is a `Results` (same rows, record and summaries), so every renderer that reads rows
reads them from it as before; `write_reports` builds one and passes it to every renderer. Plain
Python (no pandas until `to_frame` is called): the words of a report import this module.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

from benchmark.adapters.families import families_of_kind, is_trained, production_tokenizers, tokenizer_sort_key
from benchmark.results.rows import ResultRow, Results

# The OpenAI vocabularies (cl100k_base, o200k_base), whichever encoder ran them.
OPENAI_FAMILIES = ("tiktoken", "bpe_openai")
# Families whose vocabulary is trained here at each size of the sweep.
TRAINED_FAMILIES = families_of_kind("trained")
# Past this many languages, what groups or colours by language changes layout (the language palette
# has ten colours, and eleven groups of bars no longer fit a page's width): the plots switch to
# heatmaps and bands (plots/many_languages.py), the tables put languages down instead of across.
MANY_LANGUAGES = 10


@dataclass(frozen=True)
class ReportView(Results):
    """The results and what the report derives from them once (cached on the instance: a frozen
    dataclass's fields never change, so neither do these)."""

    @classmethod
    def of(cls, results: Results) -> ReportView:
        if isinstance(results, cls):
            return results
        return cls(results.rows, results.record, results.summaries, results.pairwise, results.calibration,
                   results.bases, results.domain_premiums, results.groups, results.code, results.calibration_domains)

    def to_frame(self):  # -> pandas.DataFrame, a copy a caller may change
        return self._frame.copy()

    @cached_property
    def _frame(self):
        return Results.to_frame(self)

    @cached_property
    def reference(self) -> str:
        """The language premiums are relative to: the run's, else English, else the first code."""
        reference = self.record.settings.reference
        if reference:
            return str(reference)
        codes = {row.language for row in self.rows}
        for guess in ("eng_Latn", "eng"):
            if guess in codes:
                return guess
        return sorted(codes)[0] if codes else ""

    @cached_property
    def languages(self) -> list[str]:
        """The reference first, then the run's language order (or code order for unknown ones)."""
        present = {row.language for row in self.rows}
        wanted = [code for code in self.record.settings.languages if code in present]
        wanted += sorted(present - set(wanted))
        if self.reference in wanted:
            wanted.remove(self.reference)
            wanted.insert(0, self.reference)
        return wanted

    @cached_property
    def many(self) -> bool:
        """More languages than bars grouped by language can show (MANY_LANGUAGES)."""
        return len(self.languages) > MANY_LANGUAGES

    @cached_property
    def family(self) -> dict[str, str]:
        """tokenizer id -> its family."""
        return {row.tokenizer: row.family for row in self.rows}

    @cached_property
    def tokenizers(self) -> list[str]:
        """Tokenizer ids: OpenAI vocabularies first, then each family by vocabulary size."""
        meta = {row.tokenizer: (row.tokenizer, row.family, row.vocab_size) for row in self.rows}
        return [m[0] for m in sorted(meta.values(), key=tokenizer_sort_key)]

    @cached_property
    def index(self) -> dict[tuple[str, str], ResultRow]:
        """(tokenizer, language) -> row."""
        return {(row.tokenizer, row.language): row for row in self.rows}

    @cached_property
    def headline(self) -> list[str]:
        """The few tokenizers a reader compares at a glance: the tiktoken vocabularies (or the
        bpe-openai ones when tiktoken was not run) and each trained family at its largest size that
        measured every language. Other tokenizers of a family only add lines that say the same thing.
        """
        rows = self.rows
        # A language that every tokenizer skipped does not rule every tokenizer out.
        languages = {row.language for row in rows if row.ok}
        ok_by_tokenizer: dict[str, set[str]] = {}
        meta: dict[str, ResultRow] = {}
        for row in rows:
            meta.setdefault(row.tokenizer, row)
            if row.ok:
                ok_by_tokenizer.setdefault(row.tokenizer, set()).add(row.language)
        complete = [tid for tid, langs in ok_by_tokenizer.items() if langs == languages]
        chosen: list[str] = [tid for tid in complete if meta[tid].family == "tiktoken"]
        if not chosen:  # tiktoken not run: its twin encoder gives the same counts
            chosen = [tid for tid in complete if meta[tid].family in OPENAI_FAMILIES]
        largest: dict[str, str] = {}
        for tid in complete:
            family = meta[tid].family
            if family in OPENAI_FAMILIES:
                continue
            if is_trained(family):
                best = largest.get(family)
                if best is None or (meta[tid].vocab_size, tid) > (meta[best].vocab_size, best):
                    largest[family] = tid
            else:
                chosen.append(tid)  # a tokenizer the user added from a file: always worth showing
        chosen += largest.values()
        return sorted(chosen, key=lambda tid: tokenizer_sort_key(meta[tid]))

    @cached_property
    def production(self) -> list[str]:
        """The vendors' vocabularies the run measured, in report order (families.production_tokenizers)."""
        return production_tokenizers(self.rows)

    @cached_property
    def openai_pair(self) -> tuple[str, str] | None:
        """The (cl100k, o200k) ids to compare, preferring tiktoken's; None if either is missing."""
        ids = {row.tokenizer for row in self.rows if row.ok}
        for prefix in OPENAI_FAMILIES:
            pair = (f"{prefix}/cl100k_base", f"{prefix}/o200k_base")
            if all(tid in ids for tid in pair):
                return pair
        return None

    @cached_property
    def trained_families(self) -> list[str]:
        """Families trained here (known by name, or any family with a training time), in report order."""
        present = {row.family for row in self.rows}
        timed = {row.family for row in self.rows if row.train_seconds is not None}
        ordered = [family for family in TRAINED_FAMILIES if family in present]
        ordered += sorted(timed - set(ordered) - set(OPENAI_FAMILIES))
        return ordered

    @cached_property
    def by_base(self) -> dict[str, dict[str, dict[str, list[float]]]]:
        """`premiums_by_base` of these results, once."""
        return premiums_by_base(self)


def premiums_by_base(results: Results) -> dict[str, dict[str, dict[str, list[float]]]]:
    """{base code: {tokenizer id: {language code: [premium, ci_low, ci_high]}}} over every base the
    run computed (`run --bases`; the reference first, then the run's order), for the page's base
    switch: the rows' premium and interval over the reference, the run's own over each further base
    (results/bases.py). A language without an interval is left out, so every list holds 3 floats.

        premiums_by_base(results)["hin_Deva"]["tiktoken/o200k_base"]["eng_Latn"]   # [0.58, 0.57, 0.59]
    """
    from benchmark.results.bases import carried_bases, premiums_over

    return {base: {tokenizer: {language: [float(value) for value in figures] for language, figures in languages.items()}
                   for tokenizer, languages in premiums_over(results, base).items()}
            for base in carried_bases(results)}

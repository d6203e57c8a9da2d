"""The `cost` verb's answer as data, for one language or several: every production tokenizer (or
those of a shortlist, `--models`) with its models, tokens per sentence and premium, the cheapest
priced model and the roomiest window on it; then the cheapest and the roomiest model overall, or
the models the sample cannot tell apart. text.py prints it (`answer_for`), as_json.py writes it as
JSON, both from the same figures.

Reads saved results only (no tokenizer is built), so it answers in well under two seconds.
"""

from __future__ import annotations

import gc
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from benchmark.adapters.families import PRODUCTION_SELECTOR
from benchmark.plumbing.errors import BenchmarkError

from benchmark.pricing.prices.book import PriceBook
from benchmark.pricing.language.decision import Leader, cheapest, roomiest, tie_rule
from benchmark.pricing.money import ModelFigures, model_figures, reference_words, unpriced
from benchmark.pricing.prices.user_prices import USER_PRICES
from benchmark.pricing.language.shortlist import Shortlist
from benchmark.results.rows import Results, ResultRow

# The one command that makes the committed results `cost` reads (docs/usage.md, "Every FLORES-200 language").
ALL_LANGUAGES_COMMAND = (f"python -m benchmark run --languages all --tokenizers {PRODUCTION_SELECTOR} "
                         "--output reports/all-languages")


@dataclass(frozen=True)
class TokenizerAnswer:
    """One tokenizer on one language: its row (None: not measured), its models and their figures."""

    tokenizer: str
    row: ResultRow | None
    models: tuple[str, ...]
    notes: tuple[str, ...]  # the models' caveats (Claude legacy: older models only)
    figures: tuple[ModelFigures, ...]
    cheapest: Leader | None
    roomiest: Leader | None

    @property
    def ok(self) -> bool:
        return self.row is not None and self.row.ok

    @property
    def status(self) -> str:
        return self.row.status if self.row is not None else "not measured"


@dataclass(frozen=True)
class LanguageAnswer:
    language: str
    tokenizers: tuple[TokenizerAnswer, ...]
    cheapest: Leader | None
    roomiest: Leader | None

    @property
    def figures(self) -> list[ModelFigures]:
        return [f for part in self.tokenizers for f in part.figures]


@dataclass(frozen=True)
class Answer:
    """The whole answer: where it comes from, each language's part, and the models without a figure."""

    results: Results
    results_name: str
    book: PriceBook
    languages: tuple[LanguageAnswer, ...]
    unpriced: dict[str, str]  # model -> why it carries no money figure
    shortlist: Shortlist | None = None
    tokenizers: tuple[str, ...] = ()
    sources: tuple[str, ...] = field(default=())

    @property
    def reference(self) -> str:
        return self.results.record.settings.reference or "eng_Latn"

    @property
    def tie_rule(self) -> str:
        return tie_rule(self.results.pairwise)

    @property
    def has_reference_words(self) -> bool:
        return reference_words(self.results) is not None

    def label(self, code: str) -> str:
        name = self.results.record.language_names.get(code)
        return f"{name} ({code})" if name and name != code else code

    def name(self, code: str) -> str:
        return self.results.record.language_names.get(code, code)


@dataclass(frozen=True)
class Comparison:
    """One model (or, without a shortlist, one tokenizer and all its models) across the languages:
    its cost for each relative to its cost for the reference on the same lines, which is its
    tokenizer's premium (the price is the same in every language), with the premium's interval."""

    tokenizer: str
    model: str | None  # None: the tokenizer's row, standing for its `n_models` models
    n_models: int
    premiums: tuple[tuple[str, ResultRow | None], ...]  # (language, its row or None) in the answer's order


def comparison(answer: Answer) -> list[Comparison]:
    """The answer's comparison across its languages, one entry per shortlisted model (or tokenizer)."""
    found = []
    for tokenizer in answer.tokenizers:
        rows = tuple((part.language, next((t.row for t in part.tokenizers if t.tokenizer == tokenizer and t.ok), None))
                     for part in answer.languages)
        models = next((t.models for t in answer.languages[0].tokenizers if t.tokenizer == tokenizer), ())
        if answer.shortlist is None:
            found.append(Comparison(tokenizer, None, len(models), rows))
        else:
            found += [Comparison(tokenizer, model, 1, rows) for model in models]
    return found


def language_answer(results: Results, language: str, models: Mapping[str, Sequence[str]], listings,
                    tokenizers: Sequence[str], notes: Mapping[str, str]) -> LanguageAnswer:
    figures = model_figures(results, {t: models.get(t, ()) for t in tokenizers}, listings, languages=[language])
    rows = {row.tokenizer: row for row in results.rows if row.language == language}
    parts, of_tokenizer = [], {}
    for item in figures:
        of_tokenizer.setdefault(item.tokenizer, []).append(item)
    for tokenizer in tokenizers:
        names = tuple(models.get(tokenizer, ()))
        mine = of_tokenizer.get(tokenizer, [])
        parts.append(TokenizerAnswer(tokenizer, rows.get(tokenizer), names,
                                     tuple(dict.fromkeys(notes[m] for m in names if notes.get(m))), tuple(mine),
                                     cheapest(mine), roomiest(mine)))
    pairwise = results.pairwise
    return LanguageAnswer(language, tuple(parts), cheapest(figures, pairwise), roomiest(figures, pairwise))


def build_answer(results: Results, languages: Sequence[str], book: PriceBook, *, tokenizers: Sequence[str],
                 results_name: str, shortlist: Shortlist | None = None) -> Answer:
    """The answer for `languages` (codes the results hold) on `tokenizers` (in order), or, with a
    shortlist, on the tokenizers of its models only."""
    if shortlist is not None:
        models: Mapping[str, Sequence[str]] = shortlist.models
        shown = [t for t in tokenizers if t in models] + [t for t in models if t not in tokenizers]
        notes = shortlist.notes
    else:
        models, shown, notes = book.models, list(tokenizers), book.notes
    parts = tuple(language_answer(results, code, models, book.listings, shown, notes) for code in languages)
    sources = sorted({f.listing.source for part in parts for f in part.figures})
    if book.user_file is not None:  # named even where none of its rows gives a figure
        mine = next((listing.source for listing in book.listings.values()
                     if listing.source.startswith(f"{USER_PRICES} (")), None)
        if mine is not None and mine not in sources:
            sources.append(mine)
    missing = unpriced({t: models.get(t, ()) for t in shown}, book.listings, book.reasons)
    return Answer(results, results_name, book, parts, missing, shortlist, tuple(shown), tuple(sources))


def split_languages(text: str) -> list[str]:
    """'hin,ben,eng' -> ['hin', 'ben', 'eng'] (no language name holds a comma)."""
    items = [item.strip() for item in text.split(",")]
    if not all(items):
        raise BenchmarkError(f"languages {text!r}: an empty name between commas; give codes or names like hin,ben,eng")
    return items


def answer_data(text: str, results_path: Path, *, prices: Path | None = None,
                models: Sequence[str] | None = None, base: str | None = None) -> Answer:
    """The answer for the languages a user typed (codes or names, comma-separated), from a saved
    results file; `models`: a shortlist of model names; `base`: premiums over it (results/rebase.py).

    The cyclic garbage collector is paused meanwhile: the answer's objects hold no cycles, and its
    passes over them were a third of the time for a prices file of 222,000 models (8 MB)."""
    collecting = gc.isenabled()
    gc.disable()
    try:
        return _answer_data(text, results_path, prices=prices, models=models, base=base)
    finally:
        if collecting:
            gc.enable()


def _answer_data(text: str, results_path: Path, *, prices: Path | None, models: Sequence[str] | None,
                 base: str | None = None) -> Answer:
    from benchmark.adapters.families import production_tokenizers
    from benchmark.corpora import bundled_languages, bundled_names
    from benchmark.corpora.languages import resolve_code_or_name
    from benchmark.pricing.prices.book import price_book
    from benchmark.pricing.language.shortlist import resolve_shortlist
    from benchmark.results.rows import load_results

    if not results_path.exists():
        raise BenchmarkError(f"{results_path}: no such results file; make the 204-language results with "
                             f"`{ALL_LANGUAGES_COMMAND}`, or give --results PATH")
    results = load_results(results_path)
    if base is not None:
        from benchmark.results.rebase import rebased

        results = rebased(results, base, where=str(results_path))
    present = sorted({row.language for row in results.rows})
    codes = []
    for typed in split_languages(text):
        try:
            code = resolve_code_or_name(typed, present, results.record.language_names, where=str(results_path))
        except BenchmarkError:
            bundled = resolve_code_or_name(typed, bundled_languages(), bundled_names(), where="FLORES-200")
            raise BenchmarkError(f"{results_path}: has no {bundled_names().get(bundled, bundled)} ({bundled}) "
                                 f"({len(present)} languages); measure it with `python -m benchmark run --languages "
                                 f"{bundled}`, then `cost {bundled} --results <its folder>/results.json`") from None
        if code not in codes:
            codes.append(code)
    book = price_book(results, prices=prices)
    tokenizers = production_tokenizers(results.rows)
    # A tokenizer the user's prices file gives a model (their own, `file/tok.json`) is answered beside the vendors'.
    tokenizers += [t for t in book.models if t not in tokenizers and book.models[t]
                   and any(book.pairings.get(m, "").startswith(USER_PRICES) for m in book.models[t])]
    shortlist = None
    if models is not None:
        shortlist = resolve_shortlist(models, book, {row.tokenizer for row in results.rows},
                                      run_date=results.record.date[:10])
    return build_answer(results, codes, book, tokenizers=tokenizers, results_name=str(results_path),
                        shortlist=shortlist)

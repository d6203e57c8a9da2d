"""The `cost` verb's answer for one language, as plain text: every production tokenizer with its
models, tokens per sentence and premium, the cheapest priced model and the roomiest window on it;
then the cheapest and the roomiest model overall, or the models the sample cannot tell apart.

Reads saved results only (no tokenizer is built), so it answers in well under two seconds.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path

from benchmark.adapters.families import PRODUCTION_SELECTOR
from benchmark.plumbing.errors import BenchmarkError

from benchmark.pricing.database import Listing
from benchmark.pricing.decision import Leader, cheapest, roomiest, tie_rule
from benchmark.pricing.figures import ModelFigures, lossy, model_figures, reference_words, unpriced
from benchmark.pricing.formats import fmt_count, fmt_interval, fmt_price, fmt_usd, fmt_window
from benchmark.results.rows import Results

MAX_MODELS_NAMED = 8  # per tokenizer line; the rest are counted
# The one command that makes the committed results `cost` reads (docs/usage.md, "Every FLORES-200 language").
ALL_LANGUAGES_COMMAND = (f"python -m benchmark run --languages all --tokenizers {PRODUCTION_SELECTOR} "
                         "--output reports/all-languages")


def _label(results: Results, code: str) -> str:
    name = results.record.language_names.get(code)
    return f"{name} ({code})" if name and name != code else code


def _plain(text: str) -> str:
    """Text from files (model and language names) with control characters shown, not obeyed."""
    from benchmark.plumbing.escaping import terminal_text

    return terminal_text(text)


def _models_line(names: Sequence[str]) -> str:
    shown = ", ".join(names[:MAX_MODELS_NAMED])
    more = len(names) - MAX_MODELS_NAMED
    return shown + (f" and {more} more" if more > 0 else "")


def _cost_phrase(figures: ModelFigures, reference: str) -> str:
    listing = figures.listing
    words = (f", {fmt_usd(figures.usd_per_million_reference_words)} per million {reference}-equivalent words"
             if figures.usd_per_million_reference_words is not None else "")
    return (f"{figures.model} ({listing.seller}, {fmt_price(listing)}): {fmt_usd(figures.devtest_usd)} for the "
            f"{figures.n_sentences:,} sentences{words}")


def _room_phrase(figures: ModelFigures, reference: str) -> str:
    words = (f", {fmt_count(figures.context_reference_words)} {reference}-equivalent words"
             if figures.context_reference_words is not None else "")
    return (f"{figures.model} ({figures.listing.seller}, {fmt_window(figures.listing.context_window)}): "
            f"{fmt_count(figures.context_sentences)} sentences{words}")


def _leader_line(title: str, leader: Leader | None, phrase, *, dearer: bool) -> str:
    """'Cheapest overall: ...', then the models tied with it, or the next one and by how much."""
    if leader is None:
        return f"{title}: no model with a {'price' if dearer else 'window'} for this language"
    line = f"{title}: {_plain(phrase(leader.best))} [{leader.best.tokenizer}]"
    if leader.tied:
        names = _plain(", ".join(f"{t.model} [{t.tokenizer}]" for t in leader.tied[:6]))
        more = f" and {len(leader.tied) - 6} more" if len(leader.tied) > 6 else ""
        line += f"\n  tied with {names}{more}"
    if leader.next_best is not None and leader.lead is None:
        line += f"\n  next: {_plain(leader.next_best.model)} [{leader.next_best.tokenizer}]"
    elif leader.next_best is not None:
        value, low, high = leader.lead
        interval = "" if low == high else f" (95% CI {low:.2f}-{high:.2f})"
        how = f"{value:.2f}x the leader's cost" if dearer else f"the leader holds {value:.2f}x as much"
        line += f"\n  next: {_plain(leader.next_best.model)} [{leader.next_best.tokenizer}], {how}{interval}"
    return line


def render_answer(results: Results, language: str, models: Mapping[str, Sequence[str]],
                  listings: Mapping[str, Listing], *, tokenizers: Sequence[str], results_name: str,
                  reasons: Mapping[str, str] | None = None) -> str:
    """The whole answer for `language` (a code the results hold). `models`: tokenizer -> model names,
    `listings`: model -> its price and window, `tokenizers`: the production tokenizers in order."""
    record = results.record
    reference = record.settings.reference or "eng_Latn"
    reference_name = record.language_names.get(reference, reference)
    figures = model_figures(results, {t: models.get(t, ()) for t in tokenizers}, listings, languages=[language])
    rows = {row.tokenizer: row for row in results.rows if row.language == language}
    sources = sorted({f.listing.source for f in figures})
    lines = [f"{_plain(_label(results, language))}: tokens of {record.settings.corpus or 'the corpus'} "
             f"{record.settings.measure_split or ''} text against {_plain(_label(results, reference))} on the same "
             f"lines, from {results_name} (run of {record.date[:10]})".replace("  ", " "),
             "Prices and windows: " + ("; ".join(sources) if sources else "none (no model of these tokenizers is "
                                       "priced)"),
             ""]
    for tokenizer in tokenizers:
        row = rows.get(tokenizer)
        if row is None or not row.ok:
            lines += [f"{tokenizer}: {row.status if row is not None else 'not measured'}", ""]
            continue
        premium = fmt_interval(row.premium, row.premium_ci_low, row.premium_ci_high)
        lines.append(f"{tokenizer}: {row.tokens_per_sentence:.1f} tokens per sentence, {premium} {reference_name}")
        if lossy(row):
            lines.append(f"  gives back {row.roundtrip_rate:.0%} of the sentences exactly (its normaliser changes "
                         "text): the count is of the text as it changed it, as the vendor's own counter counts")
        names = list(models.get(tokenizer, ()))
        lines.append(f"  models: {_plain(_models_line(names))}" if names else "  models: none listed")
        entry = results.record.tokenizers.get(tokenizer)
        notes = dict.fromkeys(model.note for model in getattr(entry, "models", ()) if getattr(model, "note", ""))
        lines += [f"  note: {_plain(note)}" for note in notes]  # e.g. Claude legacy: older models only
        mine = [f for f in figures if f.tokenizer == tokenizer]
        best = cheapest(mine)
        lines.append(f"  cheapest: {_plain(_cost_phrase(best.best, reference_name))}" if best else
                     "  cheapest: no priced model")
        room = roomiest(mine)
        lines.append(f"  roomiest: {_plain(_room_phrase(room.best, reference_name))}" if room else
                     "  roomiest: no window for these models in the price source" if mine else
                     "  roomiest: no model with a window")
        lines.append("")
    pairwise = results.pairwise
    lines.append(_leader_line("Cheapest overall", cheapest(figures, pairwise), lambda f: _cost_phrase(f, reference_name),
                              dearer=True))
    lines.append(_leader_line("Roomiest overall", roomiest(figures, pairwise), lambda f: _room_phrase(f, reference_name),
                              dearer=False))
    missing = unpriced({t: models.get(t, ()) for t in tokenizers}, listings, reasons)
    if missing:
        lines.append("Not priced:")
        grouped: dict[str, list[str]] = {}
        for model, why in missing.items():
            grouped.setdefault(why, []).append(model)
        for why, names in grouped.items():
            lines.append(f"  {_plain(why)}: {_plain(_models_line(names))}")
    if reference_words(results) is None:
        lines.append(f"({reference_name}-equivalent words need the reference's word counts, which these results lack)")
    rule = tie_rule(pairwise)
    lines.append(f"{rule[0].upper()}{rule[1:]}.")
    return "\n".join(lines) + "\n"


def answer_for(text: str, results_path: Path, *, prices: Path | None = None) -> str:
    """`render_answer` for a language typed by a user (code or name), from a saved results file."""
    from benchmark.adapters.families import production_tokenizers
    from benchmark.corpora import bundled_languages, bundled_names
    from benchmark.corpora.languages import resolve_code_or_name
    from benchmark.pricing.book import price_book
    from benchmark.results.rows import load_results

    if not results_path.exists():
        raise BenchmarkError(f"{results_path}: no such results file; make the 204-language results with "
                             f"`{ALL_LANGUAGES_COMMAND}`, or give --results PATH")
    results = load_results(results_path)
    present = sorted({row.language for row in results.rows})
    try:
        language = resolve_code_or_name(text, present, results.record.language_names, where=str(results_path))
    except BenchmarkError:
        bundled = resolve_code_or_name(text, bundled_languages(), bundled_names(), where="FLORES-200")
        raise BenchmarkError(f"{results_path}: has no {bundled_names().get(bundled, bundled)} ({bundled}) "
                             f"({len(present)} languages); measure it with `python -m benchmark run --languages "
                             f"{bundled}`, then `cost {bundled} --results <its folder>/results.json`") from None
    book = price_book(results, prices=prices)
    return render_answer(results, language, book.models, book.listings, tokenizers=production_tokenizers(results.rows),
                         results_name=str(results_path), reasons=book.reasons)

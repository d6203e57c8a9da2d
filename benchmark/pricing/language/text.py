"""The `cost` verb's answer (answer.py) as plain text: per language, every tokenizer with its
models, tokens per sentence and premium, its cheapest and roomiest model, then the cheapest and
the roomiest overall with the models tied; with several languages, a comparison of what each model
costs per language relative to the reference. Every line is escaped for the terminal at the end,
so no name from a file (model, language, corpus, a row's status) is obeyed by it.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from benchmark.pricing.language.answer import Answer, LanguageAnswer, answer_data, comparison
from benchmark.pricing.language.decision import Leader
from benchmark.pricing.money import ModelFigures, lossy
from benchmark.pricing.formats import fmt_ci, fmt_count, fmt_interval, fmt_price, fmt_usd, fmt_window
from benchmark.pricing.prices.user_prices import USER_PRICES

MAX_MODELS_NAMED = 8  # per tokenizer line; the rest are counted


def _models_line(names: Sequence[str]) -> str:
    shown = ", ".join(names[:MAX_MODELS_NAMED])
    more = len(names) - MAX_MODELS_NAMED
    return shown + (f" and {more} more" if more > 0 else "")


def cost_phrase(figures: ModelFigures, reference: str) -> str:
    listing = figures.listing
    words = (f", {fmt_usd(figures.usd_per_million_reference_words)} per million {reference}-equivalent words"
             if figures.usd_per_million_reference_words is not None else "")
    return (f"{figures.model} ({listing.seller}, {fmt_price(listing)}): {fmt_usd(figures.devtest_usd)} for the "
            f"{figures.n_sentences:,} sentences{words}")


def room_phrase(figures: ModelFigures, reference: str) -> str:
    words = (f", {fmt_count(figures.context_reference_words)} {reference}-equivalent words"
             if figures.context_reference_words is not None else "")
    return (f"{figures.model} ({figures.listing.seller}, {fmt_window(figures.listing.context_window)}): "
            f"{fmt_count(figures.context_sentences)} sentences{words}")


def _leader_lines(title: str, leader: Leader | None, phrase, *, dearer: bool) -> list[str]:
    """'Cheapest overall: ...', then the models tied with it, or the next one and by how much."""
    if leader is None:
        return [f"{title}: no model with a {'price' if dearer else 'window'} for this language"]
    lines = [f"{title}: {phrase(leader.best)} [{leader.best.tokenizer}]"]
    if leader.tied:
        names = ", ".join(f"{t.model} [{t.tokenizer}]" for t in leader.tied[:6])
        more = f" and {len(leader.tied) - 6} more" if len(leader.tied) > 6 else ""
        lines.append(f"  tied with {names}{more}")
    if leader.next_best is not None and leader.lead is None:
        lines.append(f"  next: {leader.next_best.model} [{leader.next_best.tokenizer}]")
    elif leader.next_best is not None:
        value, low, high = leader.lead
        interval = fmt_ci(low, high)
        how = f"{value:.2f}x the leader's cost" if dearer else f"the leader holds {value:.2f}x as much"
        lines.append(f"  next: {leader.next_best.model} [{leader.next_best.tokenizer}], {how}{interval}")
    return lines


def _language_lines(answer: Answer, part: LanguageAnswer) -> list[str]:
    record = answer.results.record
    reference_name = answer.name(answer.reference)
    sources = sorted({f.listing.source for f in part.figures})
    if answer.book.user_file is not None:
        sources += [s for s in answer.sources if s.startswith(f"{USER_PRICES} (") and s not in sources]
    lines = [f"{answer.label(part.language)}: tokens of {record.settings.corpus or 'the corpus'} "
             f"{record.settings.measure_split or ''} text against {answer.label(answer.reference)} on the same "
             f"lines, from {answer.results_name} (run of {record.date[:10]})".replace("  ", " "),
             "Prices and windows: " + ("; ".join(sources) if sources else _why_no_prices(answer))]
    if answer.shortlist is not None:
        lines.append("Shortlist: " + ", ".join(pick.typed.strip() for pick in answer.shortlist.picks))
        lines += [f"  {pick.typed.strip()}: {pick.caveat}" for pick in answer.shortlist.picks if pick.caveat]
        lines += [f"  {model}: {why}" for model, why in answer.shortlist.caveats.items()]
    lines.append("")
    for tokenizer in part.tokenizers:
        row = tokenizer.row
        if not tokenizer.ok:
            lines.append(f"{tokenizer.tokenizer}: {tokenizer.status}")
            if tokenizer.models:  # named, so a model priced on it is not dropped without a word
                lines.append(f"  models: {_models_line(tokenizer.models)}")
            lines.append("")
            continue
        premium = fmt_interval(row.premium, row.premium_ci_low, row.premium_ci_high)
        lines.append(f"{tokenizer.tokenizer}: {row.tokens_per_sentence:.1f} tokens per sentence, {premium} "
                     f"{reference_name}")
        if lossy(row):
            lines.append(f"  gives back {row.roundtrip_rate:.0%} of the sentences exactly (its normaliser changes "
                         "text): the count is of the text as it changed it, as the vendor's own counter counts")
        lines.append(f"  models: {_models_line(tokenizer.models)}" if tokenizer.models else "  models: none listed")
        lines += [f"  note: {note}" for note in tokenizer.notes]  # e.g. Claude legacy: older models only
        best, room = tokenizer.cheapest, tokenizer.roomiest
        lines.append(f"  cheapest: {cost_phrase(best.best, reference_name)}" if best else "  cheapest: no priced model")
        lines.append(f"  roomiest: {room_phrase(room.best, reference_name)}" if room else
                     "  roomiest: no window for these models in the price source" if tokenizer.figures else
                     "  roomiest: no model with a window")
        lines.append("")
    lines += _leader_lines("Cheapest overall", part.cheapest, lambda f: cost_phrase(f, reference_name),
                           dearer=True)
    lines += _leader_lines("Roomiest overall", part.roomiest, lambda f: room_phrase(f, reference_name),
                           dearer=False)
    if answer.unpriced:
        lines.append("Not priced:")
        grouped: dict[str, list[str]] = {}
        for model, why in answer.unpriced.items():
            grouped.setdefault(why, []).append(model)
        for why, names in grouped.items():
            lines.append(f"  {why}: {_models_line(names)}")
    if answer.shortlist is not None and answer.shortlist.not_counted:
        lines.append("Not counted:")
        lines += [f"  {model}: {why}" for model, why in answer.shortlist.not_counted.items()]
    if not answer.has_reference_words:
        lines.append(f"({reference_name}-equivalent words need the reference's word counts, which these results lack)")
    rule = answer.tie_rule
    lines.append(f"{rule[0].upper()}{rule[1:]}.")
    return lines


def _why_no_prices(answer: Answer) -> str:
    if not any(answer.book.models.values()):  # results made before format 4 record no tokenizer's models
        return ("none (these results name no model of any tokenizer, as results made before format 4 do: run again, "
                "or give --prices FILE with a tokenizer column)")
    return "none (no model of these tokenizers is priced)"


def _comparison_lines(answer: Answer) -> list[str]:
    """Per model (or tokenizer), its cost in each language relative to the reference, as a table."""
    reference = answer.name(answer.reference)
    header = ["model [tokenizer]" if answer.shortlist is not None else "tokenizer (its models)"]
    header += [part.language for part in answer.languages]
    table = [header]
    for entry in comparison(answer):
        label = (f"{entry.model} [{entry.tokenizer}]" if entry.model is not None else
                 f"{entry.tokenizer} ({entry.n_models} model{'s' if entry.n_models != 1 else ''})")
        cells = [fmt_interval(row.premium, row.premium_ci_low, row.premium_ci_high, label="")
                 if row is not None and row.premium is not None else "not measured" for _, row in entry.premiums]
        table.append([label, *cells])
    widths = [max(len(row[i]) for row in table) for i in range(len(header))]
    lines = [f"Compared with {reference}: each model's cost for the same text in each language, relative to its cost "
             f"in {reference} (its tokenizer's premium, with the 95% interval; the price is the same in every language)"]
    lines += ["  " + "  ".join(cell.ljust(width) for cell, width in zip(row, widths)).rstrip() for row in table]
    cheapest = [f"{part.language} {part.cheapest.best.model}" + (f" (tied with {len(part.cheapest.tied)} more)"
                                                                 if part.cheapest.tied else "")
                for part in answer.languages if part.cheapest is not None]
    if cheapest:
        lines.append("Cheapest overall per language: " + "; ".join(cheapest))
    return lines


def render_text(answer: Answer) -> str:
    """The whole answer as text, one language after another, then (for several) their comparison."""
    from benchmark.plumbing.escaping import terminal_text

    lines: list[str] = []
    for part in answer.languages:
        if lines:
            lines.append("")
        lines += _language_lines(answer, part)
    if len(answer.languages) > 1:
        lines += ["", *_comparison_lines(answer)]
    # Each line escaped whole: a line break inside a field (a row's status) is shown, never a line of its own.
    return "".join(terminal_text(line) + "\n" for line in lines)


def answer_for(text: str, results_path: Path, *, prices: Path | None = None,
               models: Sequence[str] | None = None, as_json: bool = False, base: str | None = None) -> str:
    """`answer_data` (the languages typed, codes or names, comma-separated), as the text `cost` prints,
    or with `as_json` as its JSON document (as_json.py)."""
    answer = answer_data(text, results_path, prices=prices, models=models, base=base)
    if as_json:
        from benchmark.pricing.language.as_json import render_json

        return render_json(answer)
    return render_text(answer)

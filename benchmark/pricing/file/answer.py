"""The `cost --file` answer: a user's own files, counted on every production tokenizer
(measure/own_text.py), priced on every model of it and set against its window; with a language,
what the same content would take in the reference language (English), from that language's
measured premium and its interval in saved results.

The counts are exact for these files (nothing is sampled), so two models tie only at the same
cost or window. The reference-language figures are estimates: the file's tokens over the measured
premium, whose 95% interval they carry.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping, Sequence
from pathlib import Path

from benchmark.measure.own_text import OwnCount, OwnText
from benchmark.plumbing.escaping import terminal_text
from benchmark.pricing.prices.database import Listing
from benchmark.pricing.file.estimates import EstimateSource, estimate_line, estimates_for, header_line
from benchmark.pricing.file.figures import (COUNTING, ModelCost, Premium, PremiumSource, best_of, first_screen,
                                           model_costs, premiums_for, price_list, read_results, shortlisted)
from benchmark.pricing.money import unpriced
from benchmark.pricing.formats import fmt_ci, fmt_count, fmt_interval, fmt_price, fmt_usd, fmt_window

MAX_MODELS_NAMED = 8  # per tokenizer line, as the language answer; the rest are counted


def _plain(text: str) -> str:
    return terminal_text(text)


def _models_line(names: Sequence[str]) -> str:
    more = len(names) - MAX_MODELS_NAMED
    return ", ".join(names[:MAX_MODELS_NAMED]) + (f" and {more} more" if more > 0 else "")


def _fits_phrase(fits: float) -> str:
    return f"fits {fmt_count(fits)} times" if fits >= 1 else f"does not fit ({fits:.0%} of it does)"


def _cost_phrase(item: ModelCost) -> str:
    return f"{item.listing.model} ({item.listing.seller}, {fmt_price(item.listing)}): {fmt_usd(item.usd)}"


def _room_phrase(item: ModelCost) -> str:
    return (f"{item.listing.model} ({item.listing.seller}, {fmt_window(item.listing.context_window)}): "
            f"{_fits_phrase(item.fits)}")


def _leader_lines(title: str, items: Sequence[ModelCost], *, money: bool) -> list[str]:
    figure = (lambda c: c.usd) if money else (lambda c: c.fits)
    found = best_of(items, money=money)
    if found is None:
        return [f"{title}: no model with a {'price' if money else 'window'}"]
    best, tied, behind = found
    phrase = _cost_phrase if money else _room_phrase
    lines = [f"{title}: {_plain(phrase(best))} [{best.tokenizer}]"]
    if tied:
        names = ", ".join(f"{c.listing.model} [{c.tokenizer}]" for c in tied[:6])
        lines.append(f"  tied with {_plain(names)}" + (f" and {len(tied) - 6} more" if len(tied) > 6 else ""))
    if behind is not None and figure(best):
        ratio = figure(behind) / figure(best) if money else figure(best) / figure(behind)
        how = f"{ratio:.2f}x the leader's cost" if money else f"the leader holds {ratio:.2f}x as much"
        lines.append(f"  next: {_plain(behind.listing.model)} [{behind.tokenizer}], {how}")
    return lines


def _files_line(texts: Sequence[OwnText]) -> str:
    n_bytes = sum(t.n_bytes for t in texts)
    n_chars = sum(t.n_chars for t in texts)
    what = texts[0].name if len(texts) == 1 else f"{len(texts)} files"
    return f"{what}: {n_bytes:,} bytes of UTF-8, {n_chars:,} characters"


def _tokens_line(count: OwnCount, texts: Sequence[OwnText]) -> str:
    line = f"{count.tokenizer}: {count.n_tokens_total:,} tokens"
    if len(texts) > 1:
        line += " (" + "; ".join(f"{t.name} {n:,}" for t, n in zip(texts, count.n_tokens)) + ")"
    return line


def _reference_lines(count: OwnCount, premium: Premium | None, source: PremiumSource,
                     cheapest: ModelCost | None) -> list[str]:
    """What the same content would take in the reference language, on this tokenizer."""
    if premium is None:
        return [f"  in {source.reference}: no premium of {_plain(source.label)} measured on {count.tokenizer}"]
    n = count.n_tokens_total
    low = n / premium.ci_high if premium.ci_high else None
    high = n / premium.ci_low if premium.ci_low else None
    interval = fmt_ci(low, high, fmt=lambda v: f"{v:,.0f}")
    lines = [f"  in {source.reference}: about {n / premium.value:,.0f} tokens{interval}, from "
             f"{_plain(source.label)}'s premium {fmt_interval(premium.value, premium.ci_low, premium.ci_high)}"]
    if cheapest is not None and cheapest.usd is not None:
        price = cheapest.listing.input_usd_per_mtok
        money = fmt_usd(n / premium.value * price / 1e6)
        if interval and fmt_usd(low * price / 1e6) != fmt_usd(high * price / 1e6):
            money += fmt_ci(low * price / 1e6, high * price / 1e6, fmt=fmt_usd)
        lines.append(f"    on {_plain(cheapest.listing.model)}: {money} in {source.reference}, "
                     f"against {fmt_usd(cheapest.usd)} as written")
    return lines


def render_own_cost(texts: Sequence[OwnText], counts: Sequence[OwnCount], models: Mapping[str, Sequence[str]],
                    listings: Mapping[str, Listing], *, reasons: Mapping[str, str] | None = None,
                    premiums: PremiumSource | None = None, left_out: Sequence[str] = (),
                    estimates: EstimateSource | None = None) -> str:
    """The whole answer: per tokenizer its tokens, models, cheapest and roomiest model and the models
    the files do not fit; then the cheapest and roomiest overall, and the models without a price.
    `left_out`: the production tokenizers not counted (not on the first screen), named with `--all`;
    `estimates`: the calibration entries to estimate by (estimates.py), naming the domain used."""
    costs = model_costs(counts, models, listings)
    sources = sorted({c.listing.source for c in costs})
    lines = [_files_line(texts),
             f"Tokens: {COUNTING}"]
    if left_out:
        lines.append(f"Tokenizers: the vendors' flagships' ({len(counts)}); --all counts the other {len(left_out)} "
                     f"too ({', '.join(left_out)})")
    lines.append("Prices and windows: " + ("; ".join(sources) if sources else "none (no model of these tokenizers "
                                           "is priced)"))
    if premiums is not None:
        lines.append(f"In {premiums.reference}: the tokens over {_plain(premiums.label)}'s premium on the same "
                     f"sentences, from {_plain(premiums.results_name)} (run of {premiums.run_date})")
    if estimates is not None:
        lines.append(header_line(estimates))
    lines.append("")
    for count in counts:
        if not count.ok:
            lines += [f"{count.tokenizer}: {_plain(count.status)}", ""]
            continue
        lines.append(_tokens_line(count, texts))
        mine = [c for c in costs if c.tokenizer == count.tokenizer]
        priced = [c for c in mine if c.usd is not None]
        cheapest = min(priced, key=lambda c: (c.usd, c.listing.model)) if priced else None
        if premiums is not None:
            lines += _reference_lines(count, premiums.premiums.get(count.tokenizer), premiums, cheapest)
        if estimates is not None:
            lines.append(estimate_line(estimates, count, texts))
        names = list(models.get(count.tokenizer, ()))
        lines.append(f"  models: {_plain(_models_line(names))}" if names else "  models: none listed")
        lines.append(f"  cheapest: {_plain(_cost_phrase(cheapest))}" if cheapest else "  cheapest: no priced model")
        windowed = [c for c in mine if c.fits is not None]
        if windowed:
            roomiest = max(windowed, key=lambda c: (c.fits, c.listing.model))
            lines.append(f"  roomiest: {_plain(_room_phrase(roomiest))}")
            short = [c for c in windowed if c.fits < 1]
            if short:
                lines.append("  too long for: " + _plain(", ".join(
                    f"{c.listing.model} ({fmt_window(c.listing.context_window)})" for c in short)))
        else:
            lines.append("  roomiest: no model with a window")
        lines.append("")
    lines += _leader_lines("Cheapest overall", costs, money=True)
    lines += _leader_lines("Roomiest overall", costs, money=False)
    missing = unpriced({c.tokenizer: models.get(c.tokenizer, ()) for c in counts if c.ok}, listings, reasons)
    if missing:
        lines.append("Not priced:")
        grouped: dict[str, list[str]] = {}
        for model, why in missing.items():
            grouped.setdefault(why, []).append(model)
        lines += [f"  {_plain(why)}: {_plain(_models_line(names))}" for why, names in grouped.items()]
    return "\n".join(lines) + "\n"


def own_cost_answer(paths: Sequence[Path | str], *, language: str | None = None, results_path: Path | None = None,
                    prices: Path | None = None, models: Sequence[str] | None = None, on: dt.date | None = None,
                    as_json: bool = False, every_tokenizer: bool = False, domain: str | None = None) -> str:
    """`render_own_cost` (or with `as_json` its JSON document, as_json.py) for files named by a
    user: read (or refused) before any vocabulary loads, counted on the flagships' tokenizers
    (`first_screen`), on every production tokenizer with `every_tokenizer`, or on the tokenizers of
    the `models` shortlist; priced as on `on` (default: today, UTC). With a `language` or a
    `domain`, also the estimate without a tokenizer from the calibration of `results_path`: the
    `domain`'s entries, else the whole corpus's."""
    from benchmark.measure.own_text import count_own_texts, read_own_texts
    from benchmark.pricing.prices.listings import listing_reasons

    texts = read_own_texts(paths)
    chosen = shortlisted(models) if models else None
    results = read_results(Path(results_path)) if language is not None or domain is not None else None
    premiums = premiums_for(language, Path(results_path), results) if language is not None else None
    estimates = None
    if results is not None:
        from benchmark.corpora.languages import script_of

        code = premiums.language if premiums is not None else None
        estimates = estimates_for(results, str(results_path), domain=domain, language=code,
                                  script=script_of(code) if code else None)
    on = on or dt.datetime.now(dt.timezone.utc).date()
    every, listings = price_list(on, prices)
    if chosen is None:
        chosen = every if every_tokenizer else first_screen(every, listings)
    left_out = () if models else tuple(t for t in every if t not in chosen)
    counts = count_own_texts(texts, list(chosen))
    if as_json:
        from benchmark.pricing.file.as_json import render_own_cost_json

        return render_own_cost_json(texts, counts, chosen, listings, on=on, reasons=listing_reasons(),
                                    premiums=premiums, prices=prices, left_out=left_out, estimates=estimates)
    return render_own_cost(texts, counts, chosen, listings, reasons=listing_reasons(), premiums=premiums,
                           left_out=left_out, estimates=estimates)

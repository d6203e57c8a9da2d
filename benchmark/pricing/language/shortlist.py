"""`cost --models a,b,c`: the names a user typed, each resolved to the models it stands for, and
each model either counted on a tokenizer of the results or named with why it has no count.

A name is a model of the price book (the run record's, or the user's prices file's), or a name
the models file resolves (adapters/models.py: a model, a dated snapshot of one, or a versioned
family such as `llama-4-maverick` whose models share one tokenizer). Never taken silently: a
snapshot, a family or a name that only starts a model's name is accepted with a caveat printed
beside it (`llama-4-maverick` stands for 3 models...); a brand without a version (`claude`,
`grok`) and a name no file knows (`gpt-4-o`) are refused in one line with the close matches.
A model the price database lists but no file pairs with a tokenizer, one whose tokenizer is not
published, and one whose tokenizer these results lack are kept in the answer, named, with why.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from benchmark.plumbing.errors import BenchmarkError
from benchmark.pricing.prices.book import PriceBook, pairing_source


@dataclass(frozen=True)
class Pick:
    """One name of the shortlist as typed, and the models it stands for."""

    typed: str
    models: tuple[str, ...]
    caveat: str = ""  # printed beside the choice: what a family or snapshot name was taken as


@dataclass(frozen=True)
class Shortlist:
    picks: tuple[Pick, ...]
    models: dict[str, tuple[str, ...]]  # tokenizer -> the picked models counted on it, in the order picked
    not_counted: dict[str, str] = field(default_factory=dict)  # model -> why it has no count
    pairings: dict[str, str] = field(default_factory=dict)  # model -> where its tokenizer comes from
    notes: dict[str, str] = field(default_factory=dict)  # model -> its caveat in the models file
    caveats: dict[str, str] = field(default_factory=dict)  # model -> printed beside it (paired by today's file)

    @property
    def names(self) -> list[str]:
        return list(dict.fromkeys(model for pick in self.picks for model in pick.models))


def _some(names: Sequence[str], shown: int = 6) -> str:
    return ", ".join(names[:shown]) + (f" and {len(names) - shown} more" if len(names) > shown else "")


def _pick(typed: str, book: PriceBook) -> tuple[Pick, str | None]:
    """The models `typed` stands for, and why it has no count when no file pairs it with a tokenizer."""
    from benchmark.adapters.models import all_models, find_models, models_named

    name = typed.strip()
    if not name:
        raise BenchmarkError("--models: an empty name; give model names separated by commas, e.g. gpt-5,gemini-2.5-flash")
    booked = [model for names in book.models.values() for model in names]
    if name in booked or name.lower() in booked:  # the record's or the user's own (any case in a prices file)
        return Pick(typed, (name if name in booked else name.lower(),)), None
    found = find_models(name)
    if not found:
        from benchmark.pricing.prices.database import providers_listing

        hosts = providers_listing(name)
        if hosts:  # priced, but no file says which tokenizer counts it: named, with why
            return Pick(typed, (name.lower(),)), (f"the price database lists it ({_some(hosts, 3)}) but models.csv "
                                                  "pairs no tokenizer with it: no count is made, none is guessed")
        known = list(dict.fromkeys([m.model for m in all_models()] + booked))
        close = difflib.get_close_matches(name.lower(), known, n=5, cutoff=0.5)
        raise BenchmarkError(f"--models: {name!r} is no model of models.csv, the price database or your prices; "
                             + (f"close: {', '.join(close)}" if close else
                                "the models are in benchmark/adapters/models.csv"))
    if not any(m.tokenizer for m in found):  # real models whose vendor publishes no tokenizer
        return (Pick(typed, tuple(m.model for m in found)),
                f"tokenizer not published ({found[0].source}): no count, none guessed")
    try:
        models = models_named(name)
    except BenchmarkError as exc:
        raise BenchmarkError(f"--models: {exc}") from None
    names = tuple(m.model for m in models)
    wanted = name.lower()
    if names == (wanted,):
        return Pick(typed, names), None
    if len(names) == 1 and wanted.startswith(names[0] + "-"):
        caveat = f"a snapshot of {names[0]}: counted and priced as {names[0]}"
    elif len(names) == 1:
        caveat = f"taken as {names[0]}, the one listed model whose name starts so"
    else:
        caveat = f"stands for {len(names)} models on {models[0].tokenizer} (models.csv): {_some(names)}"
    return Pick(typed, names, caveat), None


def resolve_shortlist(typed: Iterable[str], book: PriceBook, measured: Iterable[str], *, run_date: str = "") -> Shortlist:
    """The shortlist `typed` names, on `book`'s models; `measured`: the tokenizers the results hold.
    A refused name is one BenchmarkError naming it and the close matches."""
    from benchmark.adapters.models import all_models

    measured = set(measured)
    tokenizer_of = {model: tokenizer for tokenizer, names in book.models.items() for model in names}
    listed = {m.model: m for m in all_models()}
    picks, counted, not_counted = [], {}, {}
    pairings, notes, caveats = {}, {}, {}
    for name in typed:
        pick, why = _pick(name, book)
        picks.append(pick)
        for model in pick.models:
            if why is not None:
                not_counted[model] = why
                continue
            tokenizer = tokenizer_of.get(model)
            if tokenizer is not None:
                pairings[model] = book.pairings.get(model, "the run record")
                if model in book.notes:
                    notes[model] = book.notes[model]
            else:  # in today's models file, not in the run record: paired by the file, and said so
                info = listed[model]
                tokenizer = info.tokenizer
                if not tokenizer:
                    not_counted[model] = f"tokenizer not published ({info.source}): no count, none guessed"
                    continue
                if tokenizer not in measured:
                    not_counted[model] = (f"its tokenizer {tokenizer} is not in these results; measure it with "
                                          f"`python -m benchmark run --tokenizers {tokenizer}`")
                    continue
                pairings[model] = pairing_source(info)
                caveats[model] = (f"on {tokenizer} by today's models.csv (read {info.read_on}); the results' record"
                                  + (f" (run of {run_date})" if run_date else "") + " does not list it")
                if info.note:
                    notes[model] = info.note
            if tokenizer not in measured:
                not_counted[model] = f"its tokenizer {tokenizer} is not in these results"
                continue
            counted.setdefault(tokenizer, [])
            if model not in counted[tokenizer]:
                counted[tokenizer].append(model)
    return Shortlist(tuple(picks), {t: tuple(n) for t, n in counted.items()}, not_counted, pairings, notes, caveats)

"""The run's summaries per language family and per resource class (benchmark/results/groups.py):
each measured tokenizer that counted every language, each group of the run's languages that the
bundled groups file covers (the reference language belongs to its groups too; a code that is not
a FLORES-200 variety belongs to none), in a fixed order: families by name, classes 0-5, then
"not covered"."""

from __future__ import annotations

from typing import Mapping, Sequence

from benchmark.corpora.groups import group_of, joshi_label
from benchmark.measure.counting import Counts
from benchmark.results import metrics
from benchmark.results.groups import GroupSummary

GROUPS_SETTINGS = ("per Glottolog family and Joshi et al. (2020) class of the run's languages "
                   "(benchmark/corpora/language_groups/): premium = sum of the group's tokens over the reference's tokens "
                   "times the group's size, with a 95% paired bootstrap over sentences (the premium's resamples); "
                   "Gini of the group's languages' n_tokens, none for one language")


def language_groups(languages: Sequence[str]) -> dict[str, dict[tuple[str, str], list[str]]]:
    """kind -> (group name, group id) -> the run's languages in it, in run order."""
    found: dict[str, dict[tuple[str, str], list[str]]] = {"family": {}, "tier": {}}
    for code in languages:
        entry = group_of(code)
        if entry is None:
            continue
        family = (entry.family_name, entry.family_glottocode) if entry.family_name else ("not covered", "")
        tier = (joshi_label(entry.joshi_class), "" if entry.joshi_class is None else str(entry.joshi_class))
        found["family"].setdefault(family, []).append(code)
        found["tier"].setdefault(tier, []).append(code)
    return found


def _order(key: tuple[str, str]) -> tuple:
    name, ident = key
    return (not ident, int(ident) if ident.isdigit() else 0, name)


def build_group_summaries(tokenizer_ids: Sequence[str], languages: Sequence[str], reference: str,
                          counted: Mapping[str, tuple[Mapping[str, Counts], object]]) -> tuple[GroupSummary, ...]:
    """`counted`: tokenizer id -> (language -> its Counts, failures), as the run's counting gives it.
    A tokenizer missing a language (or the reference) gets no group summaries."""
    tokens_per_line = {t: {code: c.tokens_per_line for code, c in counted[t][0].items()} for t in tokenizer_ids}
    groups = language_groups(languages)
    complete = [t for t in tokenizer_ids if all(code in tokens_per_line.get(t, {}) for code in (*languages, reference))]
    wanted = []  # (kind, key, codes, tokenizer)
    for kind in ("family", "tier"):
        for key in sorted(groups[kind], key=_order):
            wanted += [(kind, key, groups[kind][key], t) for t in complete]
    pairs = []
    for kind, key, codes, tokenizer in wanted:
        lines = tokens_per_line[tokenizer]
        together = [sum(values) for values in zip(*(lines[code] for code in codes))]
        pairs.append((together, [len(codes) * n for n in lines[reference]]))
    intervals = metrics.ratio_cis(pairs)
    out = []
    for (kind, key, codes, tokenizer), (together, scaled), ci in zip(wanted, pairs, intervals):
        premium = metrics.ratio(sum(together), sum(scaled))
        if premium is None or ci is None:
            continue
        low, high = metrics.containing(ci, premium)
        totals = [sum(tokens_per_line[tokenizer][code]) for code in codes]
        out.append(GroupSummary(kind=kind, group=key[0], group_id=key[1], tokenizer=tokenizer,
                                n_languages=len(codes), languages=tuple(codes), n_tokens=sum(totals),
                                premium=premium, premium_ci_low=low, premium_ci_high=high,
                                gini=metrics.gini(totals) if len(codes) > 1 else None))
    return tuple(out)

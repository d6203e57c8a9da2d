"""The findings: a few sentences put first in every report, each worded from figures that
analysis.py derives from the rows (so a test can check a sentence against the rows without copying
any output). Nothing here computes a figure the tables or plots also need.
"""

from __future__ import annotations

from benchmark.adapters.families import family_name
from benchmark.pricing.formats import fmt_ci, fmt_range
from benchmark.report.facts.decomposition import tokenizer_share_finding
from benchmark.report.facts.hangul_first import hangul_first_sentence
from benchmark.report.facts.analysis import (
    FLAT_GAIN_PER_DOUBLING,
    SPEED_TIE_SHARE,
    Flattening,
    fewest_tokens,
    flattening,
    most_expensive_per_headline,
    openai_savings,
    speed_ranking,
    worst_roundtrips,
)
from benchmark.report.facts.compare import by_gini, mix_effects, total_tokens
from benchmark.report.naming import (
    LOSSLESS_SHARE,
    fmt_rate_percent,
    fmt_times,
    join_ends,
    join_limited,
    join_words,
    language_label,
)
from benchmark.report.view import ReportView


def compute_findings(results: ReportView) -> list[str]:
    """The findings, in reading order; each one is a plain-text sentence or two."""
    findings = []
    for sentence in (
        _premium_sentence(results),
        tokenizer_share_finding(results),
        _fewest_tokens_sentence(results),
        _fairness_sentence(results),
        _mix_sentence(results),
        hangul_first_sentence(results),
        _words_sentence(results),
        _openai_sentence(results),
        *_flattening_sentences(results),
        _speed_sentence(results),
        _roundtrip_sentence(results),
    ):
        if sentence:
            findings.append(sentence)
    return findings


def _name(results: ReportView, code: str) -> str:
    return language_label(results, code)


def _fewest_tokens_sentence(results: ReportView) -> str:
    found = fewest_tokens(results)
    if len(results.headline) < 2 or not found:
        return ""  # nothing to compare with
    by_tokenizers: dict[str, list[str]] = {}
    for language, rows in found:
        names = join_words([row.tokenizer for row in rows])
        by_tokenizers.setdefault(names, []).append(f"{_name(results, language)} {rows[0].tokens_per_sentence:.1f}")
    parts = [f"{names} on {join_limited(languages)}" for names, languages in by_tokenizers.items()]
    return (
        "Fewest tokens per sentence among the main tokenizers that give the text back "
        f"({LOSSLESS_SHARE:.0%} of sentences or more): {'; '.join(parts)}."
    )


def _premium_sentence(results: ReportView) -> str:
    """The dearest language, on the production tokenizers when the run has any (what a reader
    pays today; the training mixes have their own sentence), else on the main tokenizers."""
    reference = results.reference
    worst = most_expensive_per_headline(results)
    production = set(results.production)
    if any(tid in production for tid, _ in worst):
        worst = [(tid, row) for tid, row in worst if tid in production]
    if not worst:
        return ""
    tid, top = max(worst, key=lambda item: (item[1].premium, item[0]))
    ci = fmt_ci(top.premium_ci_low, top.premium_ci_high, point_alone=False)
    ref_name = results.record.language_names.get(reference, reference)
    sentence = (
        f"{_name(results, top.language)} pays the most: under {tid} the same sentences take "
        f"{top.premium:.2f}x the tokens of {ref_name}{ci}."
    )
    others = [f"{t}: {_name(results, row.language)} {row.premium:.2f}x" for t, row in worst if t != tid]
    if others:
        sentence += " The most expensive language under each other tokenizer: " + "; ".join(others) + "."
    return sentence


def _fairness_sentence(results: ReportView) -> str:
    """The most and least even production tokenizer by Gini, and the most even of all when it is
    another one."""
    ranked = by_gini(results)
    production = [s for s in ranked if s.tokenizer in set(results.production)]
    if len(production) < 2:
        return ""

    def gini(s) -> str:
        ci = fmt_ci(s.gini_ci_low, s.gini_ci_high, opening=", ", closing="", point_alone=False, digits=3)
        return f"{s.tokenizer} (Gini {s.gini:.3f}{ci})"

    most, least = production[0], production[-1]
    sentence = (f"Over the {most.n_languages} languages, the production tokenizer that charges them most evenly is "
                f"{gini(most)}, the least evenly {gini(least)}; a Gini of 0 would be the same cost for every language.")
    if ranked[0].tokenizer != most.tokenizer:
        sentence += f" The most even of every tokenizer measured is {gini(ranked[0])}."
    return sentence


def _mix_sentence(results: ReportView) -> str:
    """What English-heavy training costs each other language against the balanced mix, how much of
    the premium parity-aware merges remove, and what they cost in tokens over every language."""
    found = mix_effects(results)
    if not found or not found[1]:
        return ""
    size, effects = found
    reference = results.record.language_names.get(results.reference, results.reference)
    mix = (results.record.settings.train_mixes or {}).get("english-heavy")
    share = mix.byte_shares.get(results.reference) if mix else None
    heavy = f"English-heavy ({share:.0%} of the training bytes English)" if share is not None else "English-heavy"
    worst, *others = sorted(effects, key=lambda e: (-e.english_heavy, e.language))
    with_parity = all(e.parity is not None for e in effects)
    sentence = (f"The training data drives the premium. Our BPE at {size:,} tokens trained {heavy} charges "
                f"{_name(results, worst.language)} {worst.english_heavy:.2f}x the tokens of {reference}; trained "
                f"balanced, {worst.balanced:.2f}x" + (f"; with parity-aware merges, {worst.parity:.2f}x." if with_parity
                                                      else "."))
    if others:
        sentence += (" English-heavy against balanced for the others: "
                     + join_ends([f"{_name(results, e.language)} {e.english_heavy:.2f}x against {e.balanced:.2f}x"
                                  for e in others]) + ".")
    removed = [e.removed_by_parity for e in effects if e.removed_by_parity is not None]
    if with_parity and removed:
        highest = max(e.parity for e in effects)
        sentence += (f" Parity-aware merges bring every language within {highest:.2f}x of {reference} (removing "
                     f"{min(removed):.0%} to {max(removed):.0%} of the English-heavy premium over 1.00)")
        balanced, parity = total_tokens(results, "bpe-balanced", size), total_tokens(results, "bpe-parity", size)
        if balanced and parity:
            change = parity / balanced - 1
            sentence += (f" for {abs(change):.1%} {'more' if change >= 0 else 'fewer'} tokens over all the languages "
                         "than the balanced mix")
        sentence += "."
    return sentence


def _words_sentence(results: ReportView) -> str:
    """How often production tokenizers split a word, the reference against the language they split most."""
    production = results.production
    index = results.index
    rates: dict[str, list[float]] = {}
    for language in results.languages:
        found = [index[(tid, language)].continued_word_rate for tid in production if (tid, language) in index]
        found = [rate for rate in found if rate is not None]
        if len(found) >= 2:
            rates[language] = sorted(found)
    reference = results.reference
    if reference not in rates or len(rates) < 2:
        return ""
    others = [code for code in rates if code != reference]
    worst = max(others, key=lambda code: (rates[code][len(rates[code]) // 2], code))  # by the median model

    def spread(code: str) -> str:
        return f"{rates[code][0]:.0%} to {rates[code][-1]:.0%} of {_name(results, code)} words"

    return (f"Words split into two or more tokens on the {len(production)} production tokenizers: {spread(worst)} "
            f"(the most split language), against {spread(reference)}.")


def _openai_sentence(results: ReportView) -> str:
    pair = results.openai_pair
    savings = openai_savings(results)
    if pair is None or not savings:
        return ""
    parts = []
    for k, (language, saving) in enumerate(savings):
        unit = " tokens" if k == 0 else ""
        direction = "fewer" if saving >= 0 else "more"
        share = f"{abs(saving) * 100:.0f}%"
        if share == "0%":
            share = "under 1%"  # "0% more" reads as a contradiction
        parts.append(f"{share} {direction}{unit} on {_name(results, language)}")
    cl100k, o200k = (tid.split("/")[-1] for tid in pair)
    return f"For the same sentences, {o200k} needs {join_ends(parts)} than {cl100k}."


def _flattening_sentences(results: ReportView) -> list[str]:
    sentences = []
    rule = f"the next doubling of the vocabulary gains less than {FLAT_GAIN_PER_DOUBLING:.0%}"
    # Families still improving on every language share one sentence, keyed by their largest size.
    improving: dict[int, list[tuple[str, list[Flattening]]]] = {}
    for family in results.trained_families:
        flats = [flattening(results, family, language) for language in results.languages]
        flats = [f for f in flats if f is not None]
        if not flats:
            continue
        largest = max(flat.largest_size for flat in flats)
        if all(flat.flat_at is None for flat in flats):
            improving.setdefault(largest, []).append((family, flats))
            continue
        by_size: dict[int | None, list[str]] = {}
        for flat in flats:
            by_size.setdefault(flat.flat_at, []).append(_name(results, flat.language))
        stopped = [
            f"at {size:,} for {join_limited(names)}"
            for size, names in sorted((s, n) for s, n in by_size.items() if s is not None)
        ]
        sentence = f"Bytes per token of {family_name(family)} stops improving ({rule}) {'; '.join(stopped)}"
        if None in by_size:
            still = join_limited(by_size[None])
            sentence += f"; it is still improving at {largest:,}, the largest size measured, for {still}"
        sentences.append(sentence + ".")
    for largest, groups in sorted(improving.items()):
        gains = [flat.last_gain for _, flats in groups for flat in flats]
        names = join_words([family_name(family) for family, _ in groups])
        low, high = min(gains), max(gains)
        spread = f"{low:.0%}" if f"{low:.0%}" == f"{high:.0%}" else f"{low:.0%} to {high:.0%}"
        sentences.append(
            f"Bytes per token of {names} is still improving at {largest:,}, the largest size measured, for every "
            f"language: the last doubling gains {spread} (we call it stopped once {rule})."
        )
    return sentences


def _speed_sentence(results: ReportView) -> str:
    """Fastest and slowest encoder, with those too close to them to tell apart."""
    ranking = speed_ranking(results)
    if ranking is None:
        return ""
    medians, fastest, slowest = ranking.medians, ranking.fastest, ranking.slowest
    if not ranking.by_ratio:
        return (
            f"The fastest encoder is {fastest} at {medians[fastest]:.1f} MB/s (median over languages, one thread); "
            f"the slowest is {slowest} at {medians[slowest]:.1f} MB/s."
        )
    leaders, trailers = ranking.leaders, ranking.trailers
    if set(leaders) & set(trailers):
        return ""  # every encoder within the noise of every other: no fastest to name

    def named(group: list[str], unit: str) -> str:
        # No MB/s beside the ratio: each row's MB/s was timed at its own moment, on a machine whose
        # speed moves, so it can rank two tokenizers the other way round. A tie group shows three
        # figures, or its members' rounded ratios could differ by more than the tie share.
        def shown(t: str) -> str:
            return f"{medians[t]:#.3g}".rstrip(".") + "x" if len(group) > 1 else fmt_times(medians[t])

        first, *rest = group
        return join_words([f"{first} ({shown(first)}{unit})", *(f"{t} ({shown(t)})" for t in rest)])

    unit = " tiktoken cl100k_base's throughput"
    if ranking.self_ratios is not None and ranking.tie_share > SPEED_TIE_SHARE:
        low, high = ranking.self_ratios
        tie = (f", within {ranking.tie_share:.0%} of each other: tiktoken timed against itself read "
               f"{fmt_range(low, high)}x in this run, so it does not order them")
    else:
        tie = f", within {ranking.tie_share:.0%} of each other (closer than one run tells apart)"
    fast = (f"The fastest encoder is {named(leaders, unit)}" if len(leaders) == 1
            else f"The fastest encoders are {named(leaders, unit)}{tie}")
    slow = (f"the slowest is {named(trailers, '')}" if len(trailers) == 1
            else f"the slowest are {named(trailers, '')}{tie}")
    return (f"{fast}; {slow}. Medians over languages, one thread; each tokenizer was timed in turns with tiktoken "
            "on the same sentences.")


def _roundtrip_sentence(results: ReportView) -> str:
    """The lossy families, each with its worst tokenizer x language."""
    worst = worst_roundtrips(results)
    if not worst:
        return "Every tokenizer gives back every sentence exactly (decode(encode(s)) == s)."
    lossy = [
        f"{family_name(family)} (as low as {fmt_rate_percent(row.roundtrip_rate)} of {_name(results, row.language)} "
        f"sentences, {row.tokenizer})"
        for family, row in worst
    ]
    return f"Round trips are not exact for {join_words(lossy)}; every other family gives back every sentence."

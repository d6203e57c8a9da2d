"""The findings: a few sentences put first in every report, each worded from figures that
analysis.py derives from the rows (so a test can check a sentence against the rows without copying
any output). Nothing here computes a figure the tables or plots also need.
"""

from __future__ import annotations

from benchmark.adapters.families import family_name
from benchmark.report.analysis import (
    FLAT_GAIN_PER_DOUBLING,
    SPEED_TIE_SHARE,
    Flattening,
    cheapest,
    flattening,
    headline_tokenizers,
    most_expensive_per_headline,
    openai_pair,
    openai_savings,
    speed_ranking,
    trained_families,
    worst_roundtrips,
)
from benchmark.report.naming import (
    LOSSLESS_SHARE,
    fmt_rate_percent,
    fmt_times,
    join_words,
    language_label,
    ordered_languages,
    reference_language,
)
from benchmark.results import Results


def compute_findings(results: Results) -> list[str]:
    """The findings, in reading order; each one is a plain-text sentence or two."""
    findings = []
    for sentence in (
        _premium_sentence(results),
        _cheapest_sentence(results),
        _openai_sentence(results),
        *_flattening_sentences(results),
        _speed_sentence(results),
        _roundtrip_sentence(results),
    ):
        if sentence:
            findings.append(sentence)
    return findings


def _name(results: Results, code: str) -> str:
    return language_label(results, code)


def _cheapest_sentence(results: Results) -> str:
    found = cheapest(results)
    if len(headline_tokenizers(results)) < 2 or not found:
        return ""  # nothing to compare with
    by_tokenizers: dict[str, list[str]] = {}
    for language, rows in found:
        names = join_words([row.tokenizer for row in rows])
        by_tokenizers.setdefault(names, []).append(f"{_name(results, language)} {rows[0].tokens_per_sentence:.1f}")
    parts = [f"{names} on {join_words(languages)}" for names, languages in by_tokenizers.items()]
    return (
        "Fewest tokens per sentence among the main tokenizers that give the text back "
        f"({LOSSLESS_SHARE:.0%} of sentences or more): {'; '.join(parts)}."
    )


def _premium_sentence(results: Results) -> str:
    reference = reference_language(results)
    worst = most_expensive_per_headline(results)
    if not worst:
        return ""
    tid, top = max(worst, key=lambda item: (item[1].premium, item[0]))
    ci = ""
    if top.premium_ci_low is not None and top.premium_ci_high is not None:
        ci = f" (95% CI {top.premium_ci_low:.2f}-{top.premium_ci_high:.2f})"
    ref_name = results.record.language_names.get(reference, reference)
    sentence = (
        f"{_name(results, top.language)} pays the most: under {tid} the same sentences take "
        f"{top.premium:.2f}x the tokens of {ref_name}{ci}."
    )
    others = [f"{t}: {_name(results, row.language)} {row.premium:.2f}x" for t, row in worst if t != tid]
    if others:
        sentence += " The most expensive language under each other tokenizer: " + "; ".join(others) + "."
    return sentence


def _openai_sentence(results: Results) -> str:
    pair = openai_pair(results)
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
    return f"For the same sentences, {o200k} needs {join_words(parts)} than {cl100k}."


def _flattening_sentences(results: Results) -> list[str]:
    sentences = []
    rule = f"the next doubling of the vocabulary gains less than {FLAT_GAIN_PER_DOUBLING:.0%}"
    # Families still improving on every language share one sentence, keyed by their largest size.
    improving: dict[int, list[tuple[str, list[Flattening]]]] = {}
    for family in trained_families(results):
        flats = [flattening(results, family, language) for language in ordered_languages(results)]
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
            f"at {size:,} for {join_words(names)}"
            for size, names in sorted((s, n) for s, n in by_size.items() if s is not None)
        ]
        sentence = f"Bytes per token of {family_name(family)} stops improving ({rule}) {'; '.join(stopped)}"
        if None in by_size:
            still = join_words(by_size[None])
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


def _speed_sentence(results: Results) -> str:
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
    tie = f", within {SPEED_TIE_SHARE:.0%} of each other (closer than one run tells apart)"
    fast = (f"The fastest encoder is {named(leaders, unit)}" if len(leaders) == 1
            else f"The fastest encoders are {named(leaders, unit)}{tie}")
    slow = (f"the slowest is {named(trailers, '')}" if len(trailers) == 1
            else f"the slowest are {named(trailers, '')}{tie}")
    return (f"{fast}; {slow}. Medians over languages, one thread; each tokenizer was timed in turns with tiktoken "
            "on the same sentences.")


def _roundtrip_sentence(results: Results) -> str:
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

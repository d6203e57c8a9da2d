"""The findings: a few sentences computed from the result rows, put first in every report.

Each sentence has a small function that returns the numbers behind it, so a test can check the
sentence against the rows without copying any output.

"Stops improving" is defined once, here: bytes per token stops improving at the vocabulary size
after which doubling the vocabulary gains less than `FLAT_GAIN_PER_DOUBLING` (5%). Sizes in a sweep
need not be consecutive doublings, so the gain between two sizes is scaled to one doubling:
`(bpt_big / bpt_small) ** (1 / log2(big / small)) - 1`.
"""

from __future__ import annotations

import math
import statistics
from dataclasses import dataclass

from benchmark.report.naming import (
    LOSSLESS_SHARE,
    OPENAI_FAMILIES,
    TRAINED_FAMILIES,
    family_name,
    family_rank,
    fmt_rate_percent,
    fmt_times,
    has_yardstick_ratios,
    headline_tokenizers,
    is_lossy,
    join_words,
    language_label,
    openai_pair,
    ordered_languages,
    reference_language,
    row_index,
)
from benchmark.results import ResultRow, Results

FLAT_GAIN_PER_DOUBLING = 0.05


def most_expensive(results: Results, tokenizer: str) -> ResultRow | None:
    """The row of the language with the highest premium under `tokenizer` (reference excluded)."""
    reference = reference_language(results)
    rows = [
        row
        for row in results.rows
        if row.tokenizer == tokenizer and row.ok and row.premium is not None and row.language != reference
    ]
    # Ties broken by language code so the sentence never depends on row order.
    return max(rows, key=lambda row: (row.premium, row.language), default=None)


def openai_savings(results: Results) -> list[tuple[str, float]]:
    """(language, share of cl100k's tokens that o200k saves), largest saving first."""
    pair = openai_pair(results)
    if pair is None:
        return []
    index = row_index(results)
    savings = []
    for language in ordered_languages(results):
        cl100k, o200k = index.get((pair[0], language)), index.get((pair[1], language))
        if cl100k and o200k and cl100k.ok and o200k.ok and cl100k.n_tokens > 0:
            savings.append((language, 1 - o200k.n_tokens / cl100k.n_tokens))
    return sorted(savings, key=lambda item: (-item[1], item[0]))


def cheapest(results: Results) -> list[tuple[str, list[ResultRow]]]:
    """(language, the rows of the main tokenizers with the fewest tokens per sentence there), in
    language order. Rows that show the same figure to one decimal are all given, sorted by
    tokenizer: the text cannot rank them. A tokenizer that gives back under `LOSSLESS_SHARE` of the
    language's sentences is left out: it counts text it changed (spaces dropped, words turned into
    [UNK])."""
    shown = set(headline_tokenizers(results))
    found = []
    for language in ordered_languages(results):
        rows = [
            row for row in results.rows
            if row.language == language and row.tokenizer in shown and row.ok
            and not is_lossy(row)
        ]
        if rows:
            figure = f"{min(rows, key=lambda row: row.n_tokens).tokens_per_sentence:.1f}"
            tied = [row for row in rows if f"{row.tokens_per_sentence:.1f}" == figure]
            found.append((language, sorted(tied, key=lambda row: row.tokenizer)))
    return found


@dataclass(frozen=True)
class Flattening:
    family: str
    language: str
    flat_at: int | None  # the size after which one doubling gains < 5%; None: still improving
    largest_size: int  # the largest size measured
    gain_after: float | None  # the per-doubling gain right after flat_at
    last_gain: float  # the per-doubling gain between the two largest sizes


def per_doubling_gain(small: tuple[int, float], big: tuple[int, float]) -> float:
    (size_small, bpt_small), (size_big, bpt_big) = small, big
    return (bpt_big / bpt_small) ** (1 / math.log2(size_big / size_small)) - 1


def flattening(results: Results, family: str, language: str) -> Flattening | None:
    """Where bytes per token stops improving for one trained family on one language."""
    points = sorted(
        (row.vocab_size, row.bytes_per_token)
        for row in results.rows
        if row.family == family and row.language == language and row.ok and row.bytes_per_token
    )
    if len(points) < 2:
        return None
    last_gain = per_doubling_gain(points[-2], points[-1])
    for small, big in zip(points, points[1:]):
        gain = per_doubling_gain(small, big)
        if gain < FLAT_GAIN_PER_DOUBLING:
            return Flattening(family, language, small[0], points[-1][0], gain, last_gain)
    return Flattening(family, language, None, points[-1][0], None, last_gain)


def trained_families(results: Results) -> list[str]:
    """Families trained here (known by name, or any family with a training time), in report order."""
    present = {row.family for row in results.rows}
    timed = {row.family for row in results.rows if row.train_seconds is not None}
    ordered = [family for family in TRAINED_FAMILIES if family in present]
    ordered += sorted(timed - set(ordered) - set(OPENAI_FAMILIES))
    return ordered


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
    worst = [(tid, most_expensive(results, tid)) for tid in headline_tokenizers(results)]
    worst = [(tid, row) for tid, row in worst if row is not None]
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


# Two runs of the same 90 cells (README, "Throughput is measured") differed in a cell's ratio to
# tiktoken by a median 3%, 8% at the 90th percentile and 20% at worst; medians over languages move
# less. Encoders within this share of the fastest or the slowest are named together.
SPEED_TIE_SHARE = 0.10


def _speed_sentence(results: Results) -> str:
    """Fastest and slowest encoder, ranked by the yardstick ratio where the run measured it (MB/s
    moves with the machine's speed from second to second; the ratio keeps)."""
    by_ratio = has_yardstick_ratios(results)
    speeds: dict[str, list[float]] = {}
    for row in results.rows:
        if row.ok and row.throughput_mb_s is not None:
            speeds.setdefault(row.tokenizer, []).append(row.throughput_x_tiktoken if by_ratio else row.throughput_mb_s)
    if len(speeds) < 2:
        return ""
    medians = {tid: statistics.median(values) for tid, values in speeds.items()}
    fastest = max(medians, key=lambda tid: (medians[tid], tid))
    slowest = min(medians, key=lambda tid: (medians[tid], tid))
    if not by_ratio:
        return (
            f"The fastest encoder is {fastest} at {medians[fastest]:.1f} MB/s (median over languages, one thread); "
            f"the slowest is {slowest} at {medians[slowest]:.1f} MB/s."
        )
    # Tokenizers this close to the fastest (slowest) are named with it: one run does not order them.
    leaders = sorted((t for t in medians if medians[t] >= medians[fastest] * (1 - SPEED_TIE_SHARE)),
                     key=lambda t: (-medians[t], t))
    trailers = sorted((t for t in medians if medians[t] <= medians[slowest] * (1 + SPEED_TIE_SHARE)),
                      key=lambda t: (medians[t], t))
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
    worst_by_family: dict[str, ResultRow] = {}
    for row in results.rows:
        if row.ok and row.roundtrip_rate is not None and row.roundtrip_rate < 1:
            current = worst_by_family.get(row.family)
            if current is None or (row.roundtrip_rate, row.tokenizer, row.language) < (
                current.roundtrip_rate,
                current.tokenizer,
                current.language,
            ):
                worst_by_family[row.family] = row
    if not worst_by_family:
        return "Every tokenizer gives back every sentence exactly (decode(encode(s)) == s)."
    lossy = [
        f"{family_name(family)} (as low as {fmt_rate_percent(row.roundtrip_rate)} of {_name(results, row.language)} "
        f"sentences, {row.tokenizer})"
        for family, row in sorted(worst_by_family.items(), key=lambda item: family_rank(item[0]))
    ]
    return f"Round trips are not exact for {join_words(lossy)}; every other family gives back every sentence."

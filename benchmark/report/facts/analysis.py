"""The figures a report derives from the result rows: which tokenizers to show, which language pays
the most, where a curve flattens, which encoder is fastest. Plain Python over `Results`, no pandas:
findings.py words these figures, tables/ and plots/ mark and draw them, and a test can check
each one against the rows. (`lossy_lines` applies `is_lossy` to the frame the tables and plots read;
it takes the frame, so this module still imports no pandas.)

"Stops improving" is defined once, here: bytes per token stops improving at the vocabulary size
after which doubling the vocabulary gains less than `FLAT_GAIN_PER_DOUBLING` (5%). Sizes in a sweep
need not be consecutive doublings, so the gain between two sizes is scaled to one doubling:
`(bpt_big / bpt_small) ** (1 / log2(big / small)) - 1`.
"""

from __future__ import annotations

import math
import statistics
from dataclasses import dataclass

from benchmark.adapters.families import family_rank
from benchmark.report.naming import LOSSLESS_SHARE
from benchmark.results.rows import ResultRow
from benchmark.report.view import ReportView

FLAT_GAIN_PER_DOUBLING = 0.05
# Two runs of the same 90 cells (README, "Throughput is measured") differed in a cell's ratio to
# tiktoken by a median 3%, 8% at the 90th percentile and 20% at worst; medians over languages move
# less. Encoders within this share of the fastest or the slowest are named together.
SPEED_TIE_SHARE = 0.10


def is_lossy(row: ResultRow) -> bool:
    """True when `row`'s tokenizer gave back under `LOSSLESS_SHARE` of the sentences."""
    return row.roundtrip_rate is not None and row.roundtrip_rate < LOSSLESS_SHARE


def lossy_lines(frame):  # pandas.DataFrame -> pandas.Series of bool
    """`is_lossy` for every line of a `Results.to_frame()` frame (no rate is NaN, which compares
    False: not lossy)."""
    return frame["roundtrip_rate"] < LOSSLESS_SHARE


# ----------------------------------------------------------------------------- which tokenizers


# ----------------------------------------------------------------------------- cost


def most_expensive(results: ReportView, tokenizer: str) -> ResultRow | None:
    """The row of the language with the highest premium under `tokenizer` (reference excluded)."""
    reference = results.reference
    rows = [
        row
        for row in results.rows
        if row.tokenizer == tokenizer and row.ok and row.premium is not None and row.language != reference
    ]
    # Ties broken by language code so the sentence never depends on row order.
    return max(rows, key=lambda row: (row.premium, row.language), default=None)


def most_expensive_per_headline(results: ReportView) -> list[tuple[str, ResultRow]]:
    """(tokenizer, its most expensive language's row) for each main tokenizer that has one."""
    worst = [(tid, most_expensive(results, tid)) for tid in results.headline]
    return [(tid, row) for tid, row in worst if row is not None]


def openai_savings(results: ReportView) -> list[tuple[str, float]]:
    """(language, share of cl100k's tokens that o200k saves), largest saving first."""
    pair = results.openai_pair
    if pair is None:
        return []
    index = results.index
    savings = []
    for language in results.languages:
        cl100k, o200k = index.get((pair[0], language)), index.get((pair[1], language))
        if cl100k and o200k and cl100k.ok and o200k.ok and cl100k.n_tokens > 0:
            savings.append((language, 1 - o200k.n_tokens / cl100k.n_tokens))
    return sorted(savings, key=lambda item: (-item[1], item[0]))


def fewest_tokens(results: ReportView) -> list[tuple[str, list[ResultRow]]]:
    """(language, the rows of the main tokenizers with the fewest tokens per sentence there), in
    language order. Rows that show the same figure to one decimal are all given, sorted by
    tokenizer: the text cannot rank them. A tokenizer that gives back under `LOSSLESS_SHARE` of the
    language's sentences is left out: it counts text it changed (spaces dropped, words turned into
    [UNK])."""
    shown = set(results.headline)
    found = []
    for language in results.languages:
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


# ----------------------------------------------------------------------------- compression


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


def bytes_per_token_curve(results: ReportView, family: str, language: str) -> list[tuple[int, float]]:
    """(vocab_size, bytes_per_token) of one family on one language, smallest size first: the curve
    the plot draws and `flattening` reads."""
    return sorted(
        (row.vocab_size, row.bytes_per_token)
        for row in results.rows
        if row.family == family and row.language == language and row.ok and row.bytes_per_token
    )


def flattening(results: ReportView, family: str, language: str) -> Flattening | None:
    """Where bytes per token stops improving for one trained family on one language."""
    points = bytes_per_token_curve(results, family, language)
    if len(points) < 2:
        return None
    last_gain = per_doubling_gain(points[-2], points[-1])
    flat = first_flat_step(points)
    if flat is not None:
        return Flattening(family, language, flat[0], points[-1][0], flat[1], last_gain)
    return Flattening(family, language, None, points[-1][0], None, last_gain)


def first_flat_step(points: list[tuple[int, float]]) -> tuple[int, float] | None:
    """(size, gain) at the first size of a sorted (size, bytes per token) curve after which doubling
    gains less than FLAT_GAIN_PER_DOUBLING; None while it keeps improving."""
    for small, big in zip(points, points[1:]):
        gain = per_doubling_gain(small, big)
        if gain < FLAT_GAIN_PER_DOUBLING:
            return small[0], gain
    return None


# ----------------------------------------------------------------------------- speed


def has_yardstick_row(results: ReportView) -> bool:
    """Whether the yardstick the record names was itself measured (timed against itself)."""
    yardstick = results.record.settings.timing.yardstick
    return any(row.ok and row.tokenizer == yardstick for row in results.rows)


def has_yardstick_ratios(results: ReportView) -> bool:
    """Whether the run timed every measured row against the yardstick (results.json format 2 on)."""
    measured = [row for row in results.rows if row.ok and row.throughput_mb_s is not None]
    return bool(measured) and all(row.throughput_x_tiktoken is not None for row in measured)


@dataclass(frozen=True)
class SpeedRanking:
    by_ratio: bool  # medians of the ratio to tiktoken; False: of MB/s (a record from before it)
    medians: dict[str, float]  # tokenizer -> median over languages
    fastest: str
    slowest: str
    leaders: list[str]  # within tie_share of the fastest, fastest first
    trailers: list[str]  # within tie_share of the slowest, slowest first
    tie_share: float = SPEED_TIE_SHARE  # SPEED_TIE_SHARE, or the run's own noise where it measured more
    self_ratios: tuple[float, float] | None = None  # the yardstick timed against itself: lowest, highest


def speed_ranking(results: ReportView) -> SpeedRanking | None:
    """Encoders ranked by their median speed over languages; None with fewer than two timed.
    Ranked by the yardstick ratio where the run measured it (MB/s moves with the machine's speed
    from second to second; the ratio keeps)."""
    by_ratio = has_yardstick_ratios(results)
    speeds: dict[str, list[float]] = {}
    for row in results.rows:
        if row.ok and row.throughput_mb_s is not None:
            speeds.setdefault(row.tokenizer, []).append(row.throughput_x_tiktoken if by_ratio else row.throughput_mb_s)
    if len(speeds) < 2:
        return None
    medians = {tid: statistics.median(values) for tid, values in speeds.items()}
    fastest = max(medians, key=lambda tid: (medians[tid], tid))
    slowest = min(medians, key=lambda tid: (medians[tid], tid))
    # The yardstick's own row is tiktoken timed in turns with itself: 1.0 but for the noise of this
    # run on this machine. No encoder is named faster than another inside that noise.
    yardstick = results.record.settings.timing.yardstick
    own = [row.throughput_x_tiktoken for row in results.rows
           if by_ratio and row.ok and row.tokenizer == yardstick and row.throughput_x_tiktoken]
    self_ratios = (min(own), max(own)) if own else None
    noise = max(max(r, 1 / r) for r in own) - 1 if own else 0.0
    tie_share = max(SPEED_TIE_SHARE, noise)
    # Tokenizers this close to the fastest (slowest) are named with it: one run does not order them.
    leaders = sorted((t for t in medians if medians[t] * (1 + tie_share) >= medians[fastest]),
                     key=lambda t: (-medians[t], t))
    trailers = sorted((t for t in medians if medians[t] <= medians[slowest] * (1 + tie_share)),
                      key=lambda t: (medians[t], t))
    return SpeedRanking(by_ratio, medians, fastest, slowest, leaders, trailers, tie_share, self_ratios)


# ----------------------------------------------------------------------------- fidelity


def worst_roundtrips(results: ReportView) -> list[tuple[str, ResultRow]]:
    """(family, its row with the fewest exact round trips) for each family that lost a sentence
    anywhere, in report order."""
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
    return sorted(worst_by_family.items(), key=lambda item: family_rank(item[0]))

"""Orders, labels and number formats shared by every report writer (plain Python, no pandas).

One place decides the order of tokenizers and languages and how a number is rounded for reading,
so the Markdown tables, the HTML page and the plots never disagree.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from benchmark.pricing.formats import fmt_interval
from benchmark.results.rows import Results

# Below this share of exact round trips, a tokenizer's count is of text it changed (spaces dropped,
# words turned into [UNK]): the findings leave it out, the plots hatch it, the tables mark it.
LOSSLESS_SHARE = 0.99
LOSSY_MARK = "†"  # dagger, after a table cell counted on changed text


def language_name(results: Results, code: str) -> str:
    return results.record.language_names.get(code, code)


def language_label(results: Results, code: str) -> str:
    """'Japanese (jpn_Jpan)'; a code without a known name stays as it is."""
    name = results.record.language_names.get(code)
    return f"{name} ({code})" if name and name != code else code


def skip_reason(status: str) -> str:
    return status.removeprefix("skipped: ")


# Numbers rounded for reading. The CSV and JSON keep full precision.


def fmt_ratio(value: float | None) -> str:
    return "" if value is None else f"{value:.2f}"


def fmt_ratio_interval(value: float | None, low: float | None, high: float | None, digits: int = 2) -> str:
    """"2.31 (2.20-2.43)": a ratio and its interval; the ratio alone when the interval is missing."""
    return fmt_interval(value, low, high, digits=digits, unit="", label="", point_alone=False)


def fmt_one_decimal(value: float | None) -> str:
    """"23.4": a mean such as tokens per sentence."""
    return "" if value is None else f"{value:.1f}"


def fmt_rate_percent(value: float | None) -> str:
    if value is None:
        return ""
    percent = 100 * value
    if percent == 100 or percent == 0:
        return f"{percent:.0f}%"
    # subtle: 99.96% must not print as "100.0%", which reads as lossless; nor 98.996% as "99.0%",
    # which reads as over the cut-off that the plots and findings apply to the exact value.
    text = f"{percent:.1f}%"
    if text == "100.0%":
        return "99.9%"
    if value < LOSSLESS_SHARE and round(percent, 1) >= 100 * LOSSLESS_SHARE:
        return f"{math.floor(percent * 10) / 10:.1f}%"
    if text == "0.0%":
        return "<0.1%"
    return text


def fmt_speed(value: float | None) -> str:
    if value is None:
        return ""
    return f"{value:.0f}" if value >= 100 else f"{value:.1f}" if value >= 10 else f"{value:.2f}"


def fmt_times(value: float | None) -> str:
    """A multiple, to two significant figures below 10: "0.22x", "0.50x", "1.0x" (for 0.996),
    "9.5x"; whole above: "12x", "120x"."""
    if value is None:
        return ""
    if value >= 9.95:
        return f"{value:.0f}x"
    return f"{value:#.2g}".rstrip(".") + "x"


def repeats_phrase(results: Results) -> str:
    """"median of 3 repeats", "one timed pass", or "median of repeats" for a record without the count."""
    repeats = results.record.settings.timing.repeats
    if repeats == 1:
        return "one timed pass"
    return f"median of {repeats} repeats" if isinstance(repeats, int) else "median of repeats"


def clock_name(results: Results) -> str:
    """"CPU" or "wall-clock": the clock the run's timings were taken with (format 1 runs: the wall)."""
    clock = results.record.settings.timing.clock
    return "CPU" if isinstance(clock, str) and clock.startswith("CPU") else "wall-clock"


def fmt_seconds(value: float | None) -> str:
    if value is None:
        return ""
    return f"{value:.1f}" if value >= 10 else f"{value:.2f}"


def fmt_int(value: int | None) -> str:
    return "" if value is None else f"{value:,}"


def fmt_rounded(value: float | None) -> str:
    """"12,346" for 12345.6: a rate too large for its decimals to matter."""
    return "" if value is None else fmt_int(round(value))


def join_words(words: Sequence[str]) -> str:
    """'a', 'a and b', 'a, b and c'."""
    words = list(words)
    if len(words) <= 1:
        return "".join(words)
    return ", ".join(words[:-1]) + " and " + words[-1]


# A finding names at most this many languages in a list; the tables have every one.
MAX_NAMED = 6


def join_limited(words: Sequence[str], noun: str = "languages", limit: int = MAX_NAMED) -> str:
    """join_words of the first few: 'a, b, c, d, e and 199 other languages' past `limit`."""
    words = list(words)
    if len(words) <= limit:
        return join_words(words)
    return join_words([*words[: limit - 1], f"{len(words) - limit + 1} other {noun}"])


def join_ends(words: Sequence[str], noun: str = "languages", limit: int = MAX_NAMED) -> str:
    """join_words of a sorted list's first few and its last: 'a, b, c, d, 196 other languages
    in between and z' past `limit`, so both ends of the range stay named."""
    words = list(words)
    if len(words) <= limit:
        return join_words(words)
    middle = len(words) - (limit - 1)
    return join_words([*words[: limit - 2], f"{middle} other {noun} in between", words[-1]])

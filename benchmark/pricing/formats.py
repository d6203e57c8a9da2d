"""How money and context read: dollars to two significant figures, capacities as whole numbers; and
a figure with its interval, as the cost verb and the report write it (every interval goes through
`fmt_ci` and `fmt_range`)."""

from __future__ import annotations

import math
from collections.abc import Callable

from benchmark.pricing.prices.database import Listing


def fmt_usd(value: float | None) -> str:
    """'$1,234', '$12.34', '$0.0013': cents where they matter, two significant figures below a dollar."""
    if value is None:
        return ""
    if value >= 100:
        return f"${value:,.0f}"
    if value >= 1:
        return f"${value:,.2f}"
    if value == 0:
        return "$0"
    # Two significant figures, written out: $0.0011, $0.000057 (never 5.7e-05).
    return f"${value:.{max(2, 1 - math.floor(math.log10(value)))}f}"


def fmt_count(value: float | None) -> str:
    """A capacity: '22,170'; below ten, one decimal ('3.4')."""
    if value is None:
        return ""
    return f"{value:,.1f}" if value < 10 else f"{round(value):,}"


def fmt_window(tokens: int | None) -> str:
    if tokens is None:
        return "no window given"
    if tokens >= 1_000_000 and tokens % 1_000_000 == 0:
        return f"{tokens // 1_000_000}M tokens"
    return f"{tokens:,} tokens"


def fmt_price(listing: Listing) -> str:
    """'$2.50/M input tokens' or 'no price'."""
    if listing.input_usd_per_mtok is None:
        return "no price"
    return f"{fmt_usd(listing.input_usd_per_mtok)}/M input tokens"


def fmt_range(low: float, high: float, *, digits: int = 2, fmt: Callable[[float], str] | None = None) -> str:
    """An interval's two ends, '1.67-1.71': with `digits` decimals, or each written by `fmt`."""
    write = fmt or (lambda v: f"{v:.{digits}f}")
    return f"{write(low)}-{write(high)}"


def fmt_ci(low: float | None, high: float | None, *, label: str = "95% CI ", opening: str = " (", closing: str = ")",
           point_alone: bool = True, **ends) -> str:
    """The interval after a figure, ' (95% CI 1.67-1.71)', the one way every interval is written;
    empty without one, and with `point_alone` for an interval of one point. `ends` go to `fmt_range`."""
    if low is None or high is None or (point_alone and low == high):
        return ""
    return f"{opening}{label}{fmt_range(low, high, **ends)}{closing}"


def fmt_interval(value: float | None, low: float | None, high: float | None, *, digits: int = 2, unit: str = "x",
                 label: str = "95% CI ", point_alone: bool = True) -> str:
    """A figure and its interval, the one formatter of both (the cost verb's and the report's):
    '1.69x (95% CI 1.67-1.71)'; with unit="" and label="", '1.69 (1.67-1.71)', as the report's
    tables write it. Without an interval the value alone, and with `point_alone` also for an
    interval of one point (the reference against itself)."""
    if value is None:
        return ""
    return f"{value:.{digits}f}{unit}" + fmt_ci(low, high, label=label, point_alone=point_alone, digits=digits)

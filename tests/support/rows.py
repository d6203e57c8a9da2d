"""Rows compared as counts: every field of a result row but the timing ones, which no two runs
share."""

from __future__ import annotations

from collections.abc import Iterable

from benchmark.results.rows import ROW_FIELDS, TIMING_FIELDS, ResultRow


def rows_without_timing(rows: Iterable[ResultRow]) -> list[dict]:
    """Each row as {field: value}, the timing fields (results.rows.TIMING_FIELDS) left out."""
    return [{name: getattr(row, name) for name in ROW_FIELDS if name not in TIMING_FIELDS} for row in rows]

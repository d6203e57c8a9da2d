"""What a table is, and how a grid of one is made: the `Table` every renderer lays out, the
long-form frame of the rows (`Results.to_frame()`, one line per tokenizer and language) and its
pivot into tokenizers down, languages across.

A `Table` is plain strings already rounded for reading (by one of naming.py's `fmt_*`
formatters); pages/markdown.py and pages/html.py only lay it out, so both reports always show the
same figures.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import pandas as pd

from benchmark.report.naming import LOSSLESS_SHARE, LOSSY_MARK, language_label
from benchmark.report.view import ReportView

SKIPPED = "skipped"


@dataclass(frozen=True)
class Table:
    key: str  # a short name, used as the HTML id
    title: str
    headers: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]
    note: str = ""
    # Columns holding numbers: right-aligned, and sorted as numbers in the HTML page.
    numeric: tuple[bool, ...] = field(default=())
    # The cells showing a language's premium over the reference, as (row, column, tokenizer, language),
    # and how they write it ("interval", "plain" or "x"): what the page's base switch rewrites.
    premium_cells: tuple[tuple[int, int, str, str], ...] = ()
    premium_style: str = ""


def measured_frame(results: ReportView) -> pd.DataFrame:
    """The rows in long form, with `ok` (the row was measured)."""
    frame = results.to_frame()
    return frame.assign(ok=frame["status"].eq("ok"))


def _values(column: pd.Series) -> list:
    """A column as Python values, None where the row has none (NaN in the frame): what the
    formatters take."""
    return [None if pd.isna(value) else value for value in column.tolist()]


def column_text(frame: pd.DataFrame, fmt: Callable[..., str], *columns: str) -> pd.Series:
    """`fmt(value, ...)` of the named columns, line by line, as a column of text."""
    return pd.Series(list(map(fmt, *(_values(frame[c]) for c in columns))), index=frame.index, dtype=object)


def pivot(
    results: ReportView,
    frame: pd.DataFrame,
    key: str,
    title: str,
    text: pd.Series,
    note: str = "",
    lossy: pd.Series | None = None,
    lossy_text: str = "the language's sentences",
    tokenizers: list[str] | None = None,
) -> Table:
    """Tokenizers down (`tokenizers`, default every one), languages across: `text` (a cell per line
    of `frame`) pivoted; a skipped row reads 'skipped', a missing one is blank. A cell whose
    figure counts text the tokenizer changed (`lossy`, e.g. `lossy_lines(frame)`) gets
    LOSSY_MARK, and the note says why."""
    languages = results.languages
    tokenizers = tokenizers if tokenizers is not None else results.tokenizers
    if not tokenizers:
        return Table(key, title, ("tokenizer",), (), "")
    cells = text.where(frame["ok"], SKIPPED)
    marked = frame["ok"] & cells.ne("") & (lossy if lossy is not None else False)
    marked &= frame["tokenizer"].isin(tokenizers)
    # After a space: the page's sort reads the number before it.
    cells = cells.where(~marked, cells + f" {LOSSY_MARK}")
    grid = (
        frame.assign(cell=cells)
        .pivot(index="tokenizer", columns="language", values="cell")
        .reindex(index=tokenizers, columns=languages)
        .fillna("")
    )
    if marked.any():
        note += (f" {LOSSY_MARK}: this tokenizer gave back under {LOSSLESS_SHARE:.0%} of {lossy_text} exactly, "
                 "so the figure counts text it changed (see the round-trip table).")
    headers = ("tokenizer", *(language_label(results, code) for code in languages))
    rows = tuple(tuple(line) for line in grid.itertuples(name=None))
    return languages_down(results, Table(key, title, headers, rows, note.strip(), (False,) + (True,) * len(languages)))


def grid_cells(results: ReportView, table: Table, tokenizers: list[str]) -> tuple[tuple[int, int, str, str], ...]:
    """`Table.premium_cells` of a `pivot` of `tokenizers`: every cell with a figure, with its
    tokenizer and language, whichever way `languages_down` turned the grid."""
    languages = results.languages
    down = table.headers[:1] == ("language",)  # languages_down turned it
    cells = []
    for r, row in enumerate(table.rows):
        for c, text in enumerate(row[1:], start=1):
            if text and text != SKIPPED:
                tokenizer, language = (tokenizers[c - 1], languages[r]) if down else (tokenizers[r], languages[c - 1])
                cells.append((r, c, tokenizer, language))
    return tuple(cells)


def languages_down(results: ReportView, table: Table) -> Table:
    """A grid of tokenizers down and languages across, turned languages down when the run has more
    languages than fit across a page (view.MANY_LANGUAGES): a few columns, a row per language."""
    if not results.many or not table.rows:
        return table
    headers = ("language", *(row[0] for row in table.rows))
    rows = tuple((header, *(row[k] for row in table.rows)) for k, header in enumerate(table.headers) if k)
    cells = tuple((c - 1, r + 1, tokenizer, language) for r, c, tokenizer, language in table.premium_cells)
    return Table(table.key, table.title, headers, rows, table.note, (False,) + (True,) * len(table.rows),
                 cells, table.premium_style)

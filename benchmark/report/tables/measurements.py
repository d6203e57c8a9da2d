"""The tables of what was measured, for every tokenizer of the run: results.csv (every row at full
precision), the grids of tokens per sentence, premium, bytes per token, throughput and round
trips (table.py's `pivot`), the tokenizer table (by `groupby`) and the table of all measurements
(the frame itself, sorted).
"""

from __future__ import annotations

import csv
import io
from collections.abc import Callable
from dataclasses import replace

import pandas as pd

from benchmark.adapters.families import family_name, tokenizer_sort_key
from benchmark.plumbing.escaping import csv_cell
from benchmark.report.facts.analysis import has_yardstick_ratios, has_yardstick_row, lossy_lines
from benchmark.report.naming import (
    clock_name,
    fmt_int,
    fmt_one_decimal,
    fmt_rate_percent,
    fmt_ratio,
    fmt_ratio_interval,
    fmt_rounded,
    fmt_seconds,
    fmt_speed,
    fmt_times,
    language_label,
    repeats_phrase,
    skip_reason,
)
from benchmark.report.tables.table import SKIPPED, Table, column_text, grid_cells, measured_frame, pivot
from benchmark.report.view import ReportView
from benchmark.results.rows import ROW_FIELDS


def results_csv(results: ReportView) -> str:
    """Every row, every column, full precision; the header equals `ROW_FIELDS`."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(ROW_FIELDS)
    for row in sorted(results.rows, key=lambda r: (tokenizer_sort_key(r), r.language)):
        # repr of a float is the shortest text that reads back as the same float.
        writer.writerow(["" if v is None else repr(v) if isinstance(v, float) else csv_cell(v)
                         for v in row.to_dict().values()])
    return buffer.getvalue()


def tokens_per_sentence_table(results: ReportView, tokenizers: list[str] | None = None, *,
                              key: str = "tokens_per_sentence",
                              title: str = "Cost: tokens per sentence (mean; the same sentences in every language)"
                              ) -> Table:
    frame = measured_frame(results)
    return pivot(
        results,
        frame,
        key,
        title,
        column_text(frame, fmt_one_decimal, "tokens_per_sentence"),
        note="What a language costs under each tokenizer, comparable down a column and across a row: the "
        "sentences are translations of each other. Lower is cheaper.",
        lossy=lossy_lines(frame),
        tokenizers=tokenizers,
    )


def premium_table(results: ReportView, tokenizers: list[str] | None = None, *, key: str = "premium",
                  title: str | None = None) -> Table:
    frame = measured_frame(results)
    reference = results.reference
    ref_name = results.record.language_names.get(reference, reference)
    # A premium divides by the reference's count: changed text on either side changes it.
    at_reference = frame["language"].eq(reference)
    reference_lossy = lossy_lines(frame)[at_reference].set_axis(frame["tokenizer"][at_reference])
    lossy = lossy_lines(frame) | frame["tokenizer"].map(reference_lossy).eq(True)
    # The reference's own cell is 1.00 by definition: no interval beside it.
    shown = frame.assign(premium_ci_low=frame["premium_ci_low"].where(~at_reference))
    table = pivot(
        results,
        frame,
        key,
        title or f"Token premium: tokens for the same sentences relative to {ref_name} (95% CI)",
        column_text(shown, fmt_ratio_interval, "premium", "premium_ci_low", "premium_ci_high"),
        note=f"1.00 = as many tokens as {ref_name} under the same tokenizer; 2.00 = twice as many. Lower is "
        "cheaper. A premium compares a language with the reference within one tokenizer: a tokenizer with a "
        "small premium can still need more tokens than another (see tokens per sentence).",
        lossy=lossy,
        lossy_text=f"the language's or {ref_name}'s sentences",
        tokenizers=tokenizers,
    )
    listed = tokenizers if tokenizers is not None else results.tokenizers
    return replace(table, premium_cells=grid_cells(results, table, listed), premium_style="interval")


def bytes_per_token_table(results: ReportView, tokenizers: list[str] | None = None) -> Table:
    frame = measured_frame(results)
    return pivot(
        results,
        frame,
        "bytes_per_token",
        "Compression: UTF-8 bytes per token",
        column_text(frame, fmt_ratio, "bytes_per_token"),
        note="Higher is better: each token carries more text. Compare one language across tokenizers, not "
        "languages with each other: UTF-8 takes 2 bytes for a Cyrillic letter and 3 for a kana, kanji or Hangul "
        "syllable, so those languages show more bytes per token for the same cost in tokens.",
        lossy=lossy_lines(frame),
        tokenizers=tokenizers,
    )


def throughput_table(results: ReportView) -> Table:
    frame = measured_frame(results)
    unseen = ("Timed on the measured sentences, after a warm-up on other text of the same language where the "
              "run had some, so caches hold no measured text (see how the figures were measured).")
    how = f"one thread, {repeats_phrase(results)}"
    if not has_yardstick_ratios(results):  # a results.json from before the yardstick
        return pivot(results, frame, "throughput", f"Encoder throughput, MB/s of UTF-8 text ({how})",
                      column_text(frame, fmt_speed, "throughput_mb_s"), note=unseen)
    itself = (" The tiktoken/cl100k_base row is tiktoken timed against itself: how far it strays from 1.0x is "
              "the noise left." if has_yardstick_row(results) else "")
    return pivot(
        results,
        frame,
        "throughput",
        f"Encoder throughput in multiples of tiktoken cl100k_base's ({how})",
        column_text(frame, fmt_times, "throughput_x_tiktoken"),
        note="1.0x = as fast as tiktoken's cl100k_base on the same sentences; 0.25x = a quarter of its speed. "
        "Each repeat times the tokenizer and tiktoken in turns on the same sentences, so a machine that slows "
        "down for a while slows both, and the ratio is much steadier than MB/s." + itself + " MB/s is in the "
        "table of all measurements and in results.csv. " + unseen,
    )


def roundtrip_table(results: ReportView) -> Table:
    frame = measured_frame(results)
    return pivot(
        results,
        frame,
        "roundtrip",
        "Round-trip fidelity: share of sentences with decode(encode(s)) == s",
        column_text(frame, fmt_rate_percent, "roundtrip_rate"),
        note="Below 100% means the tokenizer normalises or loses text (spaces, accents, unknown characters).",
    )


def _status(rows: pd.DataFrame) -> str:
    """'ok', 'skipped: <reasons>' or 'skipped on <languages>: <reasons>', from one tokenizer's rows."""
    skipped = rows[~rows["ok"]]
    if skipped.empty:
        return "ok"
    reasons = "; ".join(sorted({skip_reason(status) for status in skipped["status"]}))
    if len(skipped) == len(rows):
        return "skipped: " + reasons
    return f"skipped on {', '.join(sorted(skipped['language']))}: " + reasons


def tokenizer_table(results: ReportView) -> Table:
    """One line per tokenizer: what it is, what it cost to train, and why it was skipped."""
    frame = measured_frame(results)
    by_tokenizer = frame.groupby("tokenizer")
    # first(): each column's first value that is not NaN, so the training time of any row that has one.
    tokenizers = by_tokenizer.first().reindex(results.tokenizers)
    status = by_tokenizer[["ok", "status", "language"]].apply(_status).reindex(tokenizers.index)
    rare = {s.tokenizer: s.rare_entry_share for s in results.summaries}
    columns = (
        tokenizers.index.to_series(),
        tokenizers["family"].map(family_name),
        column_text(tokenizers, fmt_int, "vocab_size"),
        column_text(tokenizers, fmt_seconds, "train_seconds"),
        column_text(tokenizers, fmt_int, "embedding_params"),
        tokenizers.index.to_series().map(lambda tid: fmt_rate_percent(rare.get(tid))),
        status,
    )
    headers = ("tokenizer", "family", "vocab size", "train seconds", "embedding params (x768)",
               "rare entries (< 10 in its training text)", "status")
    return Table(
        "tokenizers",
        "Tokenizers",
        headers,
        tuple(zip(*(column.tolist() for column in columns))),
        note="Train seconds: wall time of one training run on the training text (blank for vocabularies we did "
        "not train). Embedding params: vocabulary size x 768, the rows of an embedding table as wide as "
        "BERT-base's or GPT-2 small's. Rare entries: the share of a trained tokenizer's vocabulary that occurs "
        "fewer than 10 times when it encodes its own training text (each language as often as its mix weighs "
        "it): rows of that table that training barely updates.",
        numeric=(False, False, True, True, True, True, False),
    )


def all_rows_table(results: ReportView) -> Table:
    """The measurement table a reader sorts: one line per tokenizer x language."""
    ratios = has_yardstick_ratios(results)
    columns: list[tuple[str, Callable[..., str], str]] = [
        ("tokens", fmt_int, "n_tokens"),
        ("tokens / sentence", fmt_one_decimal, "tokens_per_sentence"),
        ("bytes / token", fmt_ratio, "bytes_per_token"),
        ("chars / token", fmt_ratio, "chars_per_token"),
        ("premium", fmt_ratio, "premium"),
        ("unk", fmt_rate_percent, "unk_rate"),
        ("byte fallback", fmt_rate_percent, "byte_fallback_rate"),
        ("round trip", fmt_rate_percent, "roundtrip_rate"),
        ("vocab used", fmt_rate_percent, "vocab_utilisation"),
        ("MB/s", fmt_speed, "throughput_mb_s"),
        *([("x tiktoken", fmt_times, "throughput_x_tiktoken")] if ratios else []),
        ("tokens/s", fmt_rounded, "tokens_per_second"),
    ]
    tokenizer_rank = {tid: k for k, tid in enumerate(results.tokenizers)}
    language_rank = {code: k for k, code in enumerate(results.languages)}
    frame = measured_frame(results)
    frame = (frame.assign(_tokenizer=frame["tokenizer"].map(tokenizer_rank),
                          _language=frame["language"].map(language_rank))
             .sort_values(["_tokenizer", "_language"], kind="stable"))
    # A skipped row says so in its first column and leaves the others blank.
    cells = pd.DataFrame({name: column_text(frame, fmt, column).where(frame["ok"], "") for name, fmt, column in columns})
    cells[columns[0][0]] = cells[columns[0][0]].where(frame["ok"], SKIPPED)
    cells.insert(0, "language", frame["language"].map(lambda code: language_label(results, code)))
    cells.insert(0, "tokenizer", frame["tokenizer"])
    cells["status"] = frame["status"]
    at = 2 + [name for name, _, _ in columns].index("premium")
    premiums = tuple((r, at, tokenizer, language) for r, (tokenizer, language, ok, premium)
                     in enumerate(zip(frame["tokenizer"], frame["language"], frame["ok"], frame["premium"]))
                     if ok and not pd.isna(premium))
    return Table(
        "all_rows",
        "All measurements",
        ("tokenizer", "language", *(name for name, _, _ in columns), "status"),
        tuple(cells.itertuples(index=False, name=None)),
        note="unk: share of tokens that are the unknown token; byte fallback: share of tokens that are "
        "byte-fallback pieces (a character spelt as its UTF-8 bytes); round trip: share of sentences with "
        "decode(encode(s)) == s; vocab used: share of the vocabulary that this language's sentences use; MB/s: "
        f"megabytes (10^6 bytes) of UTF-8 encoded per {clock_name(results)} second" + (
            "; x tiktoken: throughput in multiples of tiktoken cl100k_base's, timed in turns with it on the same "
            "sentences. Rank tokenizers by x tiktoken, not MB/s: each row's MB/s was timed at its own moment, and "
            "a machine's speed moves, so MB/s can order two rows the other way round" if ratios else "") + ". A blank "
        "cell does not apply (the model has no unknown token, or no byte-fallback pieces). Rounded for reading; "
        "results.csv holds every column at full precision.",
        numeric=(False, False) + (True,) * len(columns) + (False,),
        premium_cells=premiums,
        premium_style="plain",
    )

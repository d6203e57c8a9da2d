"""Tables: the full-precision CSV, and the rounded tables that README.md and index.html show.

A `Table` is plain strings already rounded for reading; `to_markdown` and the HTML writer only lay
it out, so both reports always show the same figures.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Callable
from dataclasses import dataclass, field

from benchmark.adapters.families import family_name
from benchmark.report.analysis import has_yardstick_ratios, has_yardstick_row, is_lossy, row_index
from benchmark.report.naming import (
    LOSSLESS_SHARE,
    LOSSY_MARK,
    clock_name,
    fmt_int,
    fmt_rate_percent,
    fmt_ratio,
    fmt_seconds,
    fmt_speed,
    fmt_times,
    language_label,
    ordered_languages,
    ordered_tokenizers,
    reference_language,
    repeats_phrase,
    skip_reason,
    tokenizer_sort_key,
)
from benchmark.results import ROW_FIELDS, ResultRow, Results

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


def results_csv(results: Results) -> str:
    """Every row, every column, full precision; the header equals `ROW_FIELDS`."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(ROW_FIELDS)
    for row in sorted(results.rows, key=lambda r: (tokenizer_sort_key(r), r.language)):
        # repr of a float is the shortest text that reads back as the same float.
        writer.writerow(["" if v is None else repr(v) if isinstance(v, float) else v for v in row.to_dict().values()])
    return buffer.getvalue()


def _pivot(
    results: Results,
    key: str,
    title: str,
    cell: Callable[[ResultRow], str],
    note: str = "",
    languages: list[str] | None = None,
    mark_lossy: Callable[[ResultRow], bool] | None = None,
    lossy_text: str = "the language's sentences",
) -> Table:
    """Tokenizers down, languages across; a skipped row reads 'skipped'. A cell whose figure
    counts text the tokenizer changed (`mark_lossy(row)`, e.g. `is_lossy`) gets LOSSY_MARK, and
    the note says why."""
    index = row_index(results)
    languages = languages if languages is not None else ordered_languages(results)
    rows = []
    marked = False
    for tid in ordered_tokenizers(results.rows):
        cells = []
        for language in languages:
            row = index.get((tid, language))
            text = "" if row is None else cell(row) if row.ok else SKIPPED
            if mark_lossy is not None and row is not None and row.ok and text and mark_lossy(row):
                text += f" {LOSSY_MARK}"  # after a space: the page's sort reads the number before it
                marked = True
            cells.append(text)
        rows.append((tid, *cells))
    if marked:
        note += (f" {LOSSY_MARK}: this tokenizer gave back under {LOSSLESS_SHARE:.0%} of {lossy_text} exactly, "
                 "so the figure counts text it changed (see the round-trip table).")
    headers = ("tokenizer", *(language_label(results, code) for code in languages))
    return Table(key, title, headers, tuple(rows), note.strip(), (False,) + (True,) * len(languages))


def tokens_per_sentence_table(results: Results) -> Table:
    return _pivot(
        results,
        "tokens_per_sentence",
        "Cost: tokens per sentence (mean; the same sentences in every language)",
        lambda row: f"{row.tokens_per_sentence:.1f}" if row.tokens_per_sentence is not None else "",
        note="What a language costs under each tokenizer, comparable down a column and across a row: the "
        "sentences are translations of each other. Lower is cheaper.",
        mark_lossy=is_lossy,
    )


def premium_table(results: Results) -> Table:
    reference = reference_language(results)
    index = row_index(results)
    ref_name = results.record.language_names.get(reference, reference)

    def lossy_premium(row: ResultRow) -> bool:
        # A premium divides by the reference's count: changed text on either side changes it.
        reference_row = index.get((row.tokenizer, reference))
        return is_lossy(row) or (reference_row is not None and is_lossy(reference_row))

    def cell(row: ResultRow) -> str:
        if row.premium is None:
            return ""
        if row.language == reference or row.premium_ci_low is None or row.premium_ci_high is None:
            return fmt_ratio(row.premium)
        return f"{row.premium:.2f} ({row.premium_ci_low:.2f}-{row.premium_ci_high:.2f})"

    return _pivot(
        results,
        "premium",
        f"Token premium: tokens for the same sentences relative to {ref_name} (95% CI)",
        cell,
        note=f"1.00 = as many tokens as {ref_name} under the same tokenizer; 2.00 = twice as many. Lower is "
        "cheaper. A premium compares a language with the reference within one tokenizer: a tokenizer with a "
        "small premium can still need more tokens than another (see tokens per sentence).",
        mark_lossy=lossy_premium,
        lossy_text=f"the language's or {ref_name}'s sentences",
    )


def bytes_per_token_table(results: Results) -> Table:
    return _pivot(
        results,
        "bytes_per_token",
        "Compression: UTF-8 bytes per token",
        lambda row: fmt_ratio(row.bytes_per_token),
        note="Higher is better: each token carries more text. Compare one language across tokenizers, not "
        "languages with each other: UTF-8 takes 2 bytes for a Cyrillic letter and 3 for a kana, kanji or Hangul "
        "syllable, so those languages show more bytes per token for the same cost in tokens.",
        mark_lossy=is_lossy,
    )


def throughput_table(results: Results) -> Table:
    unseen = ("Timed on the measured sentences, after a warm-up on other text of the same language where the "
              "run had some, so caches hold no measured text (see how the figures were measured).")
    how = f"one thread, {repeats_phrase(results)}"
    if not has_yardstick_ratios(results):  # a results.json from before the yardstick
        return _pivot(results, "throughput", f"Encoder throughput, MB/s of UTF-8 text ({how})",
                      lambda row: fmt_speed(row.throughput_mb_s), note=unseen)
    itself = (" The tiktoken/cl100k_base row is tiktoken timed against itself: how far it strays from 1.0x is "
              "the noise left." if has_yardstick_row(results) else "")
    return _pivot(
        results,
        "throughput",
        f"Encoder throughput in multiples of tiktoken cl100k_base's ({how})",
        lambda row: fmt_times(row.throughput_x_tiktoken),
        note="1.0x = as fast as tiktoken's cl100k_base on the same sentences; 0.25x = a quarter of its speed. "
        "Each repeat times the tokenizer and tiktoken in turns on the same sentences, so a machine that slows "
        "down for a while slows both, and the ratio is much steadier than MB/s." + itself + " MB/s is in the "
        "table of all measurements and in results.csv. " + unseen,
    )


def roundtrip_table(results: Results) -> Table:
    return _pivot(
        results,
        "roundtrip",
        "Round-trip fidelity: share of sentences with decode(encode(s)) == s",
        lambda row: fmt_rate_percent(row.roundtrip_rate),
        note="Below 100% means the tokenizer normalises or loses text (spaces, accents, unknown characters).",
    )


def tokenizer_table(results: Results) -> Table:
    """One line per tokenizer: what it is, what it cost to train, and why it was skipped."""
    by_tokenizer: dict[str, list[ResultRow]] = {}
    for row in results.rows:
        by_tokenizer.setdefault(row.tokenizer, []).append(row)
    rows = []
    for tid in ordered_tokenizers(results.rows):
        group = by_tokenizer[tid]
        first = group[0]
        train = next((r.train_seconds for r in group if r.train_seconds is not None), None)
        skipped = sorted({skip_reason(r.status) for r in group if not r.ok})
        n_skipped = sum(not r.ok for r in group)
        if not skipped:
            status = "ok"
        elif n_skipped == len(group):
            status = "skipped: " + "; ".join(skipped)
        else:
            langs = ", ".join(sorted(r.language for r in group if not r.ok))
            status = f"skipped on {langs}: " + "; ".join(skipped)
        rows.append(
            (
                tid,
                family_name(first.family),
                fmt_int(first.vocab_size),
                fmt_seconds(train),
                fmt_int(first.embedding_params),
                status,
            )
        )
    headers = ("tokenizer", "family", "vocab size", "train seconds", "embedding params (x768)", "status")
    return Table(
        "tokenizers",
        "Tokenizers",
        headers,
        tuple(rows),
        note="Train seconds: wall time of one training run on the training text (blank for vocabularies we did "
        "not train). Embedding params: vocabulary size x 768, the rows of an embedding table as wide as "
        "BERT-base's or GPT-2 small's.",
        numeric=(False, False, True, True, True, False),
    )


def all_rows_table(results: Results) -> Table:
    """The measurement table a reader sorts: one line per tokenizer x language."""
    ratios = has_yardstick_ratios(results)
    columns: list[tuple[str, Callable[[ResultRow], str]]] = [
        ("tokens", lambda r: fmt_int(r.n_tokens)),
        ("tokens / sentence", lambda r: f"{r.tokens_per_sentence:.1f}" if r.tokens_per_sentence is not None else ""),
        ("bytes / token", lambda r: fmt_ratio(r.bytes_per_token)),
        ("chars / token", lambda r: fmt_ratio(r.chars_per_token)),
        ("premium", lambda r: fmt_ratio(r.premium)),
        ("unk", lambda r: fmt_rate_percent(r.unk_rate)),
        ("byte fallback", lambda r: fmt_rate_percent(r.byte_fallback_rate)),
        ("round trip", lambda r: fmt_rate_percent(r.roundtrip_rate)),
        ("vocab used", lambda r: fmt_rate_percent(r.vocab_utilisation)),
        ("MB/s", lambda r: fmt_speed(r.throughput_mb_s)),
        *([("x tiktoken", lambda r: fmt_times(r.throughput_x_tiktoken))] if ratios else []),
        ("tokens/s", lambda r: fmt_int(round(r.tokens_per_second)) if r.tokens_per_second is not None else ""),
    ]
    languages = ordered_languages(results)
    rows = []
    for row in sorted(results.rows, key=lambda r: (tokenizer_sort_key(r), languages.index(r.language))):
        if row.ok:
            cells = tuple(fn(row) for _, fn in columns)
        else:
            cells = (SKIPPED,) + ("",) * (len(columns) - 1)
        rows.append((row.tokenizer, language_label(results, row.language), *cells, row.status))
    return Table(
        "all_rows",
        "All measurements",
        ("tokenizer", "language", *(name for name, _ in columns), "status"),
        tuple(rows),
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
    )


def report_tables(results: Results) -> list[Table]:
    """The tables of README.md, in reading order (index.html adds `all_rows_table`)."""
    return [
        tokens_per_sentence_table(results),
        premium_table(results),
        bytes_per_token_table(results),
        throughput_table(results),
        roundtrip_table(results),
        tokenizer_table(results),
    ]


def _escape_markdown(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def to_markdown(table: Table) -> str:
    numeric = table.numeric or (False,) * len(table.headers)
    lines = [
        "| " + " | ".join(_escape_markdown(h) for h in table.headers) + " |",
        "|" + "|".join("---:" if is_number else "---" for is_number in numeric) + "|",
    ]
    lines += ["| " + " | ".join(_escape_markdown(c) for c in row) + " |" for row in table.rows]
    text = f"### {table.title}\n\n" + "\n".join(lines) + "\n"
    if table.note:
        text += f"\n{table.note}\n"
    return text

"""Per-line domain labels of a parallel corpus (what kind of text line N is), and one domain's lines.

A label belongs to a line, not to a language: line N is the same content in every file, so it is
the same kind of text in every language. Where the labels are:

- a user's folder: `domains.tsv` beside the `<code>.txt` files of a split (in the folder itself,
  or in `dev/` and `devtest/`): a header line `domain`, then one label per corpus line;
- the bundled FLORES-200: the `domain` column of its `metadata_<split>.tsv` (wikinews, wikibooks,
  wikivoyage: the source each English sentence was taken from).

A corpus without labels has none (`Corpus.domains` empty); a file that has them but does not fit
(another line count, an empty label) is one error naming the file and the line.
"""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path

from benchmark.corpora.corpus import Corpus
from benchmark.plumbing.errors import BenchmarkError
from benchmark.plumbing.fileio import check_regular_file

DOMAINS_FILE = "domains.tsv"
_HEADER = "domain"
# A label names a kind of text in tables and file names: letters, digits, '_', '-', '.'.
_LABEL = re.compile(r"[^\W_][\w.-]*")


def read_domain_labels(path: Path, n_lines: int) -> tuple[str, ...]:
    """`domains.tsv` (header `domain`, then one label per line) as a label per corpus line;
    `n_lines`: the split's line count, which the file must match."""
    path = Path(path)
    check_regular_file(path, "domain labels file", hint=f"a {DOMAINS_FILE} holds a header `domain` and one label a line")
    try:
        text = path.read_bytes().decode("utf-8")
    except UnicodeDecodeError as exc:
        raise BenchmarkError(f"{path}: not valid UTF-8 (at byte {exc.start}); save it as UTF-8") from None
    header, *labels = text.removesuffix("\n").split("\n") if text else [""]
    if header.strip() != _HEADER:
        raise BenchmarkError(f"{path}:1: header {header[:40]!r}, expected {_HEADER!r} (then one label per corpus line)")
    return _checked(labels, path, n_lines, first_line=2)


def read_metadata_domains(path: Path, n_lines: int) -> tuple[str, ...]:
    """The `domain` column of a FLORES-200 `metadata_<split>.tsv` (a header, then a row per line)."""
    path = Path(path)
    check_regular_file(path, "metadata file", hint="restore it with `git checkout corpora/`")
    header, *rows = path.read_text(encoding="utf-8").removesuffix("\n").split("\n")
    columns = header.split("\t")
    if _HEADER not in columns:
        raise BenchmarkError(f"{path}:1: no {_HEADER!r} column (columns: {', '.join(columns)})")
    at = columns.index(_HEADER)
    labels = [row.split("\t")[at] if len(row.split("\t")) > at else "" for row in rows]
    return _checked(labels, path, n_lines, first_line=2)


def _checked(labels: list[str], path: Path, n_lines: int, *, first_line: int) -> tuple[str, ...]:
    labels = [label.removesuffix("\r").strip() for label in labels]
    if len(labels) != n_lines:
        raise BenchmarkError(f"{path}: {len(labels)} labels for {n_lines} corpus lines; "
                             "one label per line of the corpus files, in their order")
    for number, label in enumerate(labels, start=first_line):
        if not _LABEL.fullmatch(label):
            raise BenchmarkError(f"{path}:{number}: {label[:40]!r} is not a domain label "
                                 "(letters, digits, '_', '-' or '.', e.g. news)")
    return tuple(labels)


def domain_names(labels: tuple[str, ...]) -> tuple[str, ...]:
    """The distinct labels, sorted."""
    return tuple(sorted(set(labels)))


def domain_line_indices(labels: tuple[str, ...]) -> dict[str, tuple[int, ...]]:
    """domain -> the 0-based line numbers that carry it, domains sorted."""
    found: dict[str, list[int]] = {}
    for index, label in enumerate(labels):
        found.setdefault(label, []).append(index)
    return {name: tuple(found[name]) for name in sorted(found)}


def only_domain(corpus: Corpus, domain: str) -> Corpus:
    """`corpus` with its measured split cut to the lines labelled `domain` (every language alike,
    so line N stays the same content); training text is left whole. An unknown domain, or a corpus
    without labels, is one error naming what there is."""
    split = corpus.measure_split
    labels = corpus.domains.get(split)
    if not labels:
        raise BenchmarkError(f"--domain {domain!r}: corpus {corpus.name} ({corpus.root}) has no domain labels "
                             f"for its {split} lines; give them in {DOMAINS_FILE} (header `domain`, one label a line)")
    names = domain_names(labels)
    if domain not in names:
        raise BenchmarkError(f"--domain {domain!r}: not a domain of corpus {corpus.name}; its domains: {', '.join(names)}")
    keep = domain_line_indices(labels)[domain]
    lines = {code: tuple(text[i] for i in keep) for code, text in corpus.splits[split].items()}
    return dataclasses.replace(corpus, splits={**corpus.splits, split: lines},
                               domains={**corpus.domains, split: tuple(labels[i] for i in keep)},
                               domain=domain)

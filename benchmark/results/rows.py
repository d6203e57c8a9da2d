"""Result rows and `results.json`: immutable, validated when built, saved as versioned JSON.

Data flows one way: the run builds `ResultRow`s and a `RunRecord` (record.py), `save_results`
writes `results.json`, and every writer (CSV, Markdown, HTML, plots) reads only that file's
content, so reports can be rendered again from a saved run without measuring anything.

In a notebook:

    >>> from benchmark.results.rows import load_results
    >>> frame = load_results("reports/results.json").to_frame()   # doctest: +SKIP
    >>> frame.pivot(index="tokenizer", columns="language", values="tokens_per_sentence")  # doctest: +SKIP

The CSV header equals `ROW_FIELDS`, in that order.
"""

from __future__ import annotations

import dataclasses
import json
import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from benchmark.plumbing.errors import BenchmarkError
from benchmark.plumbing.escaping import csv_cell
from benchmark.plumbing.fileio import atomic_write_text, read_versioned_json
from benchmark.results import metrics
from benchmark.results.bases import BasePremiums
from benchmark.results.calibration import CalibrationEntry
from benchmark.results.calibration_domains import DomainCalibrationEntry, domains_from_list
from benchmark.results.code import CodeCosts
from benchmark.results.domain_premiums import DomainPremium
from benchmark.results.groups import GroupSummary
from benchmark.results.pairwise import PairwiseRatio, PairwiseRatios
from benchmark.results.record import RecordError, RunRecord, from_plain

# History of the file format (pyperf's habit: say what changed).
#   1: first version ({"format_version": 1, ...}).
#   2: rows gain throughput_x_tiktoken (version 1 files are read with it None), and the record's
#      settings.timing.clock names the clock of throughput_mb_s and tokens_per_second (a record
#      without it: the wall clock, as version 1).
#   3: {"format": "tokencost-results", "version": 3}; the record is typed (record.py) and refused
#      when a field has the wrong type; it gains the timed sample, where counting ran, the
#      training mixes, the phases' seconds, each production tokenizer's `source` (package,
#      version, file and SHA-256 of its vocabulary file), the word and distribution columns
#      (ADDED_ROW_FIELDS), "summaries" (one `TokenizerSummary` per tokenizer), settings.words,
#      settings.distribution, and each language's script and the right-to-left ones
#      (language_scripts, right_to_left). Versions 1 and 2 are read, their unknown record keys dropped; files
#      written while format 3 was being made read what they lack as None, empty or blank.
#   4: rows gain the premium's decomposition (byte_premium, char_premium, tokenizer_factor,
#      n_compressed_bytes, information_floor, excess_premium) and intervals of fertility and the
#      whole-word rate (and, for production tokenizers, of the Rényi efficiency: files written
#      before it read it as None); the file gains "pairwise" (results/pairwise.py: each language's ratio of
#      token totals between two production tokenizers, with its interval) and the record's
#      settings.premium.floor; each tokenizer's entry in the record gains `models` (the models that
#      use it, each with its source). Versions 1-3 are read with those None or empty.
#   5: the file gains "calibration" (results/calibration.py: each production tokenizer's tokens per
#      character and per UTF-8 byte fitted on dev, per language, script and all languages, with
#      their held-out errors on devtest and those of characters / 4) and the record's
#      settings.calibration (how it was fitted, or why there is none). Versions 1-4 are read with
#      no calibration and settings.calibration None.
#   6: the file gains "bases" (results/bases.py: premiums' intervals over further base languages,
#      `run --bases`) and "domain_premiums" (results/domain_premiums.py: on a corpus with per-line
#      domain labels, each tokenizer's premium per domain with its interval), and the record gains
#      settings.domain (--domain), and "groups" (results/groups.py: each tokenizer's premium with its
#      interval and Gini per language family and per resource class). Versions 1-5 are read with
#      premiums over their reference only, no domain premiums, no groups and settings.domain None.
#      Within format 6 it gains "code" (results/code.py: each tokenizer's tokens on the pinned code
#      sample per programming language); a file without it reads as having none.
#      Later in 6: "calibration_domains" (results/calibration_domains.py: the calibration fitted and
#      checked per domain of a labelled corpus); a file without it reads with none, and a reader
#      from before it ignores it, so the version stays.
RESULTS_FORMAT = "tokencost-results"
RESULTS_FORMAT_VERSION = 6
READABLE_FORMAT_VERSIONS = (1, 2, 3, 4, 5, 6)
_HINT = "run `python -m benchmark run` again to regenerate it"

STATUS_PREFIXES = ("skipped: ", "failed: ")

# A row field's annotation -> the types its value may have (ints are fine where floats are).
_FIELD_TYPES = {"str": str, "int": int, "int | None": (int, type(None)), "float | None": (int, float, type(None))}


def _formula(formula: Callable[..., Any], **metadata: Any):
    """A column computed by `formula` (benchmark.results.metrics) from the counts its keyword
    arguments name (benchmark.measure.counting.build_row); None when any of them is None."""
    return field(metadata={"formula": formula, **metadata})


def _counted(*, unmeasured: Any = None, **metadata: Any):
    """A column the measuring phase gives as it is; `unmeasured` is its value on a skipped or
    failed row."""
    return field(metadata={"unmeasured": unmeasured, **metadata})


_MAX_COUNT = 1 << 63


@dataclass(frozen=True)
class ResultRow:
    """One tokenizer on one language. Float fields are None when not applicable or not measured.

    The fields are the row's schema: a `_formula` field names the pure function that computes it,
    a `_counted` one is given by the measuring phase (or known without measuring); build_row,
    unmeasured rows, JSON, CSV and `to_frame` all follow these declarations."""

    tokenizer: str  # the tokenizer's id, e.g. "bpe/balanced-4096", "tiktoken/o200k_base"
    family: str  # e.g. "bpe", "tiktoken", "sentencepiece-unigram", "hf-wordpiece", "hf-bpe"
    vocab_size: int
    language: str  # the corpus code, e.g. "jpn_Jpan"
    n_sentences: int
    n_tokens: int = _counted(unmeasured=0)  # sum over sentences, each encoded on its own as plain text
    n_bytes: int = _counted()  # UTF-8 bytes of the measured sentences (no newlines)
    n_chars: int = _counted()  # Unicode code points of the measured sentences
    n_words: int | None = _counted(added=3)  # words of the measured sentences (benchmark.words.segmenters); None: no segmenter
    n_compressed_bytes: int | None = _counted(added=4)  # the sentences compressed by lzma (benchmark.measure.floor)
    bytes_per_token: float | None = _formula(metrics.bytes_per_token)
    chars_per_token: float | None = _formula(metrics.chars_per_token)
    tokens_per_sentence: float | None = _formula(metrics.tokens_per_sentence)
    fertility: float | None = _formula(metrics.fertility, added=3)  # n_tokens / n_words
    fertility_ci_low: float | None = _counted(added=4)  # 95% bootstrap over sentences, the premium's resamples
    fertility_ci_high: float | None = _counted(added=4)
    whole_word_rate: float | None = _formula(metrics.whole_word_rate, added=3)  # share of words exactly one token overlaps
    whole_word_rate_ci_low: float | None = _counted(added=4)  # 95% bootstrap, the premium's resamples
    whole_word_rate_ci_high: float | None = _counted(added=4)
    continued_word_rate: float | None = _formula(metrics.continued_word_rate, added=3)  # share of words two or more tokens overlap
    premium: float | None = _formula(metrics.premium)  # n_tokens / reference language's n_tokens on the same lines
    premium_ci_low: float | None = _counted()  # 95% bootstrap over sentences, seeded
    premium_ci_high: float | None = _counted()
    byte_premium: float | None = _formula(metrics.byte_premium, added=4)  # n_bytes / the reference's n_bytes
    char_premium: float | None = _formula(metrics.char_premium, added=4)  # n_chars / the reference's n_chars
    # the reference's bytes per token / bytes_per_token: premium = byte_premium x tokenizer_factor
    tokenizer_factor: float | None = _formula(metrics.tokenizer_factor, added=4)
    # n_compressed_bytes / the reference's: what the content seems to need, knowing no tokenizer
    information_floor: float | None = _formula(metrics.information_floor, added=4)
    excess_premium: float | None = _formula(metrics.excess_premium, added=4)  # premium / information_floor
    unk_rate: float | None = _formula(metrics.unk_rate)  # share of tokens that are the unknown token
    byte_fallback_rate: float | None = _formula(metrics.byte_fallback_rate)  # share of tokens that are byte-fallback pieces
    partial_char_rate: float | None = _formula(metrics.partial_char_rate, added=3)  # share of tokens whose bytes are not valid UTF-8 alone
    roundtrip_rate: float | None = _formula(metrics.roundtrip_rate)  # share of sentences with decode(encode(s)) == s
    vocab_utilisation: float | None = _formula(metrics.vocab_utilisation)  # share of the vocabulary used on this language
    renyi_efficiency: float | None = _formula(metrics.renyi_efficiency, added=3)  # Rényi entropy (alpha 2.5) of the tokens / log2(vocab_size)
    # 95% bootstrap, the premium's resamples; production tokenizers only (methodology: its cost)
    renyi_efficiency_ci_low: float | None = _counted(added=4)
    renyi_efficiency_ci_high: float | None = _counted(added=4)
    train_seconds: float | None = _counted(timing=True)  # None for tokenizers we did not train
    throughput_mb_s: float | None = _counted(timing=True)  # single thread, median of repeats, unseen text
    tokens_per_second: float | None = _counted(timing=True)
    # throughput / tiktoken cl100k_base's on the same sentences, timed in turns (median of repeats)
    throughput_x_tiktoken: float | None = _counted(timing=True, added=2)
    embedding_params: int = _formula(metrics.embedding_params)  # vocab_size x 768
    status: str = _counted()  # "ok", "skipped: <reason>" or "failed: <reason>"

    def __post_init__(self) -> None:
        # One pass over the fields, each checked by its annotation: type, then counts >= 0 and
        # floats finite.
        for f in dataclasses.fields(self):
            value = getattr(self, f.name)
            if not isinstance(value, _FIELD_TYPES[f.type]) or isinstance(value, bool):
                raise ValueError(f"{f.name} must be {f.type}, got {value!r} (row {self.tokenizer!r}/{self.language!r})")
            if f.type.startswith("int") and value is not None and value < 0:
                raise ValueError(f"{f.name} must be >= 0 in {self.tokenizer}/{self.language}")
            if f.type.startswith("int") and value is not None and value >= _MAX_COUNT:
                # No run counts past 2**63, and the report's float division would overflow on it.
                raise ValueError(f"{f.name} must be below 2**63, got a number of {len(str(value))} digits "
                                 f"in {self.tokenizer}/{self.language}")
            if isinstance(value, float) and not math.isfinite(value):
                raise ValueError(f"{f.name} is {value} in {self.tokenizer}/{self.language}")
            if isinstance(value, float) and not 0 <= value < _MAX_COUNT:
                # Every figure of a row is a ratio of counts, a share, a rate or seconds: none is below 0
                # or past the counts' own bound (a doctored file's -1.5 premium, a 300-digit interval).
                raise ValueError(f"{f.name} must be from 0 to below 2**63, got {value:.6g} "
                                 f"in {self.tokenizer}/{self.language}")
        if self.throughput_x_tiktoken is not None and self.throughput_x_tiktoken <= 0:
            raise ValueError(f"throughput_x_tiktoken must be > 0, got {self.throughput_x_tiktoken} "
                             f"in {self.tokenizer}/{self.language}")
        if not self.tokenizer or not self.language:
            raise ValueError(f"result row needs a tokenizer and a language: {self!r}")
        if not (self.status == "ok" or self.status.startswith(STATUS_PREFIXES)):
            raise ValueError(f"status must be 'ok', 'skipped: <reason>' or 'failed: <reason>', got {self.status!r}")
        for name in ("unk_rate", "byte_fallback_rate", "partial_char_rate", "roundtrip_rate", "vocab_utilisation",
                     "whole_word_rate", "continued_word_rate", "renyi_efficiency"):
            share = getattr(self, name)
            if share is not None and not 0 <= share <= 1:
                raise ValueError(f"{name} is a share, from 0 to 1, got {share} in {self.tokenizer}/{self.language}")
        for name in ROW_INTERVALS:
            low, high = getattr(self, f"{name}_ci_low"), getattr(self, f"{name}_ci_high")
            if (low is None) != (high is None) or (low is not None and low > high):
                raise ValueError(f"{name}'s interval ({low}, {high}) is not an interval in {self.tokenizer}/{self.language}")
        if self.ok and self.n_sentences == 0:
            raise ValueError(f"a measured row has n_sentences 0 ({self.tokenizer}/{self.language})")

    @property
    def ok(self) -> bool:
        return self.status == "ok"

    @property
    def failed(self) -> bool:
        return self.status.startswith("failed: ")

    def to_dict(self) -> dict[str, Any]:
        return dataclasses.asdict(self)


ROW_FIELDS: tuple[str, ...] = tuple(f.name for f in dataclasses.fields(ResultRow))
# The columns with an interval: each has <name>_ci_low and <name>_ci_high beside it.
ROW_INTERVALS: tuple[str, ...] = tuple(name.removesuffix("_ci_low") for name in ROW_FIELDS if name.endswith("_ci_low"))
# Columns whose values are timings: the only ones allowed to differ between two runs of the same
# corpus and configuration.
TIMING_FIELDS: tuple[str, ...] = tuple(f.name for f in dataclasses.fields(ResultRow) if f.metadata.get("timing"))
# Column -> the format version it came in; a file of that version or older may lack it (format 3
# gained its columns while it was being made) and reads it as None.
ADDED_IN: dict[str, int] = {f.name: f.metadata["added"] for f in dataclasses.fields(ResultRow) if "added" in f.metadata}
ADDED_ROW_FIELDS = tuple(name for name, version in ADDED_IN.items() if version == 3)  # added within format 3


@dataclass(frozen=True)
class TokenizerSummary:
    """One tokenizer over every language of the run: how evenly it charges them for the same
    content, how it uses its vocabulary, and its vocabulary's health (benchmark.measure.summaries)."""

    tokenizer: str
    family: str
    vocab_size: int
    n_languages: int  # languages the fairness figures are over (all of the run's, or none)
    gini: float | None  # of the languages' n_tokens: sum_i sum_j |x_i - x_j| / (2 n^2 mean)
    gini_ci_low: float | None  # 95% bootstrap over sentences, the premium's resamples
    gini_ci_high: float | None
    worst_to_best: float | None  # the most n_tokens over the fewest
    worst_to_best_ci_low: float | None
    worst_to_best_ci_high: float | None
    worst_language: str | None
    best_language: str | None
    mean_premium: float | None  # mean of the premiums of the languages other than the reference
    mean_premium_ci_low: float | None
    mean_premium_ci_high: float | None
    renyi_efficiency: float | None  # of every language's tokens together
    n_partial_char_entries: int | None  # vocabulary entries whose bytes are not valid UTF-8 alone
    n_entries_checked: int | None  # entries that can stand alone, encoded on their own
    n_unreachable: int | None  # of those, the ones that do not encode to exactly themselves
    unreachable_examples: tuple[str, ...] = ()  # 'id "text" -> ids'
    entries_checked: str | None = None  # which entries were checked
    # trained tokenizers: share of entries seen fewer than 10 times when it encodes its own training text
    rare_entry_share: float | None = None
    note: str | None = None  # why figures are blank

    def __post_init__(self) -> None:
        where = f"summary of {self.tokenizer!r}"
        if not self.tokenizer:
            raise ValueError("a tokenizer summary needs a tokenizer id")
        for f in dataclasses.fields(self):
            value = getattr(self, f.name)
            if isinstance(value, bool) or (isinstance(value, float) and not math.isfinite(value)):
                raise ValueError(f"{f.name} is {value!r} in the {where}")
            if isinstance(value, (int, float)) and not 0 <= value < _MAX_COUNT:  # as a row's figures
                raise ValueError(f"{f.name} must be from 0 to below 2**63, got {value:.6g} in the {where}")
        for name in ("gini", "worst_to_best", "mean_premium"):
            low, high = getattr(self, f"{name}_ci_low"), getattr(self, f"{name}_ci_high")
            if (low is None) != (high is None) or (low is not None and low > high):
                raise ValueError(f"{name}'s interval ({low}, {high}) is not an interval in the {where}")
        if self.gini is not None and self.gini >= 1:
            raise ValueError(f"gini is below 1, got {self.gini} in the {where}")

    def to_dict(self) -> dict[str, Any]:
        return {**dataclasses.asdict(self), "unreachable_examples": list(self.unreachable_examples)}


SUMMARY_FIELDS: tuple[str, ...] = tuple(f.name for f in dataclasses.fields(TokenizerSummary))


@dataclass(frozen=True)
class Results:
    rows: tuple[ResultRow, ...]
    record: RunRecord
    summaries: tuple[TokenizerSummary, ...] = ()  # one per measured tokenizer, in the rows' order
    pairwise: tuple[PairwiseRatio, ...] = ()  # per language, each pair of production tokenizers
    calibration: tuple[CalibrationEntry, ...] = ()  # tokens per character and per byte (format 5)
    bases: BasePremiums = BasePremiums()  # premiums over further base languages (format 6)
    domain_premiums: tuple[DomainPremium, ...] = ()  # the premium per domain of a labelled corpus (format 6)
    groups: tuple[GroupSummary, ...] = ()  # per language family and resource class (format 6)
    code: CodeCosts = CodeCosts()  # tokens on the code sample per programming language (format 6)
    calibration_domains: tuple[DomainCalibrationEntry, ...] = ()  # the calibration per domain (later in 6)

    def __post_init__(self) -> None:
        if not isinstance(self.pairwise, PairwiseRatios):  # looked up by pair: results/pairwise.py
            object.__setattr__(self, "pairwise", PairwiseRatios(self.pairwise))

    def to_dict(self) -> dict[str, Any]:
        return {
            "format": RESULTS_FORMAT,
            "version": RESULTS_FORMAT_VERSION,
            "record": self.record.to_dict(),
            "rows": [row.to_dict() for row in self.rows],
            "summaries": [summary.to_dict() for summary in self.summaries],
            "pairwise": [entry.to_dict() for entry in self.pairwise],
            "calibration": [entry.to_dict() for entry in self.calibration],
            "bases": self.bases.to_dict(),
            "domain_premiums": [entry.to_dict() for entry in self.domain_premiums],
            "groups": [entry.to_dict() for entry in self.groups],
            "code": self.code.to_dict(),
            "calibration_domains": [entry.to_dict() for entry in self.calibration_domains],
        }

    def to_frame(self):  # -> pandas.DataFrame
        """Long form, one line per tokenizer and language: every `ROW_FIELDS` column, plus
        `language_name` (the record's English name, else the code). A `float | None` field is a
        float64 column, NaN where the row has no value; an `int | None` one pandas' nullable Int64."""
        import pandas as pd

        frame = pd.DataFrame([row.to_dict() for row in self.rows], columns=list(ROW_FIELDS))
        # Typed by the field, not by the values: a column that is None on every row (a results.json
        # from before a field was measured) would otherwise be of dtype object.
        frame = frame.astype({f.name: "float64" if f.type == "float | None" else "Int64"
                              for f in dataclasses.fields(ResultRow) if f.type in ("float | None", "int | None")})
        names = self.record.language_names
        frame.insert(frame.columns.get_loc("language") + 1, "language_name",
                     [names.get(code, code) for code in frame["language"]])
        return frame

    def summaries_frame(self):  # -> pandas.DataFrame
        """One line per tokenizer, every `SUMMARY_FIELDS` column (the examples joined by "; ")."""
        import pandas as pd

        lines = [{**summary.to_dict(), "unreachable_examples": "; ".join(summary.unreachable_examples)}
                 for summary in self.summaries]
        return pd.DataFrame(lines, columns=list(SUMMARY_FIELDS))


def summaries_csv(results: Results) -> str:
    """The tokenizer summaries as CSV, header `SUMMARY_FIELDS`, full precision (as results.csv)."""
    import csv
    import io

    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(SUMMARY_FIELDS)
    for summary in results.summaries:
        values = summary.to_dict()
        values["unreachable_examples"] = "; ".join(summary.unreachable_examples)
        writer.writerow(["" if values[name] is None else csv_cell(values[name]) for name in SUMMARY_FIELDS])
    return buffer.getvalue()

def save_results(results: Results, path: Path) -> None:
    text = json.dumps(results.to_dict(), indent=1, ensure_ascii=False, sort_keys=False) + "\n"
    atomic_write_text(Path(path), text)


def _checked(entries: Any, kind: type, name: str) -> tuple:
    """Entries of `kind` (the pairwise ratios, the calibration), each checked by its own constructor
    (five times faster than the record's generic decoder, which a 204-language file's 13,464
    pairwise entries made the slowest step of reading it); a bad one is a RecordError naming it."""
    if not isinstance(entries, list):
        raise RecordError(f"{name}: expected a list, got {type(entries).__name__}")
    found = []
    for number, entry in enumerate(entries):
        if not isinstance(entry, dict):
            raise RecordError(f"{name}[{number}]: expected an object, got {type(entry).__name__}")
        try:
            found.append(kind(**entry))
        except (TypeError, ValueError) as exc:
            raise RecordError(f"{name}[{number}]: {exc}") from None
    return tuple(found)


def load_results(path: Path | str) -> Results:
    """Read a `results.json`; a wrong version, a malformed row or record is one clear error."""
    path = Path(path)
    if path.is_dir():
        raise BenchmarkError(f"{path}: is a folder; give the results file itself, e.g. {path / 'results.json'}")
    if not path.exists() and not path.is_symlink():
        raise BenchmarkError(f"{path}: no such results file; run `python -m benchmark run` first")
    version, raw = read_versioned_json(path, what="results file", format_name=RESULTS_FORMAT,
                                       versions=READABLE_FORMAT_VERSIONS, hint=_HINT,
                                       legacy_version_key="format_version")
    if not isinstance(raw.get("rows"), list):
        raise BenchmarkError(f"{path}: malformed results: no list of rows")
    rows = []
    seen: dict[tuple[str, str], int] = {}
    for number, row in enumerate(raw["rows"], start=1):
        if not isinstance(row, dict):
            raise BenchmarkError(f"{path}: malformed results, row {number}: not an object")
        row = {**{name: None for name, added in ADDED_IN.items() if added >= version}, **row}
        try:
            rows.append(ResultRow(**row))
        except (TypeError, ValueError) as exc:
            raise BenchmarkError(f"{path}: malformed results, row {number}: {exc}") from None
        key = (rows[-1].tokenizer, rows[-1].language)
        if key in seen:
            raise BenchmarkError(f"{path}: malformed results, row {number}: {key[0]}/{key[1]} is also row {seen[key]}")
        seen[key] = number
    if not any(row.ok for row in rows):
        raise BenchmarkError(f"{path}: no measured row (every row is skipped or failed, or there are none): "
                             "nothing to report")
    if "record" not in raw:
        raise BenchmarkError(f"{path}: malformed results: no run record ('record')")
    try:
        record = RunRecord.from_dict(raw["record"], strict=version == RESULTS_FORMAT_VERSION)
        summaries = from_plain(tuple[TokenizerSummary, ...], raw.get("summaries", []), "summaries",
                               strict=version == RESULTS_FORMAT_VERSION)
        pairwise = _checked(raw.get("pairwise", []), PairwiseRatio, "pairwise")
        calibration = _checked(raw.get("calibration", []), CalibrationEntry, "calibration")
        bases = BasePremiums.from_dict(raw["bases"]) if "bases" in raw else BasePremiums()
        by_domain = _checked(raw.get("domain_premiums", []), DomainPremium, "domain_premiums")
        groups = _checked(raw.get("groups", []), GroupSummary, "groups")
        code = CodeCosts.from_dict(raw["code"]) if "code" in raw else CodeCosts()
        calibration_domains = domains_from_list(raw.get("calibration_domains", []), "calibration_domains")
    except RecordError as exc:
        raise BenchmarkError(f"{path}: malformed results, {exc}") from None
    except (TypeError, ValueError) as exc:  # a summary's own checks
        raise BenchmarkError(f"{path}: malformed results, {exc}") from None
    return Results(rows=tuple(rows), record=record, summaries=summaries, pairwise=pairwise, calibration=calibration,
                   bases=bases, domain_premiums=by_domain, groups=groups, code=code, calibration_domains=calibration_domains)

"""The run record: what produced a run's rows, typed and validated, saved inside `results.json`.

A `RunRecord` holds enough to reproduce a run or to judge a comparison: the settings that decide the
numbers, package versions, the machine, corpus checksums, each tokenizer's description, and the
example sentence split by every tokenizer (for the token-boundary plot). Every field is checked
against its annotation when a record is read (`RunRecord.from_dict`), so a renderer reads
`record.settings.timing.repeats`, never a string key that may be missing.

Fields that older results files (format 1 and 2) did not record are None: a renderer says less
about them, it never guesses.
"""

from __future__ import annotations

import base64
import dataclasses
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from benchmark.results.plain import RecordError, _decode, _plain, from_plain, to_plain

__all__ = ["RecordError", "from_plain", "to_plain"]  # the codec's names, as they were imported from here


# ---------------------------------------------------------------- the parts


@dataclass(frozen=True)
class TimingSettings:
    """How throughput was timed (see `benchmark.measure.timing`)."""

    repeats: int | None = None
    n_timed_sentences: dict[str, int] | None = None  # language -> sentences in the timed sample
    timed_sample: str | None = None  # how the sample is chosen
    n_warm_up_sentences: dict[str, int] | None = None
    clock: str | None = None  # e.g. "CPU time of the process (time.process_time)"; None: the wall clock
    yardstick: str | None = None  # the tokenizer id timed in turns with every tokenizer
    turn_sentences: int | None = None  # sentences per turn with the yardstick
    warm_up: dict[str, str] | None = None  # language -> where its warm-up text came from
    statistic: str = "median of repeats"
    threads: int = 1
    protocol: str | None = None
    throughput_x_tiktoken: str | None = None
    megabyte: str = "10^6 bytes of UTF-8"
    # run --reuse-timing: tokenizer id -> when the timings reused from the results cache were
    # measured (ISO 8601, UTC); None or absent: every timing was measured in this run.
    reused_measured_on: dict[str, str] | None = None
    # tokenizer id -> language -> sentences timed in each repeat (measure/cells.py: which cells are
    # timed, and a cell's budget); None or absent: every tokenizer on every sample, whole.
    timed_cells: dict[str, dict[str, int | None]] | None = None
    budget: str | None = None  # how a cell's sentences were chosen


@dataclass(frozen=True)
class MixSettings:
    """One training mix of our BPE, as the run applied it (benchmark/corpora/mixes.py)."""

    description: str
    parity: bool
    weights: dict[str, int]  # language -> the integer its pre-token counts were multiplied by (0: left out)
    byte_shares: dict[str, float]  # language -> its share of the weighted training bytes


@dataclass(frozen=True)
class CountingSettings:
    """Where the sentences were counted (the counts do not depend on it)."""

    executor: str = "serial"  # "serial", "processes" or "dask"
    n_workers: int = 1
    engine: str | None = None  # which rows another engine counted, and how its ids were checked (measure/twins.py)


@dataclass(frozen=True)
class PremiumSettings:
    """The premium's reference and its bootstrap interval."""

    reference: str | None = None
    ci: str | None = None
    n_resamples: int | None = None
    seed: int | None = None
    floor: str | None = None  # how the information floor's text is compressed (measure/floor.py)


@dataclass(frozen=True)
class SegmenterEntry:
    """Who found one language's words, or why nobody did (its word figures are then blank)."""

    segmenter: str  # e.g. "fugashi + unidic-lite (MeCab, UniDic short units)", or "none"
    version: str | None = None  # the packages' versions, e.g. "fugashi 1.5.2, unidic-lite 1.0.8"
    note: str | None = None


@dataclass(frozen=True)
class WordSettings:
    """How the word figures (n_words, fertility, whole and continued words) were made."""

    segmenters: dict[str, SegmenterEntry] = field(default_factory=dict)  # language -> its segmenter
    word: str | None = None  # what counts as a word
    alignment: str | None = None  # which tokens belong to a word


@dataclass(frozen=True)
class DistributionSettings:
    """The token-distribution and fairness figures' definitions."""

    renyi_alpha: float | None = None
    renyi_efficiency: str | None = None  # its normalisation
    renyi_efficiency_ci: str | None = None  # which rows carry its interval, and from what
    fairness: str | None = None  # over what the Gini, worst-to-best and mean premium are taken


@dataclass(frozen=True)
class SuiteInfo:
    """Which version of this suite made the record (a checkout's commit says more than a version)."""

    package: str
    version: str
    git_commit: str | None = None


@dataclass(frozen=True)
class RunSettings:
    """Everything that decided the run's numbers, as resolved by the plan."""

    languages: tuple[str, ...] = ()
    reference: str | None = None
    quick: bool = False
    vocab_sizes: tuple[int, ...] = ()
    tokenizers: tuple[str, ...] = ()
    tokenizer_files: tuple[str, ...] = ()
    corpus: str | None = None  # the measured corpus's name ("flores200", a user folder's name)
    corpus_dir: str | None = None
    domain: str | None = None  # --domain: the one kind of text measured (corpora/domains.py); None: every line
    measure_split: str | None = None
    n_sentences: dict[str, int] | None = None
    train_corpus_dir: str | None = None
    train_split: str | None = None
    train_languages: tuple[str, ...] = ()
    train_language_of: dict[str, str | None] | None = None  # measured language -> its training counterpart
    n_measured_lines_in_training: dict[str, int] | None = None
    max_share_measured_in_training: float | None = None
    train_share: str | None = None
    n_train_lines_per_language: int | None = None
    train_mixes: dict[str, MixSettings] | None = None  # our BPE's training mixes, by name
    training_text_sha256: str | None = None
    max_sentences: int | None = None
    encode: str | None = None
    timing: TimingSettings = field(default_factory=TimingSettings)
    counting: CountingSettings = field(default_factory=CountingSettings)
    train_seconds: str | None = None
    premium: PremiumSettings = field(default_factory=PremiumSettings)
    words: WordSettings = field(default_factory=WordSettings)
    distribution: DistributionSettings = field(default_factory=DistributionSettings)
    embedding_dim: int | None = None
    example_line: int | None = None  # 1-based line of the example sentence
    suite: SuiteInfo | None = None
    quick_left_out: tuple[str, ...] = ()  # what --quick did not measure that a run without it does
    # How the calibration table (results.json's "calibration") was fitted and checked, or why there
    # is none (measure/calibration.py); None: a file from before format 5.
    calibration: str | None = None


@dataclass(frozen=True)
class SourceInfo:
    """Where a production tokenizer's vocabulary file came from: the installed package that ships it."""

    package: str  # the PyPI distribution, e.g. "llama-models"
    version: str  # its installed version
    file: str  # the file inside the installed package, e.g. "llama_models/llama3/tokenizer.model"
    sha256: str  # of the file's bytes (decompressed, where the package ships it gzipped), checked when read
    provenance: str | None = None  # why these bytes are taken to be the vendor's own


@dataclass(frozen=True)
class ModelInfo:
    """One model that uses a production tokenizer (benchmark/adapters/models.csv, one line)."""

    model: str  # as the vendor names it, lower case: "gpt-4o"
    tokenizer: str  # the production tokenizer's id: "tiktoken/o200k_base"
    label: str  # how a table names it, shared by its variants: "GPT-4o"
    source: str  # the vendor's code or page the pairing is taken from
    read_on: str  # the date that source was read, ISO
    note: str = ""  # a caveat every label of the model carries

    @property
    def name(self) -> str:
        return self.model


@dataclass(frozen=True)
class TokenizerEntry:
    """One tokenizer as the run built it."""

    family: str
    vocab_size: int
    fingerprint: str | None  # sha256 of the model file or ranks; None when it was never built
    status: str  # "ok", "skipped: <reason>", "failed: <reason>"
    train_seconds: float | None = None
    settings: dict[str, Any] = field(default_factory=dict)  # HF-style stages: why two tokenizers count differently
    source: SourceInfo | None = None  # a production tokenizer's vocabulary file; None for the others
    models: tuple[ModelInfo, ...] = ()  # a production tokenizer's models (adapters/models.csv) when it ran


@dataclass(frozen=True)
class MachineInfo:
    """Where the timings were taken."""

    platform: str | None = None
    processor: str | None = None
    machine: str | None = None
    cpu_count: int | None = None
    python: str | None = None
    python_implementation: str | None = None


@dataclass(frozen=True)
class RunRecord:
    """What produced the rows: enough to reproduce or to judge a comparison."""

    date: str  # ISO 8601, UTC
    settings: RunSettings
    package_versions: dict[str, str]  # python, tiktoken, sentencepiece, tokenizers, ...
    machine: MachineInfo
    corpus_checksums: dict[str, str]  # "<split>/<file name>" -> sha256
    tokenizers: dict[str, TokenizerEntry] = field(default_factory=dict)
    # language -> tokenizer id -> the example sentence split into token strings ("Fred", "dy")
    examples: dict[str, dict[str, tuple[str, ...]]] = field(default_factory=dict)
    example_sentences: dict[str, str] = field(default_factory=dict)  # language -> sentence
    language_names: dict[str, str] = field(default_factory=dict)  # "jpn_Jpan" -> "Japanese"
    # Each measured language's ISO 15924 script ("heb_Hebr" -> "Hebr"; absent for a code without
    # one) and those written right to left, so a report sets the text's direction and language.
    language_scripts: dict[str, str] = field(default_factory=dict)
    right_to_left: tuple[str, ...] = ()
    phase_seconds: dict[str, float] = field(default_factory=dict)  # wall seconds of each phase of the run
    # Peak resident memory in MB (10^6 bytes) during each phase: of this process, or of a worker
    # process it started in that phase when that was larger.
    phase_peak_mb: dict[str, float] = field(default_factory=dict)

    def __post_init__(self) -> None:
        # The date prices the run's money figures and is printed in every report: it must be a date.
        try:
            datetime.fromisoformat(self.date)
        except (TypeError, ValueError):
            raise RecordError(f"record.date {self.date!r} is not an ISO 8601 date") from None

    def to_dict(self) -> dict[str, Any]:
        return _plain(dataclasses.asdict(self))

    @classmethod
    def from_dict(cls, data: Any, *, strict: bool = True) -> RunRecord:
        """Build and check a record read from JSON. `strict=False` (files from before this format)
        drops keys it does not know instead of refusing them."""
        return _decode(cls, data, "record", strict)

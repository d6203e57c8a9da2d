"""The run record: what produced a run's rows, written down from its plan and tokenizers.

`describe_run` fills benchmark.results.record's typed fields: the resolved settings, the training mixes
as applied, the timing protocol, package versions, the machine, corpus checksums, every
tokenizer's description and the example sentence split by each.
"""

from __future__ import annotations

import datetime as _dt
import subprocess
from pathlib import Path
from typing import Sequence

from benchmark.measure import cells, floor, twins
from benchmark.results import metrics
from benchmark.adapters import Adapter, NotBuilt
from benchmark.adapters.families import vendor_packages
from benchmark.plumbing.pinned import SUITE_PACKAGE, installed_versions
from benchmark.corpora import BUNDLED_CORPUS_DIR, is_right_to_left, language_name, script_of
from benchmark.measure.executors import Executor
from benchmark.measure.counting import Examples
from benchmark.measure.plan import MAX_SHARE_MEASURED_IN_TRAINING, Plan, display_path
from benchmark.measure.timed_text import MAX_TIMED_LANGUAGES, QUICK_TIMED_SENTENCES, TIMED_BYTES, TIMED_SENTENCES
from benchmark.words.segmenters import ALIGNMENT, WORD, LanguageWords
from benchmark.measure.summaries import DISTRIBUTION_SETTINGS
from benchmark.results.record import (
    CountingSettings,
    MachineInfo,
    MixSettings,
    PremiumSettings,
    RunRecord,
    RunSettings,
    SegmenterEntry,
    SuiteInfo,
    TimingSettings,
    TokenizerEntry,
    WordSettings,
)
from benchmark.measure.timing import RUN_CLOCK_NAME, YARDSTICK_CHUNK_TEXTS, machine_info

# Timed in turns with every tokenizer: tiktoken has no cache, loads offline, and is the
# production encoder most readers know.
YARDSTICK_ID = "tiktoken/cl100k_base"
# The libraries that decide a figure, then every package a production tokenizer's file is read from.
PACKAGES = tuple(dict.fromkeys((
    SUITE_PACKAGE, "tiktoken", "bpe-openai", "sentencepiece", "tokenizers", "regex", "numpy", "rich", "pandas",
    "matplotlib", "seaborn", *vendor_packages(), "fugashi", "unidic-lite")))


def describe_run(plan: Plan, tokenizers: Sequence[Adapter | NotBuilt], executor: Executor,
                 words: dict[str, LanguageWords], examples: Examples, *,
                 reused_timing: dict[str, str] | None = None,
                 timed_cells: dict[str, dict[str, int | None]] | None = None,
                 calibration: str | None = None) -> RunRecord:
    """The record of a run from its plan, its tokenizers, where it counted, the words it found and
    the example sentence as each tokenizer split it (`counting.split_examples`): nothing here
    encodes or measures."""
    described: dict[str, TokenizerEntry] = {}
    for tokenizer in tokenizers:
        if isinstance(tokenizer, NotBuilt):
            described[tokenizer.id] = TokenizerEntry(family=tokenizer.family, vocab_size=tokenizer.vocab_size,
                                                     fingerprint=None, status=tokenizer.status,
                                                     settings=tokenizer.settings)
            continue
        described[tokenizer.id] = TokenizerEntry(**tokenizer.describe())
    twinned = [t.id for t in tokenizers if isinstance(t, Adapter) and twins.counting_twin(t) is not None]
    checksums = dict(plan.corpus.checksums)
    if plan.train_corpus is not plan.corpus:
        prefix = "" if plan.train_corpus.root.resolve() == BUNDLED_CORPUS_DIR.resolve() else f"{plan.train_corpus.name}:"
        for key, digest in plan.train_corpus.checksums.items():
            if key.startswith(f"{plan.train_corpus.train_split}/"):
                checksums[f"{prefix}{key}"] = digest
    versions = package_versions()
    settings = RunSettings(
        quick=plan.quick,
        languages=plan.languages,
        reference=plan.reference,
        vocab_sizes=tuple(plan.vocab_sizes),
        tokenizers=plan.tokenizer_ids,
        tokenizer_files=tuple(str(p) for p in plan.tokenizer_files),
        corpus=plan.corpus.name,
        corpus_dir=display_path(plan.corpus.root),
        domain=plan.corpus.domain,
        measure_split=plan.corpus.measure_split,
        n_sentences={code: len(plan.measure_texts[code]) for code in plan.languages},
        train_corpus_dir=display_path(plan.train_corpus.root),
        train_split=plan.train_corpus.train_split,
        train_languages=plan.train_languages,
        train_language_of=dict(plan.train_language_of),
        n_measured_lines_in_training=dict(plan.n_measured_in_training),
        max_share_measured_in_training=MAX_SHARE_MEASURED_IN_TRAINING,
        train_share=plan.train_share,
        n_train_lines_per_language=len(plan.training.texts) // max(1, len(plan.train_languages)),
        train_mixes=_mix_settings(plan),
        training_text_sha256=plan.training.sha256,
        max_sentences=plan.max_sentences,
        encode="each sentence on its own, plain text: no BOS/EOS, no special tokens, no truncation",
        timing=_timing_settings(plan, reused_timing or None, timed_cells),
        counting=CountingSettings(executor=executor.name, n_workers=executor.n_workers,
                                  engine=twins.describe(twinned)),
        train_seconds=("wall seconds of training; for bpe/* the time the single training run "
                       "to the largest size took to reach that size (merges are a prefix); "
                       "a cached model reports the seconds of the run that trained it"),
        premium=PremiumSettings(reference=plan.reference, ci="95% percentile bootstrap over sentences (paired)",
                                n_resamples=metrics.BOOTSTRAP_RESAMPLES, seed=metrics.BOOTSTRAP_SEED,
                                floor=floor.DESCRIPTION),
        words=word_settings(words),
        distribution=DISTRIBUTION_SETTINGS,
        embedding_dim=metrics.EMBEDDING_DIM,
        example_line=examples.line + 1,
        suite=SuiteInfo(package=SUITE_PACKAGE, version=versions[SUITE_PACKAGE], git_commit=git_commit()),
        quick_left_out=QUICK_LEFT_OUT if plan.quick else (),
        calibration=calibration,
    )
    return RunRecord(
        date=_dt.datetime.now(_dt.timezone.utc).replace(microsecond=0).isoformat(),
        settings=settings,
        package_versions=versions,
        machine=MachineInfo(**machine_info()),
        corpus_checksums=checksums,
        tokenizers=described,
        examples=examples.split,
        example_sentences=examples.sentences,
        # The training languages too: the report names them, and some are not measured.
        language_names={code: language_name(code) for code in (*plan.languages, *plan.train_languages)},
        language_scripts={code: script for code in plan.languages if (script := script_of(code))},
        right_to_left=tuple(code for code in plan.languages if is_right_to_left(code)),
    )


# What --quick leaves out, beside its smaller text and sizes; counts of what it measures are those
# of a run without it on the same lines and sizes.
QUICK_LEFT_OUT = (
    f"timing: the reference and one language per script, at most {QUICK_TIMED_SENTENCES} sentences, each trained "
    "family at its "
    "largest size (settings.timing.timed_sample)",
    "the vocabulary check (partial-character and unreachable entries) of every tokenizer whose check the "
    "results cache does not hold from an earlier run",
    "rare entries (rare_entry_share) of the trained tokenizers",
)


def _mix_settings(plan: Plan) -> dict[str, MixSettings] | None:
    """The training mixes of the families this run trained, with the shares they came to."""
    asked = {trained.family for trained in plan.trained.values()}
    used = [f.mix for f in plan.families if f.mix is not None and f in asked]
    if not used:
        return None
    n_bytes = {code: sum(len(line.encode("utf-8")) for line in lines) for code, lines in plan.training.lines.items()}
    settings = {}
    for mix in used:
        if mix.unavailable_reason(plan.training.languages) is not None:
            continue
        weights = mix.weights(plan.training.lines)
        total = sum(weights[code] * n_bytes[code] for code in weights) or 1
        settings[mix.name] = MixSettings(description=mix.description, parity=mix.parity, weights=weights,
                                         byte_shares={code: weights[code] * n_bytes[code] / total for code in weights})
    return settings


def _timed_languages_text(plan: Plan) -> str:
    if plan.quick:
        return (f"; --quick: on the reference and one language per script ({len(plan.timed_texts)} of the "
                f"{len(plan.languages)} languages), and each trained family at its largest size only (the other "
                "sizes' and languages' throughput is blank)")
    if len(plan.timed_texts) == len(plan.languages):
        return ""
    return (f"; on {len(plan.timed_texts)} of the {len(plan.languages)} languages (at most {MAX_TIMED_LANGUAGES}: the "
            "reference, the first language of each script, then in run order; the others' throughput is blank)")


def _timing_settings(plan: Plan, reused: dict[str, str] | None = None,
                     timed_cells: dict[str, dict[str, int | None]] | None = None) -> TimingSettings:
    return TimingSettings(
        repeats=plan.repeats,
        reused_measured_on=reused,
        timed_cells=timed_cells,
        budget=cells.DESCRIPTION,
        n_timed_sentences={code: len(texts) for code, texts in plan.timed_texts.items()},
        timed_sample=(f"at most {QUICK_TIMED_SENTENCES if plan.quick else TIMED_SENTENCES} of the measured "
                      "sentences, evenly spread over them, and at most "
                      f"{TIMED_BYTES:,} bytes of them" + _timed_languages_text(plan)),
        n_warm_up_sentences={code: len(plan.warm_texts[code]) for code in plan.languages},
        clock=RUN_CLOCK_NAME,
        yardstick=YARDSTICK_ID,
        turn_sentences=YARDSTICK_CHUNK_TEXTS,
        warm_up=dict(plan.warm_source),
        protocol=("per repeat: reset the encoder's cache, encode the warm-up text, then time every timed "
                  "sentence encoded on its own (unseen text), in turns with the yardstick; an encoder without a "
                  "cache warms up once, on the first turn of the sample (it has no cache to fill)"),
        throughput_x_tiktoken=("median over repeats of (yardstick seconds / tokenizer seconds), the yardstick "
                               "encoding the same sentences in each repeat, the two taking turns every "
                               f"{YARDSTICK_CHUNK_TEXTS} sentences"),
    )


def package_versions() -> dict[str, str]:
    return installed_versions(PACKAGES)


def git_commit(folder: Path = Path(__file__).resolve().parent) -> str | None:
    """`git rev-parse HEAD` of the repository holding this package; None for an installed copy
    outside git, or without git (never an error: the record just says less)."""
    try:
        done = subprocess.run(["git", "rev-parse", "HEAD"], cwd=folder, capture_output=True, text=True,
                              timeout=10, check=False)
    except (OSError, subprocess.SubprocessError):
        return None
    commit = done.stdout.strip()
    return commit if done.returncode == 0 and len(commit) in (40, 64) else None


def word_settings(languages: dict[str, LanguageWords]) -> WordSettings:
    """The record's account of the word figures: each language's segmenter, what a word is."""
    return WordSettings(
        segmenters={code: SegmenterEntry(segmenter=w.segmenter, version=w.version, note=w.note)
                    for code, w in languages.items()},
        word=WORD, alignment=ALIGNMENT)

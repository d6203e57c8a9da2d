"""The `speed` verb as a plain function: `run_speed(SpeedOptions(...))` prints Markdown and
returns the exit status (the CLI only parses its options into SpeedOptions).

What it measures, by option:

- nothing chosen: the ratios to tiktoken (ratios.py), then `"a" * n` scaling and the textbook
  factor (scaling_and_textbook.py), then training against HuggingFace `tokenizers` (training.py);
- `ratios_only`: the ratios alone;
- `check`: the ratios, judged against the committed baseline (baseline.py); status 1 when a ratio
  or a figure's mean is worse by more than its tolerance;
- `update_baseline`: the ratios, then written as the new baseline;
- `training`: training against HF alone;
- `instructions`: the unseen ratio in CPU instructions under callgrind (instructions.py) alone.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Sequence, TextIO

from benchmark.corpora import BUNDLED_CORPUS_DIR, FLORES_LANGUAGES
from benchmark.plumbing.errors import BenchmarkError
from benchmark.speed.baseline import (
    BASELINE_REPEATS, DEFAULT_BASELINE, DEFAULT_FIGURE_TOLERANCE, DEFAULT_TOLERANCE, Baseline, baseline_from_rows,
    check_figures, check_ratios, check_replaceable, check_same_text, load_baseline, save_baseline,
)
from benchmark.speed.scaling_and_textbook import (
    SCALING_REPEATS, TEXTBOOK_LINES, TEXTBOOK_VOCAB_SIZE, measure_scaling, measure_textbook,
)
from benchmark.speed.instructions import INSTRUCTION_JOBS, count_unseen_instructions
from benchmark.speed.markdown import (
    format_instructions, format_ratio_table, format_scaling, format_textbook, format_training, summarise_unseen,
)
from benchmark.speed.ratios import (
    CLOCKS, DEFAULT_CLOCK, ENCODING, SPEED_REPEATS, Engine, LanguageTexts, RatioRow, load_texts, measure_ratios,
)
from benchmark.speed.training import (
    TRAINING_REPEATS,
    TRAINING_VOCAB_SIZES,
    compare_training,
    dev_texts,
    set_hf_threads,
)


@dataclass(frozen=True)
class SpeedOptions:
    """What `run_speed` measures and how; contradictory choices are refused when built."""

    check: bool = False
    update_baseline: bool = False
    baseline: Path = DEFAULT_BASELINE
    tolerance: float | None = None  # None: the baseline's own (DEFAULT_TOLERANCE when writing one)
    figure_tolerance: float = DEFAULT_FIGURE_TOLERANCE
    # None: SPEED_REPEATS, BASELINE_REPEATS when updating the baseline, TRAINING_REPEATS for `training`.
    repeats: int | None = None
    languages: tuple[str, ...] = FLORES_LANGUAGES
    corpus_dir: Path = BUNDLED_CORPUS_DIR
    max_sentences: int | None = None  # the first N lines of each language's dev and devtest
    clock: str = DEFAULT_CLOCK  # a key of CLOCKS
    ratios_only: bool = False
    training: bool = False
    instructions: bool = False
    parity: bool = False  # parity-aware training against standard training
    hf_parity: bool = False  # our parity-aware trainer against HF's ParityBpeTrainer
    train_mix: str | None = None  # the parity figure's training mix (None: balanced)
    vocab_sizes: tuple[int, ...] = TRAINING_VOCAB_SIZES  # of the training figure
    jobs: int = INSTRUCTION_JOBS  # valgrind runs at a time, for `instructions`
    workers: int = 1  # the training figure: our pre-token counting processes, HF's threads

    def __post_init__(self) -> None:
        if self.check and self.update_baseline:
            raise BenchmarkError("--check and --update-baseline exclude each other: check first, then update")
        if self.ratios_only + self.training + self.instructions + self.parity + self.hf_parity > 1:
            raise BenchmarkError("--ratios-only, --training, --instructions, --parity and --hf-parity each measure "
                                 "one figure: give one")
        if (self.check or self.update_baseline) and (self.training or self.instructions or self.parity
                                                     or self.hf_parity):
            raise BenchmarkError("--check and --update-baseline judge the ratios, not --training, --instructions or "
                                 "--parity: run those separately")
        if self.instructions and self.repeats is not None:
            raise BenchmarkError("--instructions counts once (an instruction count repeats): drop --repeats")
        if self.repeats is not None and self.repeats < 1:
            raise BenchmarkError(f"--repeats must be at least 1, got {self.repeats}")
        if self.clock not in CLOCKS:
            raise BenchmarkError(f"unknown clock {self.clock!r}; use one of {', '.join(CLOCKS)}")
        if self.update_baseline:  # where the baseline goes, before minutes of timing
            from benchmark.plumbing.fileio import check_writable_folder

            if Path(self.baseline).is_dir():
                raise BenchmarkError(f"--baseline {self.baseline}: is a folder; give the baseline file's path")
            check_writable_folder(Path(self.baseline).parent, "--baseline")
            check_replaceable(Path(self.baseline))


def run_speed(options: SpeedOptions, *, out: TextIO | None = None,
              engines: tuple[Engine, Engine] | None = None) -> int:
    """Measure and print Markdown; return 1 when `check` finds a regression, else 0.

    `engines` replaces (ours, tiktoken) in the ratios (tests time fakes)."""
    out = out or sys.stdout
    corpus, text = load_texts(options.languages, corpus_dir=options.corpus_dir, max_lines=options.max_sentences)
    if options.instructions:
        _print_instructions(options, [texts.language for texts in corpus], out)
        return 0
    if options.training:
        _print_training(corpus, options.vocab_sizes, options.repeats or TRAINING_REPEATS, out, heading="##",
                        workers=options.workers)
        return 0
    if options.hf_parity:
        from benchmark.speed.hf_parity import compare_hf_parity, format_hf_parity

        print(f"## Our parity-aware trainer against HF's ParityBpeTrainer, on the {len(corpus)} dev files\n",
              file=out)
        for size in options.vocab_sizes:
            print(format_hf_parity(compare_hf_parity(corpus, size)) + "\n", file=out)
        return 0
    if options.parity:
        from benchmark.corpora.mixes import parse_mix
        from benchmark.speed.parity import PARITY_REPEATS, compare_parity_training, format_parity

        mix = parse_mix(options.train_mix) if options.train_mix else None
        print(f"## Parity-aware training against standard training, on the {len(corpus)} dev files\n", file=out)
        for size in options.vocab_sizes:
            print(format_parity(compare_parity_training(corpus, size, repeats=options.repeats or PARITY_REPEATS,
                                                        mix=mix)) + "\n", file=out)
        return 0
    repeats = options.repeats or (BASELINE_REPEATS if options.update_baseline else SPEED_REPEATS)
    baseline = None
    if options.check:
        # Before measuring: a check that cannot be judged fails in a second, not a minute.
        baseline = load_baseline(options.baseline)
        if baseline.info.get("clock", "cpu") != options.clock:
            raise BenchmarkError(f"{options.baseline} was measured with the {baseline.info.get('clock')} clock; "
                                 f"check with --clock {baseline.info.get('clock')}, or record a new baseline")
        check_same_text(baseline, text, path=options.baseline)
    print(f"## Encoder speed: ours / tiktoken {ENCODING}, median of {repeats} interleaved repeats "
          f"({options.clock} time)\n", file=out)
    rows = measure_ratios(corpus, repeats=repeats, engines=engines, clock=CLOCKS[options.clock])
    status = 0
    if baseline is not None:
        status = _judge(rows, baseline, options, out)
    else:
        print(format_ratio_table(rows), file=out)
        print(f"\n{summarise_unseen(rows)}", file=out)
    if options.update_baseline:
        tolerance = options.tolerance if options.tolerance is not None else DEFAULT_TOLERANCE
        save_baseline(baseline_from_rows(rows, tolerance=tolerance, repeats=repeats, clock=options.clock,
                                         text=text), options.baseline)
        print(f"wrote {options.baseline} (tolerance {tolerance:.0%})", file=out)
    if options.check or options.update_baseline or options.ratios_only:  # a baseline holds the ratios only
        return status
    print(f"\n### Scaling on `\"a\" * n` (ours, cold cache, median of {SCALING_REPEATS})\n", file=out)
    print(format_scaling(measure_scaling()), file=out)
    textbook = measure_textbook(corpus)
    print(f"\n### Against the textbook encoder (our BPE at {TEXTBOOK_VOCAB_SIZE:,} tokens trained on dev; "
          f"first {TEXTBOOK_LINES} devtest lines)\n", file=out)
    print(format_textbook(textbook), file=out)
    print(file=out)
    _print_training(corpus, options.vocab_sizes, TRAINING_REPEATS, out, heading="###", workers=options.workers)
    return status


def _judge(rows: Sequence[RatioRow], baseline: Baseline, options: SpeedOptions, out: TextIO) -> int:
    """Print the checked table and the verdict; 1 on a regression of a ratio or a figure's mean."""
    checked = check_ratios(rows, baseline, tolerance=options.tolerance)
    print(format_ratio_table(checked), file=out)
    tolerance = checked[0].tolerance if checked else baseline.tolerance
    slower = [c for c in checked if c.regressed]
    figures = check_figures(checked, tolerance=options.figure_tolerance)
    print(f"\n{summarise_unseen(rows)}", file=out)
    if figures:
        means = ", ".join(f"{f.figure} {f.change:+.1%}" for f in figures)
        print(f"mean change per figure over {figures[0].n_languages} languages: {means} "
              f"(tolerance {options.figure_tolerance:.0%})", file=out)
    status = 0
    if slower:
        names = ", ".join(f"{c.row.language}/{c.row.figure} {c.change:+.0%}" for c in slower)
        print(f"FAIL: {len(slower)} ratio(s) worse than {options.baseline.name} by more than "
              f"{tolerance:.0%}: {names}", file=out)
        status = 1
    if any(f.regressed for f in figures):
        names = ", ".join(f"{f.figure} {f.change:+.1%}" for f in figures if f.regressed)
        print(f"FAIL: figure(s) worse on average over the languages than {options.baseline.name} by more "
              f"than {options.figure_tolerance:.0%}: {names}", file=out)
        status = 1
    if not status:
        means = f", every figure's mean within {options.figure_tolerance:.0%}" if figures else ""
        print(f"OK: every ratio within {tolerance:.0%} of {options.baseline.name}{means} "
              f"(recorded {baseline.info.get('date', '?')})", file=out)
    return status


def _print_training(corpus: Sequence[LanguageTexts], vocab_sizes: Sequence[int], repeats: int, out: TextIO,
                    *, heading: str, workers: int = 1) -> None:
    set_hf_threads(workers)
    texts = dev_texts(corpus)
    n_bytes = sum(len(text.encode("utf-8")) for text in texts)
    cores = ("one core each" if workers == 1 else
             f"ours counting pre-tokens in {workers} processes, HF on {workers} threads")
    print(f"{heading} Training on the {len(corpus)} dev files against HuggingFace `tokenizers` "
          f"(median of {repeats}; {cores})\n", file=out)
    print(f"{len(texts)} lines, {n_bytes / 1e6:.2f} MB\n", file=out)
    print(format_training(compare_training(texts, vocab_sizes, repeats=repeats, workers=workers)), file=out)


def _print_instructions(options: SpeedOptions, languages: Sequence[str], out: TextIO) -> None:
    counts = count_unseen_instructions(languages, corpus_dir=options.corpus_dir, max_lines=options.max_sentences,
                                       jobs=options.jobs)
    print(f"## Unseen text in instructions: ours / tiktoken {ENCODING} (callgrind, PYTHONHASHSEED=0)\n", file=out)
    print(format_instructions(counts), file=out)

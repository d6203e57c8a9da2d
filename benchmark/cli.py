"""`python -m benchmark VERB ...`: one verb per subcommand, each a plain typed function.

    run      measure every tokenizer on every language, write reports/
    train    train (or read from the cache) the trained tokenizers, print their sizes and times
    encode   show how one sentence splits in each tokenizer: Once | upon | a | time
    list     the tokenizers and corpora this program knows
    report   render reports/ again from a saved results.json, without measuring

argparse only parses; each `cmd_*` function takes typed keyword arguments, so tests (and other
code) call the same functions. A `BenchmarkError` is printed as one line on stderr, exit code 2.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path
from typing import Sequence, TextIO

from benchmark import argtypes
from benchmark.errors import BenchmarkError

DEFAULT_OUTPUT = Path("reports")


# ---------------------------------------------------------------- verbs


def cmd_run(
    *,
    output: Path = DEFAULT_OUTPUT,
    quick: bool = False,
    languages: Sequence[str] | None = None,
    reference: str | None = None,
    vocab_sizes: Sequence[int] | None = None,
    tokenizers: Sequence[str] | None = None,
    tokenizer_files: Sequence[Path] = (),
    tokenizer_file_pattern: str = "cl100k",
    corpus: Path | None = None,
    train_corpus: Path | None = None,
    max_sentences: int | None = None,
    repeats: int | None = None,
    cache_dir: Path | None = None,
    retrain: bool = False,
    plots: bool = True,
    progress: bool | None = None,
    out: TextIO | None = None,
) -> list[Path]:
    """Measure, save results.json, render the reports; return the files written."""
    from benchmark.measure import needs_training, progress_enabled, run_benchmark
    from benchmark.results import save_results

    out = out or sys.stdout
    output = Path(output)
    check_output_folder(output)  # before minutes of measuring, not after
    config = _config(quick=quick, languages=languages, reference=reference, vocab_sizes=vocab_sizes,
                     tokenizers=tokenizers, tokenizer_files=tokenizer_files,
                     tokenizer_file_pattern=tokenizer_file_pattern, corpus=corpus, train_corpus=train_corpus,
                     max_sentences=max_sentences, repeats=repeats, cache_dir=cache_dir, retrain=retrain)
    started = time.perf_counter()
    show = progress_enabled() if progress is None else progress
    results = run_benchmark(config, show_progress=show)
    if not any(row.ok for row in results.rows):
        # A report of nothing would still print findings ("every tokenizer gives back every
        # sentence"); better to say why and write nothing.
        reasons = sorted({f"{row.tokenizer}: {row.status}" for row in results.rows})
        raise BenchmarkError("nothing was measured, every tokenizer was skipped: " + "; ".join(reasons[:4])
                             + (f"; and {len(reasons) - 4} more" if len(reasons) > 4 else ""))
    never_learnt = [code for code, source in results.record.settings["train_language_of"].items() if source is None]
    if never_learnt and needs_training(config):
        print(f"warning: the training corpus has no {', '.join(never_learnt)}: the trained tokenizers are "
              "measured on a language they never learnt (the report says so too)", file=sys.stderr)
    # Saved before rendering: a failing plot must not lose the measurements.
    save_results(results, output / "results.json")
    try:
        written = _write_reports(results, output, plots=plots, out=out, show_progress=show)
    except Exception as exc:  # a renderer's own failure (matplotlib, a font): the measurements are safe
        raise BenchmarkError(
            f"the measurements are saved in {output / 'results.json'}, but the reports could not be rendered "
            f"({type(exc).__name__}: {exc}); render them again with `python -m benchmark report --results "
            f"{output / 'results.json'}` (or add --no-plots)"
        ) from exc
    n_ok = sum(1 for row in results.rows if row.ok)
    n_skipped = len(results.rows) - n_ok
    print(f"{n_ok} rows measured, {n_skipped} skipped, in {time.perf_counter() - started:.1f} s; "
          f"wrote {len(written)} files to {output}/", file=out)
    return written


def cmd_train(
    *,
    quick: bool = False,
    languages: Sequence[str] | None = None,
    vocab_sizes: Sequence[int] | None = None,
    tokenizers: Sequence[str] | None = None,
    train_corpus: Path | None = None,
    max_sentences: int | None = None,
    cache_dir: Path | None = None,
    retrain: bool = False,
    save_dir: Path | None = None,
    out: TextIO | None = None,
) -> list[str]:
    """Train the trained tokenizers into the cache (and `save_dir`, if given); print a table."""
    from benchmark.adapters import PRETRAINED, Skipped, TrainingCache, build_tokenizers, default_cache_dir
    from benchmark.measure import plan_run

    out = out or sys.stdout
    # Training only: the training corpus is also the one planned for measuring, which is harmless.
    config = _config(quick=quick, languages=languages, reference=None, vocab_sizes=vocab_sizes,
                     tokenizers=tokenizers, tokenizer_files=(), corpus=train_corpus, train_corpus=train_corpus,
                     max_sentences=max_sentences, repeats=None, cache_dir=cache_dir, retrain=retrain,
                     train_only=True)
    plan = plan_run(config)
    ids = [i for i in plan.tokenizer_ids if i not in PRETRAINED]
    if not ids:
        raise BenchmarkError("nothing to train: --tokenizers selects only pretrained tokenizers")
    cache = TrainingCache(Path(cache_dir) if cache_dir else default_cache_dir(), enabled=not retrain)
    built = build_tokenizers(ids, plan.training, cache, on_step=lambda label: print(label, file=sys.stderr))
    print(f"{'tokenizer':<28} {'vocab_size':>10} {'train_seconds':>13}  status", file=out)
    for tokenizer in built:
        if isinstance(tokenizer, Skipped):
            print(f"{tokenizer.id:<28} {tokenizer.vocab_size:>10} {'':>13}  skipped: {tokenizer.reason}", file=out)
            continue
        print(f"{tokenizer.id:<28} {tokenizer.vocab_size:>10} {tokenizer.train_seconds:>13.2f}  ok", file=out)
        if save_dir is not None:
            _save_model(tokenizer, Path(save_dir))
    print(f"cache: {cache.root}", file=out)
    return [t.id for t in built]


def cmd_encode(
    text: str,
    *,
    tokenizers: Sequence[str] | None = None,
    tokenizer_files: Sequence[Path] = (),
    tokenizer_file_pattern: str = "cl100k",
    vocab_sizes: Sequence[int] = (4096,),
    cache_dir: Path | None = None,
    separator: str = " | ",
    out: TextIO | None = None,
) -> dict[str, list[str]]:
    """Print `text` split at token boundaries under each tokenizer; return id -> pieces."""
    from benchmark.adapters import (
        PRETRAINED, Skipped, TrainingCache, build_tokenizers, check_tokenizer_files, default_cache_dir, file_id,
        load_tokenizer_file, select_ids,
    )
    from benchmark.measure import plan_run

    out = out or sys.stdout
    if not text:
        raise BenchmarkError("encode needs a non-empty text, e.g. `python -m benchmark encode \"Once upon a time\"`")
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as exc:
        # A command-line argument that is not valid UTF-8 arrives with its bad bytes as surrogates.
        raise BenchmarkError(
            f"the text is not valid UTF-8 (character {exc.start}: {text[exc.start:exc.end]!r}); pass UTF-8 text"
        ) from None
    check_tokenizer_files(tokenizer_files, pattern=tokenizer_file_pattern)
    files = {file_id(p): Path(p) for p in tokenizer_files}
    ids = select_ids(tokenizers, vocab_sizes, list(files))
    # The user's files before any training: a damaged one fails in seconds.
    from_files = {i: load_tokenizer_file(files[i], pattern=tokenizer_file_pattern) for i in ids if i in files}
    training = None
    if any(i not in PRETRAINED and i not in files for i in ids):
        config = _config(quick=False, languages=None, reference=None, vocab_sizes=vocab_sizes, tokenizers=None,
                         tokenizer_files=(), corpus=None, train_corpus=None, max_sentences=None, repeats=None,
                         cache_dir=cache_dir, retrain=False)
        training = plan_run(config).training
    cache = TrainingCache(Path(cache_dir) if cache_dir else default_cache_dir())
    library_ids = [i for i in ids if i not in files]
    built = build_tokenizers(library_ids, training, cache) if library_ids else []
    built += [from_files[i] for i in ids if i in files]
    width = max((len(t.id) for t in built), default=0)
    pieces: dict[str, list[str]] = {}
    for tokenizer in built:
        if isinstance(tokenizer, Skipped):
            print(f"{tokenizer.id:<{width}}     -  skipped: {tokenizer.reason}", file=out)
            continue
        split = tokenizer.token_strings(text)
        pieces[tokenizer.id] = split
        shown = separator.join(piece.replace("\n", "\\n") for piece in split)
        print(f"{tokenizer.id:<{width}} {len(split):>5}  {shown}", file=out)
    return pieces


def cmd_list(*, corpus: Path | None = None, cache_dir: Path | None = None, out: TextIO | None = None) -> None:
    """Print the tokenizer ids (at the default sizes), the corpus languages and what the cache holds."""
    from benchmark.adapters import DEFAULT_VOCAB_SIZES, PRETRAINED, TRAINED_FAMILIES, TrainingCache, default_cache_dir
    from benchmark.corpora import BUNDLED_CORPUS_DIR, language_name, load_corpus

    out = out or sys.stdout
    root = Path(corpus) if corpus else BUNDLED_CORPUS_DIR
    loaded = load_corpus(root)  # first: a bad folder is an error, not a listing cut short
    print("Tokenizers (trained at --vocab-sizes, default " + ",".join(map(str, DEFAULT_VOCAB_SIZES)) + "):", file=out)
    entries = [(f"{family.id_prefix}{{size}}", f"family {family.family}, trained on the dev split")
               for family in TRAINED_FAMILIES.values()]
    entries += [(tokenizer_id, "pretrained, offline") for tokenizer_id in PRETRAINED]
    entries.append(("file/<name>", "--tokenizer-file: HF tokenizer.json, SentencePiece .model, tiktoken ranks, "
                                   "our model JSON"))
    width = max(len(name) for name, _ in entries)
    for name, what in entries:
        print(f"  {name:<{width}}  {what}", file=out)
    print(f"\nCorpus {loaded.name} ({root}):", file=out)
    codes = loaded.languages
    code_width = max((len(code) for code in codes), default=0)
    name_width = max((len(language_name(code)) for code in codes), default=0)
    for code in codes:
        counts = ", ".join(f"{split} {len(loaded.lines(split, code))} lines" for split in loaded.splits)
        print(f"  {code:<{code_width}}  {language_name(code):<{name_width}}  {counts}", file=out)
    cache_root = Path(cache_dir) if cache_dir else default_cache_dir()
    print(f"\nCache of trained tokenizers: {cache_root}", file=out)
    held = TrainingCache(cache_root).entries()
    if not held:
        print("  (empty: `run` or `train` fills it)", file=out)
    for family, n in held.items():
        print(f"  {family:<{width}}  {n} entr{'y' if n == 1 else 'ies'}", file=out)


def cmd_report(*, results_path: Path = DEFAULT_OUTPUT / "results.json", output: Path | None = None,
               plots: bool = True, out: TextIO | None = None) -> list[Path]:
    """Render the reports again from a saved results.json (no measuring)."""
    from benchmark.results import load_results

    out = out or sys.stdout
    results = load_results(Path(results_path))
    output = Path(output) if output is not None else Path(results_path).parent
    check_output_folder(output)
    from benchmark.measure import progress_enabled

    written = _write_reports(results, output, plots=plots, out=out, show_progress=progress_enabled())
    print(f"wrote {len(written)} files to {output}/", file=out)
    return written


# ---------------------------------------------------------------- helpers


def _config(*, quick: bool, languages, reference, vocab_sizes, tokenizers, tokenizer_files,
            corpus, train_corpus, max_sentences, repeats, cache_dir, retrain,
            tokenizer_file_pattern: str = "cl100k", train_only: bool = False):
    from benchmark.measure import DEFAULT_REPEATS, RunConfig

    values = {
        "languages": tuple(languages) if languages else None,
        "reference": reference,
        "vocab_sizes": tuple(vocab_sizes) if vocab_sizes else None,
        "tokenizers": tuple(tokenizers) if tokenizers else None,
        "tokenizer_files": tuple(Path(p) for p in tokenizer_files),
        "tokenizer_file_pattern": tokenizer_file_pattern,
        "corpus_dir": Path(corpus) if corpus else None,
        "train_corpus_dir": Path(train_corpus) if train_corpus else None,
        "max_sentences": max_sentences,
        "repeats": repeats,
        "cache_dir": Path(cache_dir) if cache_dir else None,
        "retrain": retrain,
        "train_only": train_only,
    }
    if quick:
        return RunConfig.quick_defaults(**values)
    values = {k: v for k, v in values.items() if v is not None}
    values.setdefault("repeats", DEFAULT_REPEATS)
    return RunConfig(**values)


def check_output_folder(folder: Path) -> None:
    """A BenchmarkError unless reports can be written into `folder` (which need not exist yet)."""
    folder = Path(folder)
    existing = folder
    while not existing.exists() and existing != existing.parent:
        existing = existing.parent
    if not existing.is_dir():
        what = "is a file" if existing == folder else f"cannot be made: {existing} is a file"
        raise BenchmarkError(f"{folder}: {what}; the output must be a folder")
    if (folder / "plots").exists() and not (folder / "plots").is_dir():
        raise BenchmarkError(f"{folder / 'plots'}: is a file; the plots go in a folder of that name")
    if not os.access(existing, os.W_OK | os.X_OK):
        raise BenchmarkError(f"{folder}: cannot write into {existing} (permission denied)")


def _write_reports(results, output: Path, *, plots: bool, out: TextIO, show_progress: bool = False) -> list[Path]:
    from benchmark.report import write_reports

    if not show_progress:
        return list(write_reports(results, output, plots=plots))
    from rich.console import Console

    # Plots take seconds: a spinner says the program is still working.
    with Console(stderr=True).status(f"writing reports to {output}/"):
        return list(write_reports(results, output, plots=plots))


def _save_model(tokenizer, folder: Path) -> Path:
    """The tokenizer's model file in `folder`, named after its id (`bpe/cl100k-4096` ->
    `bpe_cl100k-4096.json`); an adapter without a file format is a BenchmarkError."""
    path = Path(folder) / (tokenizer.id.replace("/", "_") + tokenizer.file_suffix)
    tokenizer.save(path)
    return path


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m benchmark",
        description="What the same sentence costs in tokens, language by language.",
    )
    verbs = parser.add_subparsers(dest="verb", metavar="VERB", required=True)

    def add_rank_file_pattern(p: argparse.ArgumentParser) -> None:
        from benchmark.adapters import rank_file_patterns

        p.add_argument("--rank-file-pattern", default="cl100k", choices=rank_file_patterns(),
                       help="pre-tokenisation pattern for a tiktoken rank file (default cl100k)")

    def corpus_options(p: argparse.ArgumentParser, *, measure: bool = True) -> None:
        p.add_argument("--languages", type=argtypes.csv_list, metavar="CODES",
                       help="comma-separated language codes (default: every language of the corpus)")
        p.add_argument("--vocab-sizes", type=argtypes.vocab_sizes, metavar="SIZES",
                       help="sizes of the trained tokenizers (default 1024,2048,4096,8192,16384; --quick 1024,4096)")
        p.add_argument("--tokenizers", type=argtypes.csv_list, metavar="IDS",
                       help="restrict to these ids or patterns, e.g. 'bpe/*,tiktoken/o200k_base' (see `list`)")
        p.add_argument("--train-corpus", type=argtypes.folder, metavar="DIR",
                       help="train on this corpus's dev split (default: the bundled FLORES-200)")
        p.add_argument("--max-sentences", type=argtypes.positive_int, metavar="N", help="use only the first N lines per language")
        p.add_argument("--cache-dir", type=argtypes.folder, metavar="DIR",
                       help="where trained tokenizers are cached (default $XDG_CACHE_HOME/tokencost or ~/.cache/tokencost)")
        p.add_argument("--retrain", action="store_true", help="train again even when the cache has the model")
        p.add_argument("--quick", action="store_true",
                       help="a quick look: the first 200 lines per language, sizes 1024 and 4096")

    run = verbs.add_parser("run", help="measure everything and write reports/",
                           description="Train, measure every tokenizer on every language, write the reports.")
    corpus_options(run)
    run.add_argument("--output", type=argtypes.folder, default=DEFAULT_OUTPUT, metavar="DIR", help="where to write (default reports/)")
    run.add_argument("--corpus", type=argtypes.folder, metavar="DIR",
                     help="measure on this parallel corpus: <code>.txt files, optional dev/ and devtest/")
    run.add_argument("--reference", metavar="CODE", help="the premium's reference language (default: English)")
    run.add_argument("--tokenizer-file", type=Path, action="append", default=[], metavar="PATH",
                     help="add a tokenizer from a file (HF tokenizer.json, SentencePiece .model, tiktoken ranks, our model JSON); repeatable")
    add_rank_file_pattern(run)
    run.add_argument("--repeats", type=argtypes.positive_int, metavar="N", help="timed repeats per tokenizer and language (default 3)")
    run.add_argument("--no-plots", action="store_true",
                     help="skip the plots (faster); old plots in the output folder are removed")
    run.set_defaults(handler=lambda a: cmd_run(
        output=a.output, quick=a.quick, languages=a.languages, reference=a.reference, vocab_sizes=a.vocab_sizes,
        tokenizers=a.tokenizers, tokenizer_files=a.tokenizer_file, tokenizer_file_pattern=a.rank_file_pattern,
        corpus=a.corpus, train_corpus=a.train_corpus, max_sentences=a.max_sentences, repeats=a.repeats,
        cache_dir=a.cache_dir, retrain=a.retrain, plots=not a.no_plots))

    train = verbs.add_parser("train", help="train the trained tokenizers into the cache",
                             description="Train (or read from the cache) every trained tokenizer; print sizes and seconds.")
    corpus_options(train)
    train.add_argument("--save-dir", type=argtypes.folder, metavar="DIR", help="also write each model file into DIR")
    train.set_defaults(handler=lambda a: cmd_train(
        quick=a.quick, languages=a.languages, vocab_sizes=a.vocab_sizes, tokenizers=a.tokenizers,
        train_corpus=a.train_corpus, max_sentences=a.max_sentences, cache_dir=a.cache_dir, retrain=a.retrain,
        save_dir=a.save_dir))

    encode = verbs.add_parser("encode", help="show how a sentence splits in each tokenizer",
                              description="Show TEXT split at token boundaries: Once | upon | a | time.")
    encode.add_argument("text", type=argtypes.text_or_stdin, help="the sentence to split; - reads it from stdin")
    encode.add_argument("--tokenizers", type=argtypes.csv_list, metavar="IDS", help="ids or patterns (default: all)")
    encode.add_argument("--tokenizer-file", type=Path, action="append", default=[], metavar="PATH",
                        help="add a tokenizer from a file; repeatable")
    add_rank_file_pattern(encode)
    encode.add_argument("--vocab-sizes", type=argtypes.vocab_sizes, default=[4096], metavar="SIZES",
                        help="sizes of the trained tokenizers (default 4096)")
    encode.add_argument("--cache-dir", type=argtypes.folder, metavar="DIR", help="cache of trained tokenizers")
    encode.add_argument("--separator", default=" | ", help="shown between tokens (default ' | ')")
    encode.set_defaults(handler=lambda a: cmd_encode(
        a.text, tokenizers=a.tokenizers, tokenizer_files=a.tokenizer_file,
        tokenizer_file_pattern=a.rank_file_pattern, vocab_sizes=a.vocab_sizes,
        cache_dir=a.cache_dir, separator=a.separator))

    listing = verbs.add_parser("list", help="list tokenizers and corpora",
                               description="List the tokenizer ids and the corpus languages.")
    listing.add_argument("--corpus", type=argtypes.folder, metavar="DIR", help="list this corpus instead of the bundled one")
    listing.add_argument("--cache-dir", type=argtypes.folder, metavar="DIR",
                         help="the cache of trained tokenizers to show (default $XDG_CACHE_HOME/tokencost)")
    listing.set_defaults(handler=lambda a: cmd_list(corpus=a.corpus, cache_dir=a.cache_dir))

    report = verbs.add_parser("report", help="render reports again from a saved results.json",
                              description="Render the reports from a saved results.json, without measuring.")
    report.add_argument("--results", type=Path, default=DEFAULT_OUTPUT / "results.json", metavar="PATH",
                        help="the saved results (default reports/results.json)")
    report.add_argument("--output", type=argtypes.folder, metavar="DIR", help="where to write (default: the results file's folder)")
    report.add_argument("--no-plots", action="store_true",
                        help="skip the plots; old plots in the output folder are removed")
    report.set_defaults(handler=lambda a: cmd_report(results_path=a.results, output=a.output, plots=not a.no_plots))
    _add_speed_parser(verbs)
    return parser


def _add_speed_parser(verbs) -> None:
    """The `speed` verb: its options unpacked into `benchmark.speed.SpeedOptions` for `run_speed`."""
    from benchmark.corpora import BUNDLED_CORPUS_DIR, FLORES_LANGUAGES
    from benchmark.speed import SpeedOptions, baseline, instructions, ratios, run_speed, training

    def percent(share: float) -> str:
        return f"{share:.0%}".replace("%", "%%")  # argparse formats help with %

    speed = verbs.add_parser(
        "speed", help="our encoder's speed as ratios to tiktoken; --check against the baseline",
        description=f"Time our BPE against tiktoken {ratios.ENCODING} on FLORES-200 devtest "
                    f"({', '.join(ratios.FIGURES)}) and print Markdown, with scaling on \"a\" * n, the textbook "
                    "factor and training against HF. "
                    "--check exits 1 when a ratio is worse than the baseline by more than its tolerance, or a "
                    "figure's ratios by more than --figure-tolerance on average over the languages.",
    )
    speed.add_argument("--check", action="store_true",
                       help="compare the ratios with the baseline; exit 1 on a regression (ratios only)")
    speed.add_argument("--update-baseline", action="store_true", help="write the measured ratios as the baseline")
    speed.add_argument("--baseline", type=Path, default=baseline.DEFAULT_BASELINE, metavar="PATH",
                       help=f"the baseline file (default {baseline.DEFAULT_BASELINE.parent.name}/"
                            f"{baseline.DEFAULT_BASELINE.name})")
    speed.add_argument("--tolerance", type=argtypes.share, metavar="SHARE",
                       help="allowed growth of a ratio, e.g. 0.25 or 25%% (default: the baseline's; "
                            f"{percent(baseline.DEFAULT_TOLERANCE)} for a new one)")
    speed.add_argument("--figure-tolerance", type=argtypes.share, metavar="SHARE",
                       default=baseline.DEFAULT_FIGURE_TOLERANCE,
                       help="allowed growth of a figure's ratios averaged over the languages (geometric mean; "
                            f"judged with {baseline.MIN_LANGUAGES_FOR_MEAN} languages or more; default "
                            f"{percent(baseline.DEFAULT_FIGURE_TOLERANCE)})")
    speed.add_argument("--repeats", type=argtypes.positive_int, metavar="N",
                       help=f"interleaved repeats per ratio (default {ratios.SPEED_REPEATS}; "
                            f"{baseline.BASELINE_REPEATS} with --update-baseline), or training runs with "
                            f"--training (default {training.TRAINING_REPEATS})")
    speed.add_argument("--languages", type=argtypes.csv_list, default=FLORES_LANGUAGES, metavar="CODES",
                       help=f"comma-separated FLORES-200 codes (default {','.join(FLORES_LANGUAGES)})")
    speed.add_argument("--corpus-dir", type=argtypes.folder, default=BUNDLED_CORPUS_DIR, metavar="DIR",
                       help="a FLORES-200 folder with dev/ and devtest/ (default: the bundled "
                            f"{BUNDLED_CORPUS_DIR.parent.name}/{BUNDLED_CORPUS_DIR.name})")
    speed.add_argument("--max-lines", type=argtypes.positive_int, metavar="N", help="only the first N lines of each file")
    speed.add_argument("--clock", choices=sorted(ratios.CLOCKS), default=ratios.DEFAULT_CLOCK,
                       help="cpu: the process's CPU time, immune to other processes taking the core; wall: the "
                            "wall clock (default %(default)s)")
    figure = speed.add_mutually_exclusive_group()
    figure.add_argument("--ratios-only", action="store_true",
                        help="only the ratios: skip scaling, textbook and training figures (quicker)")
    figure.add_argument("--training", action="store_true",
                        help="only training time, ours against HuggingFace tokenizers, on the dev split")
    figure.add_argument("--instructions", action="store_true",
                        help="only the unseen ratio counted in CPU instructions under valgrind's callgrind (minutes)")
    speed.add_argument("--vocab-sizes", type=argtypes.vocab_sizes, default=training.TRAINING_VOCAB_SIZES,
                       metavar="SIZES", help="vocabulary sizes of the training figure "
                                             f"(default {','.join(map(str, training.TRAINING_VOCAB_SIZES))})")
    speed.add_argument("--jobs", type=argtypes.positive_int, default=instructions.INSTRUCTION_JOBS, metavar="N",
                       help="valgrind runs at a time with --instructions (default %(default)s)")
    speed.set_defaults(handler=lambda a: run_speed(SpeedOptions(
        check=a.check, update_baseline=a.update_baseline, baseline=a.baseline, tolerance=a.tolerance,
        figure_tolerance=a.figure_tolerance, repeats=a.repeats, languages=tuple(a.languages),
        corpus_dir=a.corpus_dir, max_lines=a.max_lines, clock=a.clock, ratios_only=a.ratios_only,
        training=a.training, instructions=a.instructions, vocab_sizes=tuple(a.vocab_sizes), jobs=a.jobs)))


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        status = args.handler(args)
    except BenchmarkError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        # The reader went away (`| head`): stop quietly, and keep Python from complaining at exit.
        try:
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        except (OSError, ValueError):
            pass  # stdout is not a file here (redirected in-process): nothing to silence
        return 1
    except OSError as exc:
        if exc.errno is None:
            raise  # not the system's: a bug, keep its traceback
        # A file or folder we could not write or read (a full disk, a name taken by a file...):
        # the system's message names the path.
        print(f"error: {exc}", file=sys.stderr)
        return 2
    return status if isinstance(status, int) else 0

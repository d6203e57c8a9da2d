"""`python -m benchmark VERB ...`: the parser, and one thin handler per verb.

argparse only parses; each handler unpacks the options into one typed call of `benchmark.cli.commands`
(which tests and other code call too). A `BenchmarkError` is printed as one line on stderr, exit
code 2; Ctrl-C says what the output folder holds, exit code 130.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import Sequence

from benchmark.cli import argtypes
from benchmark.cli.cost import PRICES_HELP, add_cost_parser
from benchmark.cli.commands import DEFAULT_OUTPUT
from benchmark.plumbing.errors import BenchmarkError
from benchmark.plumbing.escaping import terminal_text

EXIT_USER_ERROR, EXIT_INTERRUPTED = 2, 130


def _config(args: argparse.Namespace, **fixed):
    """The run options shared by run, train and encode, as a RunConfig (`fixed` for verbs that
    lack an option)."""
    names = ("quick", "languages", "reference", "vocab_sizes", "tokenizers", "train_mixes", "corpus", "train_corpus",
             "domain", "max_sentences", "repeats", "cache_dir", "retrain", "no_cache", "reuse_timing", "bases")
    values = {name: getattr(args, name, None) for name in names}
    values["tokenizer_files"] = getattr(args, "tokenizer_file", ())
    values["tokenizer_file_pattern"] = getattr(args, "rank_file_pattern", "cl100k")
    values["quick"] = bool(values["quick"])
    values["retrain"] = bool(values["retrain"])
    values["no_cache"] = bool(values["no_cache"])
    values["reuse_timing"] = bool(values["reuse_timing"])
    if values["reuse_timing"] and (values["no_cache"] or values["retrain"]):
        from benchmark.plumbing.errors import BenchmarkError

        raise BenchmarkError("--reuse-timing reads the results cache: drop --no-cache and --retrain, or --reuse-timing")
    if getattr(args, "models", None):  # --models gpt-5,llama-4-maverick: their tokenizers, with any --tokenizers
        from benchmark.adapters.models import tokenizers_of

        values["tokenizers"] = [*(values["tokenizers"] or ()), *tokenizers_of(args.models)]
    values.update(fixed)
    from benchmark.measure.plan import RunConfig

    return RunConfig.from_options(**values)


def _plot_formats(args: argparse.Namespace) -> tuple[str, ...]:
    """The plots' file formats: PNG (what the page and README show), SVG too with --svg."""
    if args.no_plots:
        return ()
    return ("png", "svg") if args.svg else ("png",)


def _run(args: argparse.Namespace) -> int:
    from benchmark.cli.commands import cmd_run

    return cmd_run(_config(args), output=args.output, plots=_plot_formats(args), executor=args.executor,
                   workers=args.workers, scheduler=args.scheduler, replace_foreign=args.replace_foreign)


def _train(args: argparse.Namespace) -> int:
    from benchmark.cli.commands import cmd_train

    return cmd_train(_config(args), save_dir=args.save_dir)


def _encode(args: argparse.Namespace) -> int:
    from benchmark.cli.show import cmd_encode

    text = argtypes.stdin_text() if args.text == "-" else args.text
    return cmd_encode(text, _config(args), separator=args.separator)


def _list(args: argparse.Namespace) -> int:
    from benchmark.cli.show import cmd_list

    return cmd_list(corpus=args.corpus, cache_dir=args.cache_dir)


def _reproduce(args: argparse.Namespace) -> int:
    from benchmark.cli.commands import cmd_reproduce

    return cmd_reproduce(args.study, columns=args.columns, languages=args.languages)


def _report(args: argparse.Namespace) -> int:
    from benchmark.cli.commands import cmd_report

    return cmd_report(results_path=args.results, output=args.output, plots=_plot_formats(args),
                      replace_foreign=args.replace_foreign, prices=args.prices, base=args.base)


def build_parser() -> argparse.ArgumentParser:
    from benchmark.adapters import DEFAULT_VOCAB_SIZES
    from benchmark.adapters.openai_tiktoken import rank_file_patterns
    from benchmark.measure.executors import EXECUTORS
    from benchmark.corpora.mixes import BUILT_IN, DEFAULT_MIXES
    from benchmark.measure.plan import QUICK_SENTENCES, QUICK_VOCAB_SIZES, TIMED_REPEATS
    from benchmark.reproduce import STUDIES

    def sizes(values: Sequence[int]) -> str:
        return ",".join(map(str, values))

    parser = argparse.ArgumentParser(
        prog="python -m benchmark",
        description="What the same sentence costs in tokens, language by language.",
    )
    verbs = parser.add_subparsers(dest="verb", metavar="VERB", required=True)

    def tokenizer_files(p) -> None:
        p.add_argument("--tokenizer-file", type=Path, action="append", default=[], metavar="PATH",
                       help="add a tokenizer from a file (HF tokenizer.json, SentencePiece .model, tiktoken ranks, "
                            "our model JSON); repeatable")
        p.add_argument("--rank-file-pattern", default="cl100k", choices=rank_file_patterns(),
                       help="pre-tokenisation pattern for a tiktoken rank file (default %(default)s)")

    def replace_foreign_option(p: argparse.ArgumentParser) -> None:
        p.add_argument("--replace-foreign", action="store_true",
                       help="replace the output folder even when it holds files that are not this program's report "
                            "(they are deleted); without it such a folder stops the run before it measures")

    def corpus_options(p: argparse.ArgumentParser, yours=None) -> None:
        """The options run and train share; `yours` (an argument group) takes those that point
        the verb at the user's own languages and text."""
        yours = yours or p
        yours.add_argument("--languages", type=argtypes.csv_list, metavar="CODES",
                       help="comma-separated language codes, e.g. hin,amh_Ethi, in any case, a code without its "
                            "script (hin) when the language has one script in the corpus; or all (default: the six "
                            "of the bundled FLORES-200, every language of --corpus DIR; `list` shows them)")
        p.add_argument("--vocab-sizes", type=argtypes.vocab_sizes, metavar="SIZES",
                       help=f"sizes of the trained tokenizers (default {sizes(DEFAULT_VOCAB_SIZES)}; "
                            f"--quick {sizes(QUICK_VOCAB_SIZES)})")
        p.add_argument("--tokenizers", type=argtypes.csv_list, metavar="IDS",
                       help="restrict to these ids or patterns, e.g. 'bpe/*,tiktoken/o200k_base' (see `list`); "
                            "production: every vendor's vocabulary, once")
        p.add_argument("--train-mix", dest="train_mixes", action="append", metavar="MIX",
                       help=f"a training mix of our BPE, repeatable: {', '.join(BUILT_IN)}, another script's "
                            "characters first like 'han-first' or 'hiragana+katakana-first', or shares of the "
                            f"training bytes like 'eng=9,*=1' (default: {', '.join(DEFAULT_MIXES)})")
        yours.add_argument("--train-corpus", type=argtypes.folder, metavar="DIR",
                       help="train on this corpus's dev split (default: the bundled FLORES-200; for run, a --corpus "
                            "DIR with dev/ and devtest/ trains on its own dev/)")
        p.add_argument("--max-sentences", type=argtypes.positive_int, metavar="N",
                       help="use only the first N lines per language")
        p.add_argument("--cache-dir", type=argtypes.folder, metavar="DIR",
                       help="where trained tokenizers are cached (default $XDG_CACHE_HOME/tokencost or ~/.cache/tokencost)")
        p.add_argument("--retrain", action="store_true", help="train again even when the cache has the model")
        p.add_argument("--quick", action="store_true",
                       help=f"a quick look: the first {QUICK_SENTENCES} lines per language, sizes "
                            f"{sizes(QUICK_VOCAB_SIZES)}; run also times less and leaves out the vocabulary check and "
                            "rare entries (the record says what)")

    run = verbs.add_parser("run", help="measure everything and write reports/",
                           description="Train, measure every tokenizer on every language, write the reports. "
                                       "Try --quick first; docs/usage.md says what each option does and what a "
                                       "run writes.")
    yours = run.add_argument_group(
        "your languages, corpus and tokenizers",
        "Measure any of the 204 bundled FLORES-200 languages, your own parallel text (--corpus DIR: "
        "<code>.txt files, one UTF-8 sentence per line, line N the same sentence in every file) or your "
        "own tokenizer file, against English or another --reference.")
    corpus_options(run, yours)
    yours.add_argument("--corpus", type=argtypes.folder, metavar="DIR",
                       help="measure on this parallel corpus: <code>.txt files; with dev/ and devtest/ subfolders, "
                            "devtest/ is measured and dev/ trains (a flat folder trains on the bundled FLORES-200); "
                            "or the name of a corpus in corpora/, e.g. wmt24pp")
    yours.add_argument("--domain", metavar="NAME",
                       help="measure only the lines of this kind of text, by the corpus's per-line labels (its "
                            "domains.tsv; the bundled FLORES-200: wikinews, wikibooks, wikivoyage; wmt24pp: literary, "
                            "news, social, speech); without it, a labelled corpus is measured whole and the premium is "
                            "also given per domain")
    yours.add_argument("--reference", metavar="CODE", help="the premium's reference language (default: English)")
    yours.add_argument("--bases", type=argtypes.csv_list, metavar="CODES",
                       help="also compute premiums, with their intervals, over these languages (e.g. hin,zho_Hans; "
                            "all: every one), for `report --base` and `cost --base` (default: every language of a "
                            "run of up to 12, else the UN's six languages, Hindi, Portuguese, Indonesian and Swahili; "
                            "docs/methodology.md)")
    tokenizer_files(yours)
    yours.add_argument("--models", type=argtypes.csv_list, metavar="NAMES",
                       help="measure the tokenizers these models use, e.g. gpt-5,llama-4-maverick (with --tokenizers: "
                            "both)")
    run.add_argument("--output", type=argtypes.folder, default=DEFAULT_OUTPUT, metavar="DIR",
                     help="where to write (default %(default)s/); it is replaced whole, so it holds a report or nothing")
    replace_foreign_option(run)
    run.add_argument("--repeats", type=argtypes.positive_int, metavar="N",
                     help=f"timed repeats per tokenizer and language (default {TIMED_REPEATS})")
    run.add_argument("--no-plots", action="store_true", help="skip the plots (faster)")
    run.add_argument("--svg", action="store_true", help="also write each plot as SVG (for print; the page and "
                                                         "README show the PNGs)")
    run.add_argument("--no-cache", action="store_true",
                     help="count everything again and keep nothing: no counts, vocabulary checks or word spans "
                          "from the results cache (beside the trained models; --retrain also trains again)")
    run.add_argument("--reuse-timing", action="store_true",
                     help="take the timing columns from the results cache where an earlier run on this machine "
                          "timed the same tokenizer, text and settings (the record says from when); default: "
                          "timed every run")
    run.add_argument("--workers", type=argtypes.positive_int, metavar="N",
                     help="processes that train and count (default: every core); timing always runs alone on one")
    run.add_argument("--executor", choices=EXECUTORS, default=EXECUTORS[0],
                     help="where counting runs: worker processes here, a Dask cluster, or this process "
                          "(default %(default)s; see docs/cluster.md)")
    run.add_argument("--scheduler", metavar="HOST:PORT",
                     help="with --executor dask: the address of a running Dask scheduler, tcp:// or tls:// (default: "
                          "a local cluster of --workers processes); the run waits for its answer as long as Dask's "
                          "connect timeout (30 s) and 60 s for a worker, then stops naming what it waited for")
    run.set_defaults(handler=_run)

    train = verbs.add_parser("train", help="train the trained tokenizers into the cache",
                             description="Train (or read from the cache) every trained tokenizer; print sizes and seconds.")
    corpus_options(train)
    train.add_argument("--save-dir", type=argtypes.folder, metavar="DIR", help="also write each model file into DIR")
    train.set_defaults(handler=_train)

    encode = verbs.add_parser("encode", help="show how a sentence splits in each tokenizer",
                              description="Show TEXT split at token boundaries: Once | upon | a | time.")
    encode.add_argument("text", help="the sentence to split; - reads it from stdin")
    encode.add_argument("--tokenizers", type=argtypes.csv_list, metavar="IDS", help="ids or patterns (default: all)")
    encode.add_argument("--models", type=argtypes.csv_list, metavar="NAMES",
                        help="the tokenizers these models use, e.g. gpt-5,claude-2.1 (with --tokenizers: both)")
    tokenizer_files(encode)
    encode.add_argument("--vocab-sizes", type=argtypes.vocab_sizes, default=[4096], metavar="SIZES",
                        help="sizes of the trained tokenizers (default 4096)")
    encode.add_argument("--cache-dir", type=argtypes.folder, metavar="DIR", help="cache of trained tokenizers")
    encode.add_argument("--separator", default=" | ", help="shown between tokens (default %(default)r)")
    encode.set_defaults(handler=_encode)

    listing = verbs.add_parser("list", help="list tokenizers and corpora",
                               description="List the tokenizer ids and the corpus languages.")
    listing.add_argument("--corpus", type=argtypes.folder, metavar="DIR", help="list this corpus (a folder, or a name in corpora/) instead of the bundled one")
    listing.add_argument("--cache-dir", type=argtypes.folder, metavar="DIR",
                         help="the cache of trained tokenizers to show (default $XDG_CACHE_HOME/tokencost)")
    listing.set_defaults(handler=_list)

    report = verbs.add_parser("report", help="render reports again from a saved results.json",
                              description="Render the reports from a saved results.json, without measuring.")
    report.add_argument("--results", type=Path, default=DEFAULT_OUTPUT / "results.json", metavar="PATH",
                        help="the saved results (default %(default)s)")
    report.add_argument("--output", type=argtypes.folder, metavar="DIR",
                        help="where to write (default: the results file's folder); it is replaced whole")
    report.add_argument("--no-plots", action="store_true", help="skip the plots")
    report.add_argument("--svg", action="store_true", help="also write each plot as SVG (for print)")
    report.add_argument("--prices", type=Path, metavar="FILE", help=PRICES_HELP + " (as `cost --prices`)")
    report.add_argument("--base", metavar="CODE", help="premiums over this language instead of the run's reference "
                        "(one the run computed: run --bases)")
    replace_foreign_option(report)
    report.set_defaults(handler=_report)

    reproduce = verbs.add_parser(
        "reproduce", help="recompute a study's published token counts offline and compare them",
        description="Recompute a study's published token counts on the bundled FLORES-200 with its protocol, "
                    "offline, and compare each with the published number; exit 1 if any differs, with a table "
                    "of language, published, computed (docs/reproduce.md).")
    reproduce.add_argument("study", choices=sorted(STUDIES), help="the study: petrov2023 (Petrov et al., NeurIPS 2023)")
    reproduce.add_argument("--columns", type=argtypes.csv_list, metavar="NAMES",
                           help="only these published columns, e.g. cl100k_base,ByT5 (default: every one it can)")
    reproduce.add_argument("--languages", type=argtypes.csv_list, metavar="CODES",
                           help="only these languages, e.g. hin,amh_Ethi (default: every one published)")
    reproduce.set_defaults(handler=_reproduce)
    add_cost_parser(verbs)
    _add_speed_parser(verbs)
    return parser





class _Renamed(argparse.Action):
    """An option's old spelling: one line naming the new one (one spelling per option across verbs)."""

    def __call__(self, parser, namespace, values, option_string=None):
        parser.error(f"{option_string} is now {self.default}, as in `run`: use {self.default} {' '.join(values)}")


def renamed(parser: argparse.ArgumentParser, old: str, new: str) -> None:
    parser.add_argument(old, action=_Renamed, nargs="*", default=new, dest=f"_renamed_{old.strip('-')}",
                        help=argparse.SUPPRESS)


def _add_speed_parser(verbs) -> None:
    """The `speed` verb: its options unpacked into `benchmark.speed.SpeedOptions` for `run_speed`."""
    from benchmark.corpora import BUNDLED_CORPUS_DIR, FLORES_LANGUAGES
    from benchmark.cli.commands import cmd_speed
    from benchmark.speed import SpeedOptions, baseline, instructions, ratios, training

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
    speed.add_argument("--corpus", dest="corpus_dir", type=argtypes.folder, default=BUNDLED_CORPUS_DIR, metavar="DIR",
                       help="a FLORES-200 folder with dev/ and devtest/ (default: the bundled "
                            f"{BUNDLED_CORPUS_DIR.parent.name}/{BUNDLED_CORPUS_DIR.name})")
    speed.add_argument("--max-sentences", type=argtypes.positive_int, metavar="N",
                       help="use only the first N lines per language")
    renamed(speed, "--corpus-dir", "--corpus")
    renamed(speed, "--max-lines", "--max-sentences")
    speed.add_argument("--clock", choices=sorted(ratios.CLOCKS), default=ratios.DEFAULT_CLOCK,
                       help="cpu: the process's CPU time, immune to other processes taking the core; wall: the "
                            "wall clock (default %(default)s)")
    figure = speed.add_mutually_exclusive_group()
    figure.add_argument("--ratios-only", action="store_true",
                        help="only the ratios: skip scaling, textbook and training figures (quicker)")
    figure.add_argument("--training", action="store_true",
                        help="only training time, ours against HuggingFace tokenizers, on the dev split")
    figure.add_argument("--parity", action="store_true",
                        help="only parity-aware training against standard training: time, peak memory, devtest tokens")
    figure.add_argument("--hf-parity", action="store_true",
                        help="only our parity-aware trainer against HF's ParityBpeTrainer: merges, tokens, Gini, time")
    figure.add_argument("--instructions", action="store_true",
                        help="only the unseen ratio counted in CPU instructions under valgrind's callgrind (minutes)")
    speed.add_argument("--vocab-sizes", type=argtypes.vocab_sizes, default=training.TRAINING_VOCAB_SIZES,
                       metavar="SIZES", help="vocabulary sizes of the training figure "
                                             f"(default {','.join(map(str, training.TRAINING_VOCAB_SIZES))})")
    speed.add_argument("--train-mix", metavar="MIX",
                       help="with --parity: train both on this mix (e.g. english-heavy; default balanced)")
    speed.add_argument("--jobs", type=argtypes.positive_int, default=instructions.INSTRUCTION_JOBS, metavar="N",
                       help="valgrind runs at a time with --instructions (default %(default)s)")
    speed.add_argument("--workers", type=argtypes.positive_int, default=1, metavar="N",
                       help="the training figure: our pre-token counting in N processes, HF on N threads "
                            "(default 1: one core each)")
    speed.set_defaults(handler=lambda a: cmd_speed(SpeedOptions(
        check=a.check, update_baseline=a.update_baseline, baseline=a.baseline, tolerance=a.tolerance,
        figure_tolerance=a.figure_tolerance, repeats=a.repeats, languages=tuple(a.languages),
        corpus_dir=a.corpus_dir, max_sentences=a.max_sentences, clock=a.clock, ratios_only=a.ratios_only,
        training=a.training, instructions=a.instructions, parity=a.parity, hf_parity=a.hf_parity,
        train_mix=a.train_mix,
        vocab_sizes=tuple(a.vocab_sizes), jobs=a.jobs, workers=a.workers)))


def main(argv: Sequence[str] | None = None) -> int:
    # OpenBLAS (under numpy) starts an idle thread per extra core, and a process with another thread
    # is not forked (plumbing/children.py): the plots would draw on one core. Its products here are small.
    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
    args = build_parser().parse_args(argv)
    try:
        status = args.handler(args)
    except BenchmarkError as exc:
        print(f"error: {terminal_text(str(exc))}", file=sys.stderr)
        return EXIT_USER_ERROR
    except KeyboardInterrupt as exc:
        print(terminal_text(str(exc)) if str(exc) else "interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED
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
        print(f"error: {terminal_text(str(exc))}", file=sys.stderr)
        return EXIT_USER_ERROR
    return status if isinstance(status, int) else 0

"""The `cost` verb's arguments and its handler: one language's answer from saved results, or a
user's own files (`--file`), each passed to its command (cli/commands.py)."""

from __future__ import annotations

import argparse
from pathlib import Path

from benchmark.cli import argtypes
from benchmark.plumbing.errors import BenchmarkError

PRICES_HELP = ("your own prices: a CSV with the header model,input_usd_per_mtok[,context_window][,tokenizer]"
               "[,provider]; a model it names takes its price and window from it")


def run_cost(args: argparse.Namespace) -> int:
    from benchmark.cli.commands import cmd_cost, cmd_cost_file

    if args.file is not None:  # cost --file PATH ...: the user's own text (pricing/file/answer.py)
        if args.base is not None:
            raise BenchmarkError("--base changes a language's answer (cost hin --base zho_Hans); --file counts "
                                 "your text, over no base")
        if args.language is not None:
            raise BenchmarkError(f"with --file, name the files' language with --language {args.language}")
        return cmd_cost_file(args.file, language=args.file_language, results_path=args.results, prices=args.prices,
                             models=args.models, as_json=args.json, every_tokenizer=args.all, domain=args.domain)
    if args.language is None:
        raise BenchmarkError("cost needs a language (cost hin) or your own files (cost --file PATH)")
    if args.file_language is not None:  # never ignored silently
        raise BenchmarkError(f"--language names --file's language; for a language's answer: cost {args.file_language}")
    if args.all:
        raise BenchmarkError("--all counts --file on every production tokenizer; a language's answer has them all")
    if args.domain is not None:
        raise BenchmarkError(f"--domain picks the calibration that your own text's estimate uses: "
                             f"cost --file PATH --domain {args.domain}")
    return cmd_cost(args.language, results_path=args.results, prices=args.prices, models=args.models, as_json=args.json,
                    base=args.base)


def add_cost_parser(verbs) -> None:
    from benchmark.cli.commands import ALL_LANGUAGES_OUTPUT

    cost = verbs.add_parser(
        "cost", help="what one language costs on each model, and the cheapest and roomiest model (no measuring)",
        description="For one language, from saved results (the committed 204-language run by default): every "
                    "production tokenizer with its models, tokens per sentence, the premium over English, the "
                    "cheapest priced model with the cost of the measured text, and how much fits in a window; then "
                    "the cheapest and the roomiest model overall. Prices and windows come from the pinned price "
                    "database (offline), or from --prices FILE.")
    cost.add_argument("language", nargs="?",
                      help="a FLORES-200 code (hin, hin_Deva, zho_Hans) or an English name (Hindi)")
    cost.add_argument("--file", nargs="+", type=Path, metavar="PATH",
                      help="count your own text files instead (UTF-8, any language) on the vendors' flagships' "
                           "tokenizers (or --all), priced on every model of them, with how often they fit its window")
    cost.add_argument("--all", action="store_true", help="with --file: count on every production tokenizer, not "
                      "only the vendors' flagships' (every vocabulary loads: slower)")
    cost.add_argument("--language", dest="file_language", metavar="CODE",
                      help="with --file: the files' language, to say what the same content takes in English, from "
                           "its measured premium in --results")
    cost.add_argument("--domain", metavar="NAME",
                      help="with --file: estimate without a tokenizer by the calibration fitted on this domain's "
                           "lines (one of --results' calibration domains, e.g. wikinews or ui), not the whole "
                           "corpus's; with --language or --domain the answer gives that estimate beside each count")
    cost.add_argument("--results", type=Path, default=ALL_LANGUAGES_OUTPUT / "results.json", metavar="PATH",
                      help="the saved results (default %(default)s)")
    cost.add_argument("--prices", type=Path, metavar="FILE", help=PRICES_HELP)
    cost.add_argument("--models", type=argtypes.csv_list, metavar="NAMES",
                      help="a shortlist: only these models, e.g. gpt-5,gemini-2.5-flash,llama-4-maverick (a family "
                           "name is taken with its models named; a brand like claude is refused)")
    cost.add_argument("--base", metavar="CODE",
                      help="premiums over this language instead of English (one the run computed: run --bases)")
    cost.add_argument("--json", action="store_true",
                      help="print the whole answer as JSON (every figure, its interval and its sources; docs/usage.md)")
    cost.set_defaults(handler=run_cost)


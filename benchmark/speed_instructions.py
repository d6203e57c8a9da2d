"""The "unseen" ratio counted in CPU instructions, which no neighbour and no clock can move.

`python -m benchmark speed` times ours against tiktoken on the same machine, interleaved, and its
ratios still moved by up to a third between two sessions on VMs of the same kind (tiktoken ran at
16-20 MB/s on one, 4-9 MB/s on the other: the Python interpreter and the Rust extension do not
slow down alike). Instructions executed are repeatable to about 0.1% for the same binaries and
inputs whatever the machine is doing, so they are the figure to compare a change with.

How: each encoder runs in its own Python process under `valgrind --tool=callgrind`, which counts
instructions only inside `sys.call_tracing(work, ())` (`--toggle-collect=sys_call_tracing`): the
set-up (loading ranks, encoding the dev split for "unseen") is not counted, the timed step is.
PYTHONHASHSEED is fixed so that dict layouts repeat. Needs valgrind (Debian: `apt install
valgrind`) and a CPython with its symbols (the usual builds); a run takes a few minutes.

Instructions are not time: ours spends more of its instructions in the interpreter loop and in
dictionaries than tiktoken's compiled code, so its time ratio is somewhat worse than this one
(measured: see the README). It is a steadier yardstick, not a replacement for timing.

    python -m benchmark.speed_instructions [--languages eng_Latn,jpn_Jpan] [--max-lines N]
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Sequence

from benchmark.argtypes import positive_int
from benchmark.errors import BenchmarkError
from benchmark.speed import ENCODING, FLORES_DIR, add_text_arguments, load_flores, tiktoken_encoding

ENCODERS = ("ours", "tiktoken")
TOGGLE_FUNCTION = "sys_call_tracing"  # CPython's C function behind sys.call_tracing


def count_instructions(encoder: str, language: str, *, corpus_dir: Path = FLORES_DIR,
                       max_lines: int | None = None) -> int:
    """Instructions `encoder` executes to encode `language`'s devtest after its dev split."""
    valgrind = shutil.which("valgrind")
    if valgrind is None:
        raise BenchmarkError("counting instructions needs valgrind on PATH (Debian: apt install valgrind)")
    with tempfile.TemporaryDirectory(prefix="tokencost-callgrind-") as scratch:
        out_file = Path(scratch) / "callgrind.out"
        command = [
            valgrind, "--tool=callgrind", f"--callgrind-out-file={out_file}", "--collect-atstart=no",
            f"--toggle-collect={TOGGLE_FUNCTION}",
            sys.executable, "-m", "benchmark.speed_instructions", "--child", encoder, language,
            "--corpus-dir", str(corpus_dir), *(["--max-lines", str(max_lines)] if max_lines else []),
        ]
        environment = {**os.environ, "PYTHONHASHSEED": "0"}
        done = subprocess.run(command, capture_output=True, text=True, env=environment)
        if done.returncode != 0:
            raise BenchmarkError(f"{encoder}/{language} under callgrind failed:\n{done.stderr[-2000:]}")
        return _total_instructions(out_file, what=f"{encoder}/{language}")


def _total_instructions(out_file: Path, *, what: str) -> int:
    for line in out_file.read_text().splitlines():
        if line.startswith(("summary:", "totals:")):
            total = int(line.split()[1])
            if total == 0:
                break
            return total
    raise BenchmarkError(f"{what}: callgrind counted no instructions in {TOGGLE_FUNCTION}: "
                         f"this Python has no symbols for it")


def _child(encoder: str, language: str, corpus_dir: Path, max_lines: int | None) -> None:
    """Inside valgrind: set up, then run the counted step through sys.call_tracing."""
    (texts,) = load_flores([language], corpus_dir=corpus_dir, max_lines=max_lines)
    if encoder == "ours":
        from benchmark.bpe import ByteLevelBPE

        model = ByteLevelBPE.from_tiktoken(ENCODING)
        for text in texts.dev:  # "unseen": the cache knows the dev split, not devtest
            model.encode_ordinary(text)
        encode = model.encode_ordinary
    else:
        encode = tiktoken_encoding(ENCODING).encode_ordinary
        encode(texts.dev[0])  # tiktoken has no cache; one call loads what it loads lazily
    devtest = texts.devtest
    sys.call_tracing(lambda: [encode(text) for text in devtest], ())


def measure(languages: Sequence[str], *, corpus_dir: Path = FLORES_DIR, max_lines: int | None = None,
            jobs: int = 2) -> dict[str, dict[str, int]]:
    """{language: {"ours": instructions, "tiktoken": instructions}}, `jobs` valgrind runs at a time."""
    cells = [(language, encoder) for language in languages for encoder in ENCODERS]
    with ThreadPoolExecutor(max_workers=jobs) as pool:
        counts = list(pool.map(
            lambda cell: count_instructions(cell[1], cell[0], corpus_dir=corpus_dir, max_lines=max_lines), cells))
    result: dict[str, dict[str, int]] = {language: {} for language in languages}
    for (language, encoder), count in zip(cells, counts):
        result[language][encoder] = count
    return result


def format_table(counts: dict[str, dict[str, int]]) -> str:
    lines = [
        "| language | ours instructions | tiktoken instructions | ours / tiktoken | x tiktoken (instructions) |",
        "|---|---:|---:|---:|---:|",
    ]
    shares = []
    for language, cell in counts.items():
        share = cell["tiktoken"] / cell["ours"]
        shares.append(share)
        lines.append(f"| {language} | {cell['ours']:,} | {cell['tiktoken']:,} | "
                     f"{cell['ours'] / cell['tiktoken']:.2f} | {share:.2f}x |")
    lines.append("")
    lines.append(f"unseen text, in instructions: worst {min(shares):.2f}x tiktoken, "
                 f"median {statistics.median(shares):.2f}x")
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmark.speed_instructions", description=__doc__.split("\n")[0])
    add_text_arguments(parser)
    parser.add_argument("--jobs", type=positive_int, default=2, metavar="N", help="valgrind runs at a time (default 2)")
    parser.add_argument("--child", nargs=2, metavar=("ENCODER", "LANGUAGE"), help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    try:
        if args.child:
            encoder, language = args.child
            if encoder not in ENCODERS:
                raise BenchmarkError(f"unknown encoder {encoder!r}; expected one of {ENCODERS}")
            _child(encoder, language, args.corpus_dir, args.max_lines)
            return 0
        counts = measure(args.languages, corpus_dir=args.corpus_dir, max_lines=args.max_lines, jobs=args.jobs)
        print(f"## Unseen text in instructions: ours / tiktoken {ENCODING} (callgrind, PYTHONHASHSEED=0)\n")
        print(format_table(counts))
        return 0
    except BenchmarkError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())

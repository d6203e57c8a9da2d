"""The "unseen" ratio counted in CPU instructions, which no neighbour and no clock can move.

The ratios of ratios.py survive a busy neighbour, not another machine: the Python interpreter and
tiktoken's compiled extension do not slow down alike. Instructions executed repeat for the same
binaries and inputs whatever the machine is doing, so they are the figure to compare a small
change with (docs/speed.md says how closely they repeat).

How: each encoder runs in its own Python process under `valgrind --tool=callgrind`, which counts
instructions only inside `sys.call_tracing(work, ())` (`--toggle-collect=sys_call_tracing`): the
set-up (loading ranks, encoding the dev split for "unseen") is not counted, the timed step is.
PYTHONHASHSEED is fixed so that dict layouts repeat. Needs valgrind (Debian: `apt install
valgrind`) and a CPython with its symbols (the usual builds); a run takes minutes.

Instructions are not time: ours spends more of its instructions in the interpreter loop and in
dictionaries than tiktoken's compiled code, so its time ratio is somewhat worse than this one. It
is a steadier yardstick, not a replacement for timing.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Sequence

from benchmark.corpora import BUNDLED_CORPUS_DIR
from benchmark.plumbing.errors import BenchmarkError
from benchmark.speed.ratios import ENCODING, load_texts, tiktoken_encoding

ENCODERS = ("ours", "tiktoken")
TOGGLE_FUNCTION = "sys_call_tracing"  # CPython's C function behind sys.call_tracing
INSTRUCTION_JOBS = 2  # valgrind runs at a time: one per core of the 2-core machine
# The process valgrind runs: no user-facing command, just the counted step (`child_main`).
_CHILD_CODE = "import sys; from benchmark.speed.instructions import child_main; sys.exit(child_main(sys.argv[1:]))"
_CHILD_USAGE = ("child_main takes ENCODER LANGUAGE CORPUS_DIR MAX_LINES|all; "
                "`python -m benchmark speed --instructions` runs it under callgrind")
# The folder that holds this `benchmark` package: the child must count the code the parent runs.
_PACKAGE_PARENT = Path(__file__).resolve().parents[2]


def count_instructions(encoder: str, language: str, *, corpus_dir: Path = BUNDLED_CORPUS_DIR,
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
            sys.executable, "-c", _CHILD_CODE, encoder, language, str(corpus_dir),
            "all" if max_lines is None else str(max_lines),
        ]
        python_path = os.pathsep.join(p for p in (str(_PACKAGE_PARENT), os.environ.get("PYTHONPATH")) if p)
        environment = {**os.environ, "PYTHONHASHSEED": "0", "PYTHONPATH": python_path}
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


def count_unseen_instructions(languages: Sequence[str], *, corpus_dir: Path = BUNDLED_CORPUS_DIR,
                              max_lines: int | None = None,
                              jobs: int = INSTRUCTION_JOBS) -> dict[str, dict[str, int]]:
    """{language: {"ours": instructions, "tiktoken": instructions}}, `jobs` valgrind runs at a time."""
    cells = [(language, encoder) for language in languages for encoder in ENCODERS]
    with ThreadPoolExecutor(max_workers=jobs) as pool:
        counts = list(pool.map(
            lambda cell: count_instructions(cell[1], cell[0], corpus_dir=corpus_dir, max_lines=max_lines), cells))
    result: dict[str, dict[str, int]] = {language: {} for language in languages}
    for (language, encoder), count in zip(cells, counts):
        result[language][encoder] = count
    return result


def _count_in_child(encoder: str, language: str, corpus_dir: Path, max_lines: int | None) -> None:
    """Inside valgrind: set up, then run the counted step through sys.call_tracing."""
    (texts,), _ = load_texts([language], corpus_dir=corpus_dir, max_lines=max_lines)
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


def child_main(argv: Sequence[str]) -> int:
    """The child's entry point: ENCODER LANGUAGE CORPUS_DIR MAX_LINES|all; errors are one line."""
    if len(argv) != 4:
        print(f"error: expected 4 arguments, got {len(argv)}; {_CHILD_USAGE}", file=sys.stderr)
        return 2
    encoder, language, corpus_dir, max_lines = argv
    try:
        if encoder not in ENCODERS:
            raise BenchmarkError(f"unknown encoder {encoder!r}; expected one of {', '.join(ENCODERS)}")
        if max_lines != "all" and not max_lines.isdigit():
            raise BenchmarkError(f"MAX_LINES must be a number or 'all', got {max_lines!r}")
        _count_in_child(encoder, language, Path(corpus_dir), None if max_lines == "all" else int(max_lines))
    except BenchmarkError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    return 0

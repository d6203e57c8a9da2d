"""`cost`, `list` and `encode` answer without loading the report's libraries: matplotlib, seaborn
and pandas load only when a report's tables or plots are made (the time of starting each verb:
docs/measurements/2026-12-02-plot-reuse.md)."""

from __future__ import annotations

import os
import subprocess
import sys

from tests.support.paths import REPO

REPORT_LIBRARIES = ("matplotlib", "seaborn", "pandas")


def test_cost_list_and_encode_load_no_plotting_library_nor_pandas():
    # Each verb's whole code path, in a fresh interpreter: the committed 204-language results for
    # `cost`, every tokenizer and language for `list`, tiktoken for `encode`.
    code = (
        "import contextlib, io, sys\n"
        "from benchmark.cli.parser import main\n"
        "for argv in (['cost', 'hin'], ['list'], ['encode', 'Once upon a time', '--tokenizers', 'tiktoken/cl100k_base']):\n"
        "    with contextlib.redirect_stdout(io.StringIO()) as out:\n"
        "        code = main(argv)\n"
        "    assert code == 0 and out.getvalue(), (argv, code)\n"
        f"    print(argv[0], sorted(m for m in {REPORT_LIBRARIES!r} if m in sys.modules))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300, cwd=REPO,
                          env={**os.environ, "PYTHONPATH": str(REPO), "CI": "true"})
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == ["cost []", "list []", "encode []"]

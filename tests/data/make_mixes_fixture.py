"""Build `tests/data/results_mixes.json`: the results of a real, small run of this repo with the
production tokenizers, our BPE in every built-in training mix and HF's BPE beside it, for the
report's comparison sections (cost per model, fairness, mixes, words).

Run once by hand (`python tests/data/make_mixes_fixture.py`); the JSON is committed and the tests
only read it. Everything in it is measured by `python -m benchmark run`, as a user's run would be.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
COMMAND = ["run", "--max-sentences", "80", "--vocab-sizes", "1024,2048", "--repeats", "1", "--no-plots",
           "--tokenizers", "bpe/*,tiktoken/*,llama/*,mistral/tekken,hf/bpe-*"]

def run_fixture(command: list[str], name: str) -> None:
    """Run `python -m benchmark <command>` in a scratch folder and keep its results.json here as `name`."""
    with tempfile.TemporaryDirectory() as scratch:
        out, cache = Path(scratch) / "reports", Path(scratch) / "cache"
        subprocess.run([sys.executable, "-m", "benchmark", *command, "--output", str(out), "--cache-dir", str(cache)],
                       cwd=ROOT, check=True)
        shutil.copyfile(out / "results.json", Path(__file__).parent / name)


if __name__ == "__main__":
    run_fixture(COMMAND, "results_mixes.json")

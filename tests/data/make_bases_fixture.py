"""Build `tests/data/results_bases.json`: the results of a real, small run of this repo with every
production tokenizer and our BPE over six languages in five scripts, each language a base (`run
--bases`: six languages are all bases by default), for the page's base switch
(benchmark/report/pages/base_switch.py).

Run once by hand (`python tests/data/make_bases_fixture.py`); the JSON is committed and the tests
only read it. Everything in it is measured by `python -m benchmark run`, as a user's run would be.
"""

from __future__ import annotations

from make_mixes_fixture import run_fixture  # the folder of this script is on sys.path when it runs

from benchmark.adapters.families import PRODUCTION_SELECTOR

LANGUAGES = "eng,hin,amh,spa,arb_Arab,zho_Hans"
COMMAND = ["run", "--languages", LANGUAGES, "--max-sentences", "40", "--vocab-sizes", "1024", "--repeats", "1",
           "--no-plots", "--train-mix", "balanced", "--tokenizers", f"{PRODUCTION_SELECTOR},bpe/*"]

if __name__ == "__main__":
    run_fixture(COMMAND, "results_bases.json")

"""Build `tests/data/results_cost.json`: the results of a real, small run of this repo over the
languages the `cost` verb is tested on (Hindi, Amharic, Yoruba, Korean, Simplified Chinese and
English, five scripts) with every production tokenizer, for benchmark/pricing/.

Run once by hand (`python tests/data/make_cost_fixture.py`); the JSON is committed and the tests
only read it. Everything in it is measured by `python -m benchmark run`, as a user's run would be.
"""

from __future__ import annotations

from make_mixes_fixture import run_fixture  # the folder of this script is on sys.path when it runs

from benchmark.adapters.families import PRODUCTION_SELECTOR

LANGUAGES = "eng,hin,amh,yor,kor,zho_Hans"
COMMAND = ["run", "--languages", LANGUAGES, "--max-sentences", "40", "--repeats", "1", "--no-plots",
           "--tokenizers", PRODUCTION_SELECTOR]

if __name__ == "__main__":
    run_fixture(COMMAND, "results_cost.json")

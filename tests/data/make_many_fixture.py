"""Build `tests/data/results_many.json`: the results of a real, small run of this repo over fourteen
languages in nine scripts (one of them written right to left), for the report's layouts for more
languages than a palette has colours (benchmark/report/plots/many_languages.py).

Run once by hand (`python tests/data/make_many_fixture.py`); the JSON is committed and the tests
only read it. Everything in it is measured by `python -m benchmark run`, as a user's run would be.
"""

from __future__ import annotations

from make_mixes_fixture import run_fixture  # the folder of this script is on sys.path when it runs

LANGUAGES = "eng,spa,rus,jpn,kor,ces,arb_Arab,hin,ydd,amh,tha,zho_Hans,swh,tam"
COMMAND = ["run", "--languages", LANGUAGES, "--max-sentences", "40", "--vocab-sizes", "1024,2048",
           "--repeats", "1", "--no-plots", "--train-mix", "balanced", "--train-mix", "parity",
           "--tokenizers", "bpe/*,tiktoken/*,sentencepiece/*"]

if __name__ == "__main__":
    run_fixture(COMMAND, "results_many.json")

"""How much a process grows when our encoder checks the tiktoken twin on every FLORES-200 language,
and whether emptying the cache between models bounds it (docs/measurements/2026-12-06-run-memory.md).

    python docs/measurements/encoder_cache_growth.py

Trains our BPE at four sizes on 300 dev lines of each of the six default languages. For each model,
it runs `proven_twin` (our encoder on 64 lines of each devtest file, measure/twins.py) over the 204
languages and prints the process's resident size (VmRSS). After the first model, each model's cache
is emptied once it is done, as a count task now does.
"""

from __future__ import annotations

from pathlib import Path

from benchmark.adapters.inhouse import InhouseBPE
from benchmark.bpe import ByteLevelBPE
from benchmark.corpora.flores import BUNDLED_CORPUS_DIR, load_flores
from benchmark.measure.twins import proven_twin

SIX = ("eng_Latn", "rus_Cyrl", "jpn_Jpan", "spa_Latn", "kor_Hang", "ces_Latn")


def resident_mib() -> float:
    status = Path("/proc/self/status").read_text()
    return int(status.split("VmRSS:")[1].split()[0]) / 1024


def main() -> None:
    codes = sorted(path.name.split(".")[0] for path in (BUNDLED_CORPUS_DIR / "devtest").iterdir())
    corpus = load_flores(languages=codes)
    training = [line for code in SIX for line in corpus.lines("dev", code)[:300]]
    for k, size in enumerate((16384, 8192, 4096, 2048)):
        adapter = InhouseBPE(ByteLevelBPE.train(training, size), id=f"bpe/check-{size}")
        before = resident_mib()
        for code in codes:
            proven_twin(adapter, corpus.lines("devtest", code))
        print(f"model {k + 1} ({size}): {before:.0f} -> {resident_mib():.0f} MiB after the checks on "
              f"{len(codes)} languages", end="")
        adapter.reset_cache()
        print(f"; {resident_mib():.0f} MiB once its cache is emptied")


if __name__ == "__main__":
    main()

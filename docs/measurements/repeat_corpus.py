"""Write a parallel corpus of N lines per language for the scale measurements
(docs/measurements/2026-12-01-scale.md): the bundled FLORES-200 devtest of the six default
languages, repeated to N lines. Usage: python docs/measurements/repeat_corpus.py N OUT_DIR
"""

import sys
from pathlib import Path

from benchmark.corpora import FLORES_LANGUAGES, load_flores

if __name__ == "__main__":
    n_lines, out = int(sys.argv[1]), Path(sys.argv[2])
    out.mkdir(parents=True, exist_ok=True)
    corpus = load_flores(languages=FLORES_LANGUAGES)
    for code in corpus.languages:
        lines = corpus.lines("devtest", code)
        repeated = (list(lines) * (n_lines // len(lines) + 1))[:n_lines]
        (out / f"{code}.txt").write_text("\n".join(repeated) + "\n", encoding="utf-8")
        print(out / f"{code}.txt", n_lines)

"""Encode speed of our BPE with the pre-token split of before (no time limit) and of now, in turns
in one process: `python docs/measurements/pattern_limit_speed.py eng_Latn` (any FLORES-200 code).

OpenAI's cl100k ranks with (1) the published cl100k pattern, which runs as before, and (2) a
custom pattern, which now runs with a time limit (benchmark/bpe/patterns.py, bounded_findall).
CPU seconds to encode every devtest line, median of 7 alternating repeats."""

import statistics
import sys
import time

from benchmark.bpe import ByteLevelBPE
from benchmark.bpe.openai_ranks import load_ranks
from benchmark.bpe.patterns import compile_pattern, findall_of
from benchmark.bpe.tokenizer import _splitter
from benchmark.corpora import BUNDLED_CORPUS_DIR
from benchmark.corpora.lines import read_lines

language = sys.argv[1] if len(sys.argv) > 1 else "eng_Latn"
path = next(BUNDLED_CORPUS_DIR.glob(f"devtest/{language}.devtest*"))
lines = read_lines(path)
ranks = load_ranks("cl100k_base")
for label, pattern in (("cl100k (published)", "cl100k"), (r"custom \w+|\s+|[^\w\s]+", r"\w+|\s+|[^\w\s]+")):
    model = ByteLevelBPE(ranks=ranks, pattern=pattern)
    compiled = compile_pattern(model.pattern)
    splits = {"before": findall_of(compiled), "after": _splitter(compiled, model.pattern)}
    seconds = {"before": [], "after": []}
    for repeat in range(7):
        for name in ("before", "after") if repeat % 2 else ("after", "before"):
            model._split = splits[name]
            model.clear_cache()
            started = time.process_time()
            for line in lines:
                model.encode_ordinary(line)
            seconds[name].append(time.process_time() - started)
    before, after = statistics.median(seconds["before"]), statistics.median(seconds["after"])
    print(f"{language}, {label}: {len(lines)} lines, before {before:.3f} s, after {after:.3f} s, "
          f"after/before {after / before:.2f}")

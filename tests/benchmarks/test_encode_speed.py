"""pytest-benchmark cases: encoding FLORES-200 devtest, per language, and training our BPE.

Each round is one repeat of the harness's protocol (`benchmark.measure.timing.measure_throughput`, the
code behind the reports' throughput table), cut where its clock starts: the untimed setup empties
the encoder's cache and encodes the warm-up text, the timed part encodes every devtest sentence
on its own. Figures (issue 2): unseen = warm up on the dev split (the harness's figure, and the
only one for tokenizers without a cache); cold = no warm-up; repeat = warm up on devtest itself.
An encoder without a cache, and the repeat figure, need no reset: as in the harness, the warm-up
runs once and every round times the pass ITERATIONS times (steadier on a noisy machine).

Groups are languages, so the table reads by language; `extra_info` holds n_bytes and n_tokens, so
MB/s = n_bytes / stats.median / 1e6 can be computed from the saved JSON.

Record and compare (docs/speed.md, "pytest-benchmark"; pyproject's addopts disables benchmarking,
so `--benchmark-enable` turns it on; `--benchmark-timer=time.process_time` ignores time the OS
gave to other processes):
    pytest tests/benchmarks --benchmark-enable --benchmark-timer=time.process_time --benchmark-autosave
    pytest tests/benchmarks --benchmark-enable --benchmark-timer=time.process_time \
        --benchmark-compare --benchmark-compare-fail=median:10%
CI runs every case once as a test (--benchmark-disable).
"""

from __future__ import annotations

import pytest

from benchmark.corpora import FLORES_LANGUAGES
from benchmark.measure.timing import measure_throughput

# Timed rounds per case when benchmarking (one untimed warm-up round first): fewer left a short
# tiktoken case's median unsteady here (docs/measurements/). With --benchmark-disable, one run.
ROUNDS = 15
# Where the timed pass may repeat without a reset (no cache, or the "repeat" figure), each round
# times it ITERATIONS times: a 6 ms tiktoken pass alone is at the mercy of one interruption.
ITERATIONS = 5

# (tokenizer id, figure): ours on OpenAI's ranks in all three figures, the rest as the harness times them.
CASES = [
    ("bpe/cl100k_base", "unseen"),
    ("bpe/cl100k_base", "cold"),
    ("bpe/cl100k_base", "repeat"),
    ("bpe/balanced-4096", "unseen"),
    ("bpe/balanced-16384", "unseen"),
    ("tiktoken/cl100k_base", "unseen"),
    ("tiktoken/o200k_base", "unseen"),
    ("sentencepiece/unigram-4096", "unseen"),
    ("hf/wordpiece-4096", "unseen"),
]


@pytest.mark.parametrize("tokenizer_id,figure", CASES, ids=[f"{t}-{f}" for t, f in CASES])
@pytest.mark.parametrize("language", FLORES_LANGUAGES)
def test_encode(benchmark, encoders, flores, language, tokenizer_id, figure):
    encode, reset = encoders[tokenizer_id]
    texts = flores[language]
    warm = {"unseen": texts.dev, "cold": (), "repeat": texts.devtest}[figure]

    def setup():
        # The harness's steps before its clock starts: reset, then the warm-up text.
        measure_throughput(encode, warm, (), repeats=1, reset=reset)

    def timed():
        # The harness's timed loop (each sentence on its own, garbage collection paused).
        return measure_throughput(encode, (), texts.devtest, repeats=1)

    benchmark.group = language
    if reset is None or figure == "repeat":
        # As the harness does for an encoder without a cache: warm up once, then time.
        setup()
        result = benchmark.pedantic(timed, rounds=ROUNDS, iterations=ITERATIONS, warmup_rounds=1)
    else:
        result = benchmark.pedantic(timed, setup=setup, rounds=ROUNDS, iterations=1, warmup_rounds=1)
    benchmark.extra_info.update(
        tokenizer=tokenizer_id, figure=figure, language=language,
        n_bytes=result.n_bytes, n_tokens=result.n_tokens, n_sentences=len(texts.devtest),
    )
    # Not a speed judgement: the case must have encoded the whole text.
    assert result.n_bytes == texts.n_bytes and result.n_tokens >= len(texts.devtest)


def test_train_bpe_4096(benchmark, dev_texts):
    """Training our BPE to 4,096 tokens on the six dev files (about 1 MB), from scratch."""
    from benchmark.bpe import ByteLevelBPE

    benchmark.group = "train"
    model = benchmark.pedantic(ByteLevelBPE.train, args=(dev_texts, 4096), rounds=3, iterations=1)
    benchmark.extra_info.update(
        n_bytes=sum(len(text.encode("utf-8")) for text in dev_texts), n_texts=len(dev_texts),
        vocab_size=model.vocab_size,
    )
    assert model.vocab_size == 4096

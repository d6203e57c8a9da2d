"""The Rényi efficiency's bootstrap interval (benchmark/measure/renyi_interval.py)."""

from __future__ import annotations

import itertools

import numpy as np

from benchmark.results import metrics
from benchmark.measure.renyi_interval import renyi_efficiency_cis


def _enumerated(lines, vocab_size):
    """The exact 95% percentile interval of the efficiency over two lines resampled with
    replacement: each of the 4 resamples has probability 1/4, above 2.5%, so the extremes are its ends."""
    assert len(lines) == 2
    values = sorted(metrics.renyi_efficiency(np.bincount([i for k in picks for i in lines[k]]), vocab_size=vocab_size)
                    for picks in itertools.product(range(2), repeat=2))
    return values[0], values[-1]


def test_two_sentences_give_the_enumerated_interval():
    lines = [[5, 5, 7], [7, 9, 9, 9, 2]]  # 5 in one line, 9 in one line, 7 in both
    low, high = renyi_efficiency_cis([([i for line in lines for i in line], [3, 5], 16)])[0]
    exact_low, exact_high = _enumerated(lines, 16)
    assert abs(low - exact_low) < 1e-12 and abs(high - exact_high) < 1e-12
    assert exact_low < exact_high


def test_the_resampled_efficiencies_are_the_direct_ones_on_real_text():
    # Every split the fast path takes (ids in one line, in a few, in many: the dense product) on
    # 120 English and Korean FLORES lines under cl100k, against the dense counts of each resample.
    from benchmark.adapters import PRETRAINED
    from benchmark.corpora.flores import load_flores

    corpus = load_flores(languages=["eng_Latn", "kor_Hang"])
    encoding = PRETRAINED["tiktoken/cl100k_base"]()
    cells, direct = [], []
    for code in ("eng_Latn", "kor_Hang"):
        lines = [encoding.encode(text) for text in corpus.splits[corpus.measure_split][code][:120]]
        ids = [i for line in lines for i in line]
        cells.append((ids, [len(line) for line in lines], encoding.vocab_size))
        used, column = np.unique(ids, return_inverse=True)
        matrix = np.zeros((len(lines), len(used)))
        np.add.at(matrix, (np.repeat(np.arange(len(lines)), [len(line) for line in lines]), column), 1)
        values = [metrics.renyi_efficiency(counts, vocab_size=encoding.vocab_size)
                  for _, weights in metrics.resample_weights(len(lines)) for counts in weights @ matrix]
        direct.append(tuple(np.quantile(values, [0.025, 0.975])))
    for (low, high), (direct_low, direct_high) in zip(renyi_efficiency_cis(cells), direct):
        assert abs(low - direct_low) < 1e-12 and abs(high - direct_high) < 1e-12 and low < high


def test_no_tokens_or_no_vocabulary_gives_no_interval():
    assert renyi_efficiency_cis([([], [0, 0], 16), ([1, 1], [1, 1], 1)]) == [None, None]


def test_a_production_row_carries_the_interval_holding_its_estimate():
    from benchmark.adapters import PRETRAINED
    from benchmark.measure.counting import build_row, count_texts

    cl100k = PRETRAINED["tiktoken/cl100k_base"]()
    texts = ["Once upon a time in Tokyo.", "다람쥐 헌 쳇바퀴에 타고파."]
    counts = count_texts(cl100k, texts, renyi_interval=True)
    row = build_row(cl100k, "mix", texts, counts, None, None)
    exact = _enumerated([cl100k.encode(text) for text in texts], cl100k.vocab_size)
    assert row.renyi_efficiency_ci_low <= row.renyi_efficiency <= row.renyi_efficiency_ci_high
    assert abs(row.renyi_efficiency_ci_low - exact[0]) < 1e-12 and abs(row.renyi_efficiency_ci_high - exact[1]) < 1e-12
    # Not asked for (a trained tokenizer's row), and after a merge of two slices: none.
    assert count_texts(cl100k, texts).renyi_efficiency_ci is None
    assert counts.merge(counts).renyi_efficiency_ci is None

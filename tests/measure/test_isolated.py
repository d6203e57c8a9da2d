"""in_child: a function's result from a forked child, whose memory goes with it."""

from __future__ import annotations

import os

import pytest

from benchmark.measure.isolated import in_child

_grown: list[bytes] = []


def _grow_and_sum(n: int) -> int:
    _grown.append(b"x" * n)  # in the child only
    return sum(range(n))


def _raise() -> None:
    raise ValueError("a bad line\nsecond line")


def test_the_result_comes_back_and_the_childs_state_stays_there():
    assert in_child(_grow_and_sum, 1000) == sum(range(1000))
    if hasattr(os, "fork"):
        assert _grown == []  # the parent never held what the child made


def test_an_exception_in_the_child_is_one_line_here():
    with pytest.raises((RuntimeError, ValueError), match="a bad line"):
        in_child(_raise)


def test_hf_bpe_is_timed_in_a_child_with_the_counts_of_timing_it_here():
    import functools

    import tokenizers
    from tokenizers import models, pre_tokenizers, trainers

    from benchmark.adapters.hf_tokenizers import HFAdapter
    from benchmark.measure.counting import time_language

    tokenizer = tokenizers.Tokenizer(models.BPE())
    tokenizer.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    texts = ["once upon a time in Tokyo", "érase una vez un gato", "жил-был кот"] * 20
    tokenizer.train_from_iterator(texts, trainers.BpeTrainer(vocab_size=300, show_progress=False,
                                                             initial_alphabet=pre_tokenizers.ByteLevel.alphabet()))
    adapter = HFAdapter(tokenizer.to_str(), id="hf/bpe-300", family="hf-bpe", train_seconds=1.0, settings={})
    assert adapter.reset_keeps_memory  # the run times it in a child
    time_it = functools.partial(time_language, adapter, texts[:10], texts[10:], repeats=2)
    here, there = time_it(), in_child(time_it)
    assert (there.n_tokens, there.n_bytes, len(there.repeat_seconds)) == (here.n_tokens, here.n_bytes, 2)

"""The vocabulary check encodes every entry in one library call where it can: the same ids, the
same figures as one call per entry."""

from __future__ import annotations

import pytest

from benchmark.adapters import PRETRAINED
from benchmark.measure.batches import encode_each
from benchmark.measure.vocabulary import vocabulary_health
from tests.support.paths import FLORES



def _one_call_per_entry(adapter):
    """The check as it was written before batching: every entry encoded alone, in id order."""
    checked, unreachable = 0, []
    for token_id in range(adapter.vocab_size):
        text = adapter.entry_text(token_id)
        if text is not None:
            checked += 1
            ids = adapter.encode(text)
            if ids != [token_id]:
                unreachable.append(token_id)
    return checked, unreachable


@pytest.mark.parametrize("tokenizer", ["google/gemma4", "tiktoken/o200k_base"])  # 4 and 12 unreachable
def test_every_entry_checked_in_one_call_gives_the_figures_of_one_call_each(tokenizer):
    adapter = PRETRAINED[tokenizer]()
    health = vocabulary_health(adapter)
    checked, unreachable = _one_call_per_entry(adapter)
    assert (health.n_entries_checked, health.n_unreachable) == (checked, len(unreachable))
    assert unreachable and [int(example.split()[0]) for example in health.unreachable_examples] == unreachable[:12]


def test_sentencepiece_lines_in_one_call_are_its_ids_line_by_line():
    adapter = PRETRAINED["mistral/sp-v1"]()
    texts = []
    for path in sorted((FLORES / "devtest").glob("*.devtest")):
        texts += path.read_text(encoding="utf-8").splitlines()[:40]
    texts += ["", " ", "\u2581", "日本語"]
    assert encode_each(adapter, texts) == [adapter.encode(text) for text in texts]
    assert encode_each(adapter, []) == []


def test_hf_entries_in_one_loop_are_its_ids_and_a_panic_is_still_the_adapters_error(tmp_path):
    from benchmark.adapters import load_tokenizer_file
    from tests.adapters.test_hf_backtracking import hf_file

    adapter = PRETRAINED["deepseek/v4"]()
    texts = [text for token_id in range(0, adapter.vocab_size, 7) if (text := adapter.entry_text(token_id)) is not None]
    texts += ["Съешь же ещё этих мягких французских булок", "日本語の文です。", "", " ", "  \n\t x"]
    assert encode_each(adapter, texts) == [adapter.encode(text) for text in texts]
    panicking = load_tokenizer_file(hf_file(tmp_path / "b.json", r"(?:\p{Lu}b|\p{Lu}b)+$"))  # one the probes miss
    assert encode_each(panicking, ["Ab!"]) == [panicking.encode("Ab!")]
    with pytest.raises(ValueError, match="HF tokenizers gave up"):
        encode_each(panicking, ["Ab!", "Ab" * 40 + "!"])

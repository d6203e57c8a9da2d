"""Which cells a run times, and how many of a cell's sentences: a trained family's smaller sizes
on the reference only, a slow encoder on fewer whole turns, tiktoken on its whole sample."""

from __future__ import annotations

from benchmark.adapters import PRETRAINED
from benchmark.adapters.inhouse import InhouseBPE
from benchmark.bpe import ByteLevelBPE
from benchmark.measure.cells import CELL_BUDGET_SECONDS, spread_turns, turns_in_budget
from benchmark.measure.counting import time_language
from benchmark.measure.plan import RunConfig, plan_run
from benchmark.measure.run import run_benchmark
from tests.support.paths import FLORES



def lines(split: str, language: str, n: int) -> list[str]:
    return (FLORES / split / f"{language}.{split}").read_text(encoding="utf-8").splitlines()[:n]


def test_the_budget_keeps_whole_turns():
    # 256 texts of 32,000 bytes in two turns: at 10 MB/s one repeat takes 3.2 ms, at 1 MB/s 32 ms.
    assert turns_in_budget(256, 32_000, 1e-7, repeats=3, turn=128) == 2
    assert turns_in_budget(256, 32_000, 1e-6, repeats=3, turn=128) == 1
    assert turns_in_budget(256, 32_000, None, repeats=3, turn=128) == 2
    assert turns_in_budget(100, 32_000, 1e-6, repeats=3, turn=128) == 1
    assert spread_turns(list(range(256)), 2, turn=128) == list(range(256))
    assert spread_turns(list(range(300)), 1, turn=128)[:4] == [0, 2, 4, 7]


def test_a_cell_over_its_budget_is_timed_on_whole_turns_spread_over_its_sample():
    texts, warm = lines("devtest", "rus_Cyrl", 256), lines("dev", "rus_Cyrl", 400)
    model = ByteLevelBPE.train(lines("dev", "rus_Cyrl", 600) + lines("dev", "eng_Latn", 600), 3000)
    ours = InhouseBPE(model, id="bpe/test-3000", family="bpe-test")
    tiktoken = PRETRAINED["tiktoken/cl100k_base"]()
    for adapter in (ours, tiktoken):  # with a cache (warmed on `warm`) and without (on the first turn)
        tight = time_language(adapter, texts, warm, repeats=3, yardstick=tiktoken, budget_seconds=1e-9)
        loose = time_language(adapter, texts, warm, repeats=3, yardstick=tiktoken, budget_seconds=10.0)
        assert tight.n_texts == 128 and len(tight.repeat_seconds) == len(tight.yardstick_seconds) == 3
        assert tight.n_tokens == sum(len(adapter.encode(text)) for text in texts[::2])
        assert loose.n_texts == 256 and loose.n_tokens == sum(len(adapter.encode(text)) for text in texts)
    assert CELL_BUDGET_SECONDS / 3 > 3 * 0.006  # tiktoken's 256 Russian sentences (~6 ms) fit three times over


def test_a_run_times_a_familys_smaller_sizes_on_the_reference_only_and_records_its_cells(tmp_path):
    config = RunConfig(languages=("eng_Latn", "jpn_Jpan"), vocab_sizes=(512, 1024), max_sentences=300,
                       tokenizers=("bpe/balanced-*", "tiktoken/cl100k_base"), repeats=1, cache_dir=tmp_path)
    results = run_benchmark(plan_run(config))
    timed = {(row.tokenizer, row.language) for row in results.rows if row.throughput_mb_s is not None}
    assert timed == {("bpe/balanced-1024", "eng_Latn"), ("bpe/balanced-1024", "jpn_Jpan"),
                     ("bpe/balanced-512", "eng_Latn"),
                     ("tiktoken/cl100k_base", "eng_Latn"), ("tiktoken/cl100k_base", "jpn_Jpan")}
    timing = results.record.settings.timing
    assert set(timing.timed_cells) == {"bpe/balanced-512", "bpe/balanced-1024", "tiktoken/cl100k_base"}
    assert list(timing.timed_cells["bpe/balanced-512"]) == ["eng_Latn"]  # 128 or 256: the budget's call
    assert timing.timed_cells["tiktoken/cl100k_base"] == {"eng_Latn": 256, "jpn_Jpan": 256}
    assert "other sizes on the reference only" in timing.budget

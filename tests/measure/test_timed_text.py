"""timed_text.py: the text throughput is timed on, a bounded sample of a bounded set of languages."""

from __future__ import annotations

from benchmark.measure.plan import RunConfig, plan_run


def test_throughput_is_timed_on_a_bounded_sample_spread_over_the_text():
    from benchmark.measure.timed_text import TIMED_SENTENCES, timed_sample

    texts = [f"line {i}" for i in range(1012)]
    sample = timed_sample(texts)
    assert len(sample) == TIMED_SENTENCES and sample[0] == "line 0" and sample[-1] == "line 1008"
    assert timed_sample(texts[:100]) == tuple(texts[:100])  # fewer than the cap: every one
    # A document-sized line is passed over, not timed alone; the sample stays under its bytes.
    assert timed_sample(["x" * 500_000, "short", "also short"], max_bytes=256_000) == ("short", "also short")
    assert timed_sample(["x" * 300, "y" * 200], max_bytes=100) == ("y" * 200,)


def test_past_the_cap_the_reference_and_one_language_per_script_are_timed(tmp_path):
    from benchmark.corpora import BUNDLED_CORPUS_DIR, bundled_languages, script_of
    from benchmark.measure.timed_text import MAX_TIMED_LANGUAGES, timed_languages

    few = ["eng_Latn", "hin_Deva", "spa_Latn"]
    assert timed_languages(few, "eng_Latn") == few  # under the cap: every one
    every = list(bundled_languages(BUNDLED_CORPUS_DIR))
    chosen = timed_languages(every, "eng_Latn")
    assert len(chosen) == MAX_TIMED_LANGUAGES and "eng_Latn" in chosen
    assert {script_of(code) for code in chosen} == {script_of(code) for code in every}  # all 29 scripts
    assert chosen == [code for code in every if code in chosen]  # in run order
    # The reference, then the first new scripts: Spanish is Latin like English, so Russian comes next.
    assert every[:3] == ["eng_Latn", "spa_Latn", "rus_Cyrl"]
    assert timed_languages(every, "hin_Deva", limit=3) == ["eng_Latn", "rus_Cyrl", "hin_Deva"]
    plan = plan_run(RunConfig(languages=("all",), tokenizers=("tiktoken/cl100k_base",), cache_dir=tmp_path,
                              max_sentences=5))
    assert list(plan.timed_texts) == chosen and len(plan.measure_texts) == len(every)

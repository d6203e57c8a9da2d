"""plan.py: which languages, texts and tokenizers a run has, resolved once from its options."""

from __future__ import annotations


import pytest

from benchmark.plumbing.errors import BenchmarkError
from benchmark.measure.plan import RunConfig, match_languages, plan_run, plan_training
from tests.support.paths import DATA


def test_user_corpus_without_splits_trains_on_another_corpus(tmp_path):
    config = RunConfig(corpus_dir=DATA / "tiny_corpus", train_corpus_dir=DATA / "tiny_split",
                       vocab_sizes=(260,), tokenizers=("bpe/balanced-*", "hf/bpe-*", "tiktoken/cl100k_base"),
                       repeats=1, cache_dir=tmp_path)
    plan = plan_run(config)
    assert plan.reference == "eng" and plan.corpus.measure_split == "all"
    assert plan.train_languages == ("eng", "jpn")  # the measured languages the training corpus has
    assert len(plan.training.texts) == 8  # 4 dev lines from each, equal share
    assert plan.training.languages == ("eng", "jpn") and len(plan.training.lines["jpn"]) == 4
    assert plan.warm_texts["eng"] == plan.train_corpus.lines("dev", "eng")[:3]
    assert plan.warm_texts["spa"] == ()  # no Spanish there: timed cold, and the record says so
    assert plan.warm_source["spa"].startswith("none: timed cold")
    assert plan.train_language_of == {"eng": "eng", "jpn": "jpn", "spa": None}
    assert plan.tokenizer_ids == ("bpe/balanced-260", "hf/bpe-260", "tiktoken/cl100k_base") and plan.trains


def test_user_codes_train_and_warm_up_on_their_flores_counterparts(tmp_path):
    # eng.txt, jpn.txt, spa.txt without splits, trained on the bundled FLORES-200 dev split.
    plan = plan_run(RunConfig(corpus_dir=DATA / "tiny_corpus", vocab_sizes=(260,), tokenizers=("bpe/*",),
                              max_sentences=5, cache_dir=tmp_path))
    assert plan.train_languages == ("eng_Latn", "jpn_Jpan", "spa_Latn")  # not all six
    assert plan.train_language_of == {"eng": "eng_Latn", "jpn": "jpn_Jpan", "spa": "spa_Latn"}
    assert len(plan.training.texts) == 15  # 5 lines of each
    for code, flores_code in plan.train_language_of.items():
        assert plan.warm_texts[code] == plan.train_corpus.lines("dev", flores_code)[:3]  # its own language
    assert plan.warm_source["spa"] == "dev split of flores200 (spa_Latn)"


def test_a_run_of_pretrained_tokenizers_trains_nothing(tmp_path):
    plan = plan_run(RunConfig(corpus_dir=DATA / "tiny_corpus", tokenizers=("tiktoken/*",), cache_dir=tmp_path))
    assert not plan.trains and plan.tokenizer_ids == ("tiktoken/cl100k_base", "tiktoken/o200k_base")


def test_the_training_text_alone_matches_codes_in_the_training_corpus():
    training = plan_training(RunConfig(languages=("eng", "ja"), max_sentences=7))
    assert training.languages == ("eng_Latn", "jpn_Jpan") and len(training.texts) == 14
    with pytest.raises(BenchmarkError, match="unknown language code 'xx'"):
        plan_training(RunConfig(languages=("eng", "xx")))


def test_match_languages():
    available = ["eng_Latn", "spa_Latn", "zho_Hans", "zho_Hant"]
    assert match_languages(["eng", "spa_Latn", "eng_Latf", "zho", "hin"], available) == {
        "eng": "eng_Latn", "spa_Latn": "spa_Latn", "eng_Latf": "eng_Latn"}  # zho is ambiguous, hin absent
    # Two-letter codes and other cases find their language too: en.txt trains on FLORES's English.
    assert match_languages(["en", "ES", "ja", "zh", "xx"], available + ["jpn_Jpan"]) == {
        "en": "eng_Latn", "ES": "spa_Latn", "ja": "jpn_Jpan"}


def test_measuring_on_training_text_is_refused(tmp_path):
    config = RunConfig(corpus_dir=DATA / "tiny_corpus", train_corpus_dir=DATA / "tiny_corpus",
                       vocab_sizes=(300,), tokenizers=("bpe/*",), cache_dir=tmp_path)
    with pytest.raises(BenchmarkError, match="would measure on training text"):
        plan_run(config)


def test_reference_must_exist_and_is_always_measured(tmp_path):
    with pytest.raises(BenchmarkError, match="unknown reference language 'deu'"):
        plan_run(RunConfig(corpus_dir=DATA / "tiny_corpus", reference="deu", cache_dir=tmp_path))
    plan = plan_run(RunConfig(corpus_dir=DATA / "tiny_corpus", languages=("jpn",),
                              tokenizers=("tiktoken/*",), cache_dir=tmp_path))
    assert plan.languages == ("eng", "jpn")


def test_the_plan_times_a_sample_and_warms_up_on_a_bounded_text(tmp_path):
    plan = plan_run(RunConfig(languages=("eng_Latn", "jpn_Jpan"), tokenizers=("tiktoken/*",), cache_dir=tmp_path))
    assert len(plan.measure_texts["jpn_Jpan"]) == 1012 and len(plan.timed_texts["jpn_Jpan"]) == 256
    assert set(plan.timed_texts["jpn_Jpan"]) <= set(plan.measure_texts["jpn_Jpan"])
    assert len(plan.warm_texts["jpn_Jpan"]) == 997  # FLORES dev, under the warm-up's cap

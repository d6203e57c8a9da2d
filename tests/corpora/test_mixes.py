"""Training mixes: the weights they give, and what they do to the premium, on FLORES-200 text."""

from __future__ import annotations

import pytest

from benchmark.plumbing.errors import BenchmarkError
from benchmark.corpora.mixes import BUILT_IN, parse_mix
from benchmark.measure.plan import RunConfig, plan_run, plan_training
from benchmark.measure.run import run_benchmark


@pytest.fixture(scope="module")
def training():
    return plan_training(RunConfig(max_sentences=300))


def byte_shares(weights, lines):
    n_bytes = {code: sum(len(t.encode("utf-8")) for t in texts) for code, texts in lines.items()}
    total = sum(weights[code] * n_bytes[code] for code in weights)
    return {code: weights[code] * n_bytes[code] / total for code in weights}


def test_english_heavy_gives_english_nine_tenths_of_the_bytes(training):
    shares = byte_shares(BUILT_IN["english-heavy"].weights(training.lines), training.lines)
    assert shares["eng_Latn"] == pytest.approx(0.9, abs=1e-3)
    others = [share for code, share in shares.items() if code != "eng_Latn"]
    assert len(others) == 5 and max(others) == pytest.approx(min(others), abs=1e-3)
    assert sum(others) == pytest.approx(0.1, abs=1e-3)


def test_balanced_is_equal_lines_and_english_only_is_english_alone(training):
    assert set(BUILT_IN["balanced"].weights(training.lines).values()) == {1}
    only = BUILT_IN["english-only"].weights(training.lines)
    assert only["eng_Latn"] > 0 and not any(w for code, w in only.items() if code != "eng_Latn")
    assert BUILT_IN["parity"].parity and set(BUILT_IN["parity"].weights(training.lines).values()) == {1}


def test_a_custom_mix_gives_relative_shares_of_the_bytes(training):
    mix = parse_mix("eng=9,jpn=1")
    assert mix.name == "eng9-jpn1"
    shares = byte_shares(mix.weights(training.lines), training.lines)
    assert shares["eng_Latn"] == pytest.approx(0.9, abs=1e-3) and shares["jpn_Jpan"] == pytest.approx(0.1, abs=1e-3)
    assert shares["kor_Hang"] == 0  # not named, and no "*": not trained on
    rest = parse_mix("eng=2,*=1").weights(training.lines)
    assert all(w > 0 for w in rest.values())
    for bad, message in (("eng", "shares like eng=9"), ("eng=1,eng=2", "given twice"), ("eng=0", "every share is zero")):
        with pytest.raises(BenchmarkError, match=message):
            parse_mix(bad)
    assert parse_mix("xyz=1").unavailable_reason(training.languages).endswith("name none of the training languages (xyz)")
    assert BUILT_IN["english-only"].unavailable_reason(["jpn_Jpan"]) == (
        "training mix english-only: the training languages have no English")


def test_the_mix_drives_the_premium_and_parity_aware_training_closes_it(tmp_path):
    """The cause and the cure, measured: English-heavy training makes every other language pay more
    than balanced training does, and parity-aware merges bring the languages closer than balanced."""
    config = RunConfig(vocab_sizes=(2048,), max_sentences=300, tokenizers=("bpe/*",), repeats=1, cache_dir=tmp_path)
    plan = plan_run(config)
    results = run_benchmark(plan)
    tokens = {(r.tokenizer, r.language): r.n_tokens for r in results.rows}
    premium = {(r.tokenizer, r.language): r.premium for r in results.rows}
    others = [code for code in plan.languages if code != "eng_Latn"]
    for code in others:
        assert premium["bpe/english-heavy-2048", code] > premium["bpe/balanced-2048", code], code
        assert premium["bpe/english-only-2048", code] > premium["bpe/english-heavy-2048", code], code

    def spread(tokenizer):
        counts = [tokens[tokenizer, code] for code in plan.languages]
        return max(counts) / min(counts)

    assert spread("bpe/parity-2048") < spread("bpe/balanced-2048")
    mixes = results.record.settings.train_mixes
    assert set(mixes) == {"balanced", "english-only", "english-heavy", "parity", "hangul-first"}
    assert mixes["english-heavy"].byte_shares["eng_Latn"] == pytest.approx(0.9, abs=1e-3)


def test_a_script_first_mix_names_its_scripts(training):
    mix = parse_mix("hiragana+katakana-first")
    assert mix.name == "hiragana-katakana-first" and mix.whole_characters == ("Hiragana", "Katakana")
    assert set(mix.weights(training.lines).values()) == {1}
    assert parse_mix("Han-first").whole_characters == ("Han",) and parse_mix("old_italic-first").whole_characters == (
        "Old_Italic",)
    with pytest.raises(BenchmarkError, match="training mix 'klingon-first': whole_characters: unknown Unicode script"):
        parse_mix("klingon-first")


def test_a_script_first_mix_trains_whole_kana_first(tmp_path, training):
    from benchmark.adapters.cache import TrainingCache
    from benchmark.adapters.inhouse import train_mix_sweep
    from benchmark.bpe.whole_chars import whole_character_merges
    from benchmark.bpe import count_pretokens

    mix = parse_mix("hiragana+katakana-first")
    adapter = train_mix_sweep(training, mix, [400], TrainingCache(tmp_path))[400]
    counts = {}
    for lines in training.lines.values():
        for data, n in count_pretokens(lines, "cl100k").items():
            counts[data] = counts.get(data, 0) + n
    first = whole_character_merges(counts, ["Hiragana", "Katakana"])
    assert adapter.model.merges[:len(first)] == first and adapter.id == "bpe/hiragana-katakana-first-400"
    assert adapter.settings["whole_character_entries"] > 0

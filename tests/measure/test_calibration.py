"""The calibration table in a real run: production tokenizers only, fitted on dev and checked on the
rows' own devtest counts, the same table from the cache and from worker processes, none without dev."""

from __future__ import annotations

import pytest

from benchmark.corpora import load_flores
from benchmark.measure import calibration as calibration_module
from benchmark.measure.calibration import MAX_FIT_LINES, fit_counts, fit_lines
from benchmark.measure.executors import make_executor
from benchmark.measure.plan import RunConfig, plan_run
from benchmark.measure.results_cache import ResultsCache
from benchmark.measure.run import run_benchmark
from benchmark.plumbing.progress import Progress
from tests.support.paths import DATA

LANGUAGES = ("eng_Latn", "hin_Deva", "mar_Deva")


@pytest.fixture(scope="module")
def config(tmp_path_factory) -> RunConfig:
    # quick: no vocabulary check (a vendor's is most of such a run's time), which the table does not read
    return RunConfig(languages=LANGUAGES, vocab_sizes=(1024,), max_sentences=120, repeats=1, quick=True,
                     tokenizers=("tiktoken/o200k_base", "llama/llama4", "bpe/balanced-1024"),
                     cache_dir=tmp_path_factory.mktemp("cache"))


@pytest.fixture(scope="module")
def results(config):
    return run_benchmark(plan_run(config))


def test_production_tokenizers_get_every_group_and_trained_ones_none(results):
    groups = [(e.tokenizer, e.level, e.group, e.n_languages) for e in results.calibration]
    for tokenizer in ("tiktoken/o200k_base", "llama/llama4"):
        assert [g[1:] for g in groups if g[0] == tokenizer] == [
            ("all", "all", 3), ("script", "Deva", 2), ("script", "Latn", 1),
            ("language", "eng_Latn", 1), ("language", "hin_Deva", 1), ("language", "mar_Deva", 1)]
    assert not any(g[0] == "bpe/balanced-1024" for g in groups)  # it learned from dev
    assert "fitted on 120 lines of each language's dev split" in results.record.settings.calibration


def test_its_devtest_side_is_the_rows_counts_and_its_dev_side_the_dev_lines(results):
    rows = {(row.tokenizer, row.language): row for row in results.rows}
    flores = load_flores(languages=LANGUAGES)
    for entry in results.calibration:
        if entry.level == "language":
            row = rows[entry.tokenizer, entry.group]
            assert (entry.check_n_tokens, entry.check_n_chars, entry.check_n_bytes) == (row.n_tokens, row.n_chars,
                                                                                       row.n_bytes)
            dev = flores.lines("dev", entry.group)[:120]
            assert (entry.fit_n_sentences, entry.fit_n_chars) == (120, sum(map(len, dev)))
    deva = [e for e in results.calibration if e.tokenizer == "llama/llama4" and e.group in ("hin_Deva", "mar_Deva")]
    (script,) = [e for e in results.calibration if e.tokenizer == "llama/llama4" and e.group == "Deva"]
    assert script.fit_n_tokens == sum(e.fit_n_tokens for e in deva)
    by_script = [script.tokens_per_char * e.check_n_chars / e.check_n_tokens - 1 for e in deva]
    assert script.char_worst_language_error == pytest.approx(max(by_script, key=abs), rel=1e-12)


def test_a_rerun_takes_the_dev_counts_from_the_cache_and_gives_the_same_table(config, results, monkeypatch):
    def refuse(*args):
        raise AssertionError("counted again")

    monkeypatch.setattr(calibration_module, "count_fit", refuse)
    assert run_benchmark(plan_run(config)).calibration == results.calibration


def test_worker_processes_give_the_same_table(config, results):
    pooled = run_benchmark(plan_run(config), executor=make_executor("processes", 2))
    assert pooled.calibration == results.calibration


def test_a_corpus_without_dev_gets_no_table_and_the_record_says_why(tmp_path):
    config = RunConfig(corpus_dir=DATA / "tiny_corpus", tokenizers=("tiktoken/o200k_base",), repeats=1, quick=True,
                       cache_dir=tmp_path)
    results = run_benchmark(plan_run(config))
    assert results.calibration == ()
    assert results.record.settings.calibration.startswith("none: tiny_corpus has no dev split")


def test_fit_lines_share_the_cap_evenly_spread_over_each_dev_split():
    flores = load_flores(languages=LANGUAGES)
    assert fit_lines(flores, LANGUAGES, None) == {code: flores.lines("dev", code) for code in LANGUAGES}
    assert fit_lines(flores, LANGUAGES, 50) == {code: flores.lines("dev", code)[:50] for code in LANGUAGES}
    dev = flores.lines("dev", "hin_Deva")

    class Wide:  # FLORES's Hindi dev text under as many codes as the 204 languages
        train_split, measure_split, name = "dev", "devtest", "wide"

        @staticmethod
        def lines(split, code):
            assert split == "dev"
            return dev

    codes = [f"x{k}" for k in range(204)]
    picked = fit_lines(Wide, codes, None)
    share = MAX_FIT_LINES // 204
    assert all(len(lines) == share for lines in picked.values()) and share * 204 <= MAX_FIT_LINES
    assert picked["x0"] == tuple(dev[i * len(dev) // share] for i in range(share))
    assert picked["x0"][0] == dev[0] and picked["x0"][-1] in dev[-len(dev) // share - 1:]


def test_a_tokenizer_that_raises_is_left_out_of_the_table(results, tmp_path):
    from benchmark.adapters import PRETRAINED

    adapter = PRETRAINED["tiktoken/o200k_base"]()
    broken = PRETRAINED["llama/llama4"]()
    broken.encode = lambda text: (_ for _ in ()).throw(RuntimeError("no"))
    fitted = {"eng_Latn": ("One line.", "Two lines.")}
    from benchmark.measure.executors import Executor

    found = fit_counts([adapter, broken], fitted, Executor(), Progress(), ResultsCache(tmp_path))
    assert found == {adapter.id: {"eng_Latn": (len(adapter.encode("One line.")), len(adapter.encode("Two lines.")))}}


def test_forked_workers_fit_on_the_tokenizers_already_built(tmp_path, monkeypatch):
    from benchmark.adapters import PRETRAINED
    from benchmark.measure import executors

    monkeypatch.setattr(executors, "_fork_is_safe", lambda: True)
    adapter = PRETRAINED["tiktoken/o200k_base"]()
    adapter.encode = lambda text: [1, 2, 3]  # only this instance counts so: a worker rebuilding from the file would not
    fitted = {"eng_Latn": ("One line.", "Two lines."), "hin_Deva": ("Three.",)}
    found = fit_counts([adapter], fitted, make_executor("processes", 2), Progress(), ResultsCache(tmp_path))
    assert found == {adapter.id: {"eng_Latn": (3, 3), "hin_Deva": (3,)}}  # per line: the domains' sums come from them

"""run.py end to end on small corpora: rows, the run record, determinism, failures."""

from __future__ import annotations

import subprocess
from pathlib import Path

from benchmark.measure import run as run_module
from benchmark.adapters import Adapter
from benchmark.measure.plan import RunConfig, plan_run
from benchmark.measure.run import run_benchmark
from tests.support.paths import DATA
from tests.support.rows import rows_without_timing


def run(config: RunConfig):
    return run_benchmark(plan_run(config))


def test_user_corpus_without_splits_trains_on_another_corpus(tmp_path):
    config = RunConfig(corpus_dir=DATA / "tiny_corpus", train_corpus_dir=DATA / "tiny_split",
                       vocab_sizes=(260,), tokenizers=("bpe/balanced-*", "hf/bpe-*", "tiktoken/cl100k_base"),
                       repeats=1, cache_dir=tmp_path)
    results = run(config)
    rows = {(r.tokenizer, r.language): r for r in results.rows}
    assert set(rows) == {(t, lang) for t in ("bpe/balanced-260", "hf/bpe-260", "tiktoken/cl100k_base")
                         for lang in ("eng", "jpn", "spa")}
    assert all(r.ok and r.n_sentences == 3 for r in rows.values())
    assert rows["tiktoken/cl100k_base", "eng"].premium == 1.0
    assert rows["tiktoken/cl100k_base", "jpn"].premium > 1.0
    record = results.record
    assert record.language_names == {"eng": "English", "jpn": "Japanese", "spa": "Spanish"}
    assert set(record.examples) == {"eng", "jpn", "spa"}
    # No English line reaches 40 characters, so the example is line 1, in every language.
    assert record.example_sentences["spa"] == "Érase una vez un gato."
    assert "".join(record.examples["eng"]["tiktoken/cl100k_base"]) == record.example_sentences["eng"]
    assert "all/eng.txt" in record.corpus_checksums and "tiny_split:dev/jpn.txt" in record.corpus_checksums
    assert record.tokenizers["bpe/balanced-260"].fingerprint
    assert record.settings.timing.warm_up["spa"].startswith("none: timed cold")
    assert record.settings.train_language_of == {"eng": "eng", "jpn": "jpn", "spa": None}


def test_flores_run_with_the_skip_path_is_deterministic(tmp_path):
    config = RunConfig(languages=("eng_Latn", "jpn_Jpan"), vocab_sizes=(512, 1024, 8192), max_sentences=60,
                       tokenizers=("sentencepiece/*", "hf/wordpiece-*", "bpe/*"), repeats=1, cache_dir=tmp_path)
    first = run(config)
    statuses = {(r.tokenizer, r.language): r.status for r in first.rows}
    assert statuses["sentencepiece/unigram-512", "jpn_Jpan"].startswith("skipped: vocab_size 512 is below")
    assert statuses["hf/wordpiece-512", "eng_Latn"].startswith("skipped: vocab_size 512 is below")
    assert statuses["bpe/balanced-512", "jpn_Jpan"] == "ok"
    assert statuses["sentencepiece/unigram-1024", "jpn_Jpan"] == "ok"
    # 120 lines cannot make 8192 pieces: a skip with SentencePiece's own limit, not a crash.
    assert statuses["sentencepiece/unigram-8192", "jpn_Jpan"].startswith(
        "skipped: vocab_size 8192 is more than the training text supports (SentencePiece can make at most")
    assert first.record.tokenizers["sentencepiece/unigram-512"].status.startswith("skipped")
    # Same corpus and config, from the cache: identical rows except the timing columns.
    second = run(config)
    assert rows_without_timing(first.rows) == rows_without_timing(second.rows)
    assert first.record.examples == second.record.examples


def test_the_record_names_this_suite_version(tmp_path, monkeypatch):
    config = RunConfig(corpus_dir=DATA / "tiny_corpus", train_corpus_dir=DATA / "tiny_split",
                       tokenizers=("tiktoken/cl100k_base",), repeats=1, cache_dir=tmp_path)
    record = run(config).record
    suite = record.settings.suite
    assert suite.version == record.package_versions["tokencost-benchmark"] != "not installed"
    head = subprocess.run(["git", "rev-parse", "HEAD"], cwd=Path(run_module.__file__).parent,
                          capture_output=True, text=True)
    assert suite.git_commit == (head.stdout.strip() if head.returncode == 0 else None)
    # Outside a repository (an installed copy): None, no error.
    from benchmark.measure.describe import git_commit

    assert git_commit(tmp_path) is None
    monkeypatch.setenv("PATH", str(tmp_path))  # no git at all
    assert git_commit() is None


class Fragile(Adapter):
    """Encodes like a character tokenizer, and raises on any Japanese text."""

    def __init__(self) -> None:
        self.id, self.family, self.vocab_size, self.fingerprint, self.settings = "tiktoken/o200k_base", "tiktoken", 0x110000, "f", {}

    def encode(self, text: str) -> list[int]:
        if any("\u3040" <= c <= "\u30ff" for c in text):
            raise RuntimeError("Input too long to encode safely\nsecond line")
        return [ord(c) for c in text]

    def decode(self, ids) -> str:
        return "".join(map(chr, ids))

    def token_text(self, token_id: int) -> str:
        return chr(token_id)

    def token_bytes(self, token_id: int) -> bytes:
        return chr(token_id).encode("utf-8", "surrogatepass")

    partial_char_ids = frozenset()  # (surrogates aside) every code point is a whole character

    def entry_text(self, token_id: int) -> None:
        return None  # a character vocabulary: nothing to check (and 1.1 million entries)


def test_a_tokenizer_that_raises_on_a_language_is_a_failed_row_and_the_run_goes_on(tmp_path, monkeypatch):
    monkeypatch.setitem(run_module.PRETRAINED, "tiktoken/o200k_base", Fragile)
    config = RunConfig(corpus_dir=DATA / "tiny_corpus", train_corpus_dir=DATA / "tiny_split",
                       tokenizers=("tiktoken/*",), repeats=1, cache_dir=tmp_path)
    results = run(config)
    rows = {(r.tokenizer, r.language): r for r in results.rows}
    failed = rows["tiktoken/o200k_base", "jpn"]
    assert failed.status == "failed: RuntimeError: Input too long to encode safely" and failed.n_tokens == 0
    assert rows["tiktoken/o200k_base", "eng"].ok and rows["tiktoken/o200k_base", "eng"].premium == 1.0
    assert all(rows["tiktoken/cl100k_base", code].ok for code in ("eng", "jpn", "spa"))
    assert run_module.n_failed_tokenizers(results) == 1


def test_the_record_gives_each_languages_script_and_the_right_to_left_ones(tmp_path):
    config = RunConfig(languages=("eng_Latn", "heb_Hebr", "ydd_Hebr", "arb_Arab", "zho_Hans"), max_sentences=5,
                       tokenizers=("tiktoken/cl100k_base",), repeats=1, cache_dir=tmp_path)
    record = run(config).record
    assert record.language_scripts == {"eng_Latn": "Latn", "heb_Hebr": "Hebr", "ydd_Hebr": "Hebr",
                                       "arb_Arab": "Arab", "zho_Hans": "Hans"}
    # Yiddish too, though FLORES's own right_to_left.txt leaves it out: the script decides.
    assert record.right_to_left == ("heb_Hebr", "ydd_Hebr", "arb_Arab")
    # A user's code without a script has no entry, and is not taken to be right to left.
    plain = run(RunConfig(corpus_dir=DATA / "tiny_corpus", train_corpus_dir=DATA / "tiny_split",
                          tokenizers=("tiktoken/cl100k_base",), repeats=1, cache_dir=tmp_path)).record
    assert plain.language_scripts == {} and plain.right_to_left == ()


def test_each_trained_family_is_timed_at_its_largest_size_everywhere_and_others_on_the_reference():
    from types import SimpleNamespace as Stand

    tokenizers = [Stand(id=f"bpe/balanced-{n}", family="bpe-balanced", vocab_size=n, train_seconds=1.0) for n in (1024, 4096)]
    tokenizers += [Stand(id="hf/bpe-1024", family="hf-bpe", vocab_size=1024, train_seconds=1.0),
                   Stand(id="tiktoken/cl100k_base", family="tiktoken", vocab_size=100277, train_seconds=None),
                   Stand(id="tiktoken/o200k_base", family="tiktoken", vocab_size=200019, train_seconds=None)]
    from benchmark.adapters import is_trained
    from benchmark.measure.cells import timed_cells

    quick = timed_cells(tokenizers, ("eng", "jpn"), "eng", quick=True, is_trained=is_trained)
    assert list(quick) == ["bpe/balanced-4096", "hf/bpe-1024", "tiktoken/cl100k_base", "tiktoken/o200k_base"]
    assert set(quick.values()) == {("eng", "jpn")}
    # Without --quick, a family's other sizes are timed on the reference language alone.
    full = timed_cells(tokenizers, ("eng", "jpn"), "eng", quick=False, is_trained=is_trained)
    assert full == {**quick, "bpe/balanced-1024": ("eng",)} and list(full) == [t.id for t in tokenizers]


def test_every_row_decomposes_its_premium_and_pairs_carry_intervals(tmp_path):
    # Two production tokenizers on the bundled FLORES-200's six default languages, 40 sentences.
    import math

    from benchmark.results.pairwise import ratio_between

    results = run(RunConfig(tokenizers=("tiktoken/*",), max_sentences=40, repeats=1, cache_dir=tmp_path))
    rows = [r for r in results.rows if r.ok]
    assert len(rows) == 12
    for row in rows:
        # premium = byte premium x tokenizer's factor, and = floor x excess premium, on every row.
        assert math.isclose(row.premium, row.byte_premium * row.tokenizer_factor, rel_tol=1e-12)
        assert math.isclose(row.premium, row.information_floor * row.excess_premium, rel_tol=1e-12)
        assert row.fertility_ci_low <= row.fertility <= row.fertility_ci_high or row.n_words is None
    # The floor is the text's: the same for every tokenizer of a language, 1 on the reference.
    floors = {(r.language, r.information_floor) for r in rows}
    assert len(floors) == 6 and ("eng_Latn", 1.0) in floors
    assert results.record.settings.premium.floor.startswith("the measured sentences joined")
    # One pair per language, its ratio the ratio of the rows' totals, inverted the other way.
    assert len(results.pairwise) == 6
    by_row = {(r.tokenizer, r.language): r.n_tokens for r in rows}
    for entry in results.pairwise:
        assert (entry.tokenizer, entry.other) == ("tiktoken/cl100k_base", "tiktoken/o200k_base")
        assert entry.ratio == by_row[entry.tokenizer, entry.language] / by_row[entry.other, entry.language]
        assert entry.ratio_ci_low <= entry.ratio <= entry.ratio_ci_high
        back = ratio_between(results.pairwise, entry.language, entry.other, entry.tokenizer)
        assert back == (1 / entry.ratio, 1 / entry.ratio_ci_high, 1 / entry.ratio_ci_low)
    # results.json keeps all of it (format 4), and pairwise.csv is one line per pair.
    from benchmark.results.pairwise import pairwise_csv
    from benchmark.results.rows import load_results, save_results

    save_results(results, tmp_path / "results.json")
    again = load_results(tmp_path / "results.json")
    assert again.rows == results.rows and again.pairwise == results.pairwise
    assert len(pairwise_csv(results.pairwise).splitlines()) == 1 + 6


def test_the_record_gives_each_phases_wall_time_and_peak_memory_and_the_methods_say_it(tmp_path):
    from benchmark.report.facts.methods import methods_paragraph
    from benchmark.report.view import ReportView

    results = run(RunConfig(corpus_dir=DATA / "tiny_corpus", train_corpus_dir=DATA / "tiny_split",
                            vocab_sizes=(260,), tokenizers=("bpe/balanced-*", "tiktoken/cl100k_base"), repeats=1,
                            cache_dir=tmp_path))
    record = results.record
    assert {"training and loading", "words and information floor", "counting", "timing", "rows and record"} <= set(
        record.phase_seconds)
    assert set(record.phase_peak_mb) == set(record.phase_seconds)
    assert all(10 < mb < 100_000 for mb in record.phase_peak_mb.values())  # MB of a Python process
    text = methods_paragraph(ReportView.of(results))
    assert f"counting {record.phase_seconds['counting']:,.1f} s (peak {record.phase_peak_mb['counting']:,.0f} MB)" in text

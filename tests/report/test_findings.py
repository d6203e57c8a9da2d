"""The findings and the methods paragraph, checked against figures recomputed from the rows.

On tests/data/results_fixture.json (tests/support/report_fixture.py); expected values are computed here from the
fixture's rows, never copied from a report.
"""

from __future__ import annotations

import math
import re

import pytest
from tests.support.report_fixture import results  # noqa: F401 (fixtures)

from benchmark.report.facts import analysis
from benchmark.report.plots import measurements as plots_module
from benchmark.report.plots import style as style_module
from benchmark.report.facts.analysis import FLAT_GAIN_PER_DOUBLING, most_expensive
from benchmark.report.facts.findings import compute_findings
from benchmark.report.naming import language_label
from benchmark.report.view import ReportView
from benchmark.results.record import TimingSettings


def test_findings_name_the_most_expensive_language(results):
    findings = compute_findings(results)
    reference = results.record.settings.reference
    tiktoken_rows = [r for r in results.rows if r.family == "tiktoken" and r.ok and r.language != reference]
    worst = max(tiktoken_rows, key=lambda r: r.premium)
    # In this fixture the worst case under any tokenizer is a tiktoken one.
    assert all(r.premium <= worst.premium for r in results.rows if r.ok and r.premium is not None)
    first = findings[0]
    assert first.startswith(language_label(results, worst.language))
    assert f"{worst.premium:.2f}x" in first
    o200k = [r for r in tiktoken_rows if r.tokenizer == "tiktoken/o200k_base"]
    o200k_worst = max(o200k, key=lambda r: r.premium)
    assert most_expensive(results, "tiktoken/o200k_base").language == o200k_worst.language
    assert f"tiktoken/o200k_base: {language_label(results, o200k_worst.language)}" in first


def test_findings_give_the_o200k_saving_per_language(results):
    sentence = next(s for s in compute_findings(results) if "o200k_base needs" in s)
    index = {(r.tokenizer, r.language): r for r in results.rows}
    savings = {
        code: 1 - index[("tiktoken/o200k_base", code)].n_tokens / index[("tiktoken/cl100k_base", code)].n_tokens
        for code in results.record.language_names
    }
    most, least = max(savings, key=savings.get), min(savings, key=savings.get)
    assert sentence.index(language_label(results, most)) < sentence.index(language_label(results, least))
    for code, saving in savings.items():
        assert f"{abs(saving) * 100:.0f}% {'fewer' if saving >= 0 else 'more'}" in sentence


def _flat_size_by_hand(points: list[tuple[int, float]]) -> int | None:
    for (s1, b1), (s2, b2) in zip(points, points[1:]):
        doublings = math.log2(s2 / s1)
        if (b2 / b1) ** (1 / doublings) - 1 < FLAT_GAIN_PER_DOUBLING:
            return s1
    return None


def test_findings_say_where_bytes_per_token_stops_improving(results):
    sentence = next(s for s in compute_findings(results) if s.startswith("Bytes per token of our byte-level BPE"))
    stopped_part, _, improving_part = sentence.partition("still improving")
    outcomes = set()
    for code in results.record.language_names:
        points = sorted(
            (r.vocab_size, r.bytes_per_token) for r in results.rows if r.family == "bpe" and r.language == code and r.ok
        )
        flat = _flat_size_by_hand(points)
        outcomes.add(flat)
        label = language_label(results, code)
        if flat is None:
            assert label in improving_part, code
        else:
            assert label in stopped_part and f"at {flat:,} for" in stopped_part, code
    assert len(outcomes) > 1, "the fixture should show both outcomes"


def test_stops_improving_rule_on_a_hand_made_curve():
    # 1024 -> 2048 gains 20%, 2048 -> 8192 gains 4% per doubling: flat at 2048.
    assert analysis.per_doubling_gain((1024, 2.0), (2048, 2.4)) == pytest.approx(0.2)
    assert analysis.per_doubling_gain((2048, 2.4), (8192, 2.4 * 1.04**2)) == pytest.approx(0.04)
    assert _flat_size_by_hand([(1024, 2.0), (2048, 2.4), (8192, 2.4 * 1.04**2)]) == 2048


def test_families_still_improving_everywhere_share_one_sentence(results):
    # Keep only the two smallest sizes of each trained family: in this fixture every language still
    # gains 5% or more per doubling from 1024 to 4096 under our BPE and HF's.
    rows = tuple(
        r for r in results.rows if r.family == "tiktoken" or (r.family in ("bpe", "hf-bpe") and r.vocab_size <= 4096)
    )
    small = ReportView(rows=rows, record=results.record)
    gains = []
    for family in ("bpe", "hf-bpe"):
        for code in results.record.language_names:
            points = sorted(
                (r.vocab_size, r.bytes_per_token) for r in rows if r.family == family and r.language == code
            )
            assert _flat_size_by_hand(points) is None
            (s1, b1), (s2, b2) = points
            gains.append((b2 / b1) ** (1 / math.log2(s2 / s1)) - 1)
    sentences = [s for s in compute_findings(small) if s.startswith("Bytes per token")]
    assert len(sentences) == 1
    assert "our byte-level BPE and HF byte-level BPE is still improving at 4,096" in sentences[0]
    assert f"{min(gains):.0%} to {max(gains):.0%}" in sentences[0]


def test_the_methods_describe_only_what_the_run_did(results):
    import dataclasses

    from benchmark.report.facts.methods import methods_paragraph

    settings = dataclasses.replace(results.record.settings, timing=TimingSettings(repeats=3, warm_up={
        code: "dev split of flores200" for code in results.record.language_names}))
    full = ReportView(rows=results.rows, record=dataclasses.replace(results.record, settings=settings))
    text = methods_paragraph(full)
    assert "encodes the language's own dev split" in text and "Trained tokenizers learn from" in text
    assert "hf/wordpiece" in text and "timed cold" not in text
    # The fixture's WordPiece came from HF's trainer, which moves; ours (a `trainer` setting) does not.
    assert "trained by HuggingFace's WordPiece trainer, which breaks ties" in text
    ours = {tokenizer: dataclasses.replace(entry, settings={**entry.settings, "trainer": "ours"})
            if entry.family == "hf-wordpiece" else entry for tokenizer, entry in full.record.tokenizers.items()}
    fixed = ReportView(rows=full.rows, record=dataclasses.replace(full.record, tokenizers=ours))
    assert "hf/wordpiece" not in methods_paragraph(fixed) and "one exception" not in methods_paragraph(fixed)

    # Only pretrained vocabularies, and a language with nothing to warm up on.
    rows = tuple(r for r in results.rows if r.family == "tiktoken")
    warm_up = {**settings.timing.warm_up, "kor_Hang": "none: timed cold (no dev split here)"}
    record = dataclasses.replace(results.record, settings=dataclasses.replace(
        settings, timing=TimingSettings(repeats=1, warm_up=warm_up)))
    text = methods_paragraph(ReportView(rows=rows, record=record))
    assert "Trained tokenizers" not in text and "training text" not in text and "saw no text" not in text
    assert "hf/wordpiece" not in text
    assert "one timed pass" in text
    assert "Korean (kor_Hang) had no text to warm up on and was timed cold" in text


def test_findings_name_the_lossless_tokenizer_with_the_fewest_tokens_per_language(results):
    shown = set(results.headline)
    sentence = next(s for s in compute_findings(results) if s.startswith("Fewest tokens per sentence"))
    skipped_lossy = 0
    for code in results.record.language_names:
        rows = [r for r in results.rows if r.language == code and r.tokenizer in shown and r.ok]
        lossless = [r for r in rows if r.roundtrip_rate >= 0.99]
        best = min(lossless, key=lambda r: (r.n_tokens, r.tokenizer))
        skipped_lossy += min(rows, key=lambda r: r.n_tokens).n_tokens < best.n_tokens
        label = f"{language_label(results, code)} {best.n_tokens / best.n_sentences:.1f}"
        part = next(p for p in sentence.split(": ", 1)[1].split("; ") if label in p)
        assert part.startswith(best.tokenizer + " on "), (code, part)
    assert skipped_lossy, "the fixture should have a language where a lossy tokenizer counts fewer tokens"


def test_no_fewest_tokens_finding_without_two_main_tokenizers_and_a_language_all_skipped_rules_none_out(results):
    import dataclasses

    one = ReportView(rows=tuple(r for r in results.rows if r.tokenizer == "tiktoken/o200k_base"), record=results.record)
    assert not [s for s in compute_findings(one) if s.startswith("Fewest tokens")]

    # Every tokenizer skipped on Korean: the main tokenizers are still those complete elsewhere.
    rows = tuple(dataclasses.replace(r, status="skipped: test") if r.language == "kor_Hang" else r for r in results.rows)
    skipped_korean = ReportView(rows=rows, record=results.record)
    assert skipped_korean.headline == results.headline
    with style_module.plot_style():
        assert plots_module.plot_tokens_per_sentence(skipped_korean) is not None


def test_the_methods_say_when_only_the_first_lines_were_measured(results):
    import dataclasses

    from benchmark.report.facts.methods import methods_paragraph

    settings = dataclasses.replace(results.record.settings, max_sentences=40, measure_split="devtest",
                                   corpus_dir="corpora/flores200")
    capped = ReportView(rows=results.rows, record=dataclasses.replace(results.record, settings=settings))
    assert "(40 per language, the first 40 lines of the devtest split of corpora/flores200)" in methods_paragraph(capped)


def test_tied_fewest_tokens_are_named_together(results):
    from dataclasses import replace

    korean = {r.tokenizer: r for r in results.rows if r.language == "kor_Hang" and r.ok}
    winner = min((r for r in korean.values() if r.tokenizer in results.headline
                  and (r.roundtrip_rate is None or r.roundtrip_rate >= 0.99)), key=lambda r: r.n_tokens)
    other = next(t for t in results.headline if t != winner.tokenizer and korean[t].roundtrip_rate == 1)
    # One token more over the language's sentences: the same figure to one decimal.
    tied = replace(korean[other], n_tokens=winner.n_tokens + 1,
                   tokens_per_sentence=(winner.n_tokens + 1) / winner.n_sentences)
    rows = tuple(tied if r is korean[other] else r for r in results.rows)
    sentence = next(s for s in compute_findings(ReportView(rows=rows, record=results.record)) if s.startswith("Fewest"))
    names = " and ".join(sorted([winner.tokenizer, other]))
    assert f"{names} on Korean (kor_Hang) {winner.tokens_per_sentence:.1f}" in sentence


def test_a_saving_that_rounds_to_zero_reads_as_under_one_percent(results):
    from dataclasses import replace

    cl100k = {r.language: r for r in results.rows if r.tokenizer == "tiktoken/cl100k_base"}
    rows = tuple(replace(r, n_tokens=cl100k[r.language].n_tokens + 1) if r.tokenizer == "tiktoken/o200k_base"
                 and r.language == "eng_Latn" else r for r in results.rows)
    sentence = next(s for s in compute_findings(ReportView(rows=rows, record=results.record)) if "o200k_base needs" in s)
    assert "under 1% more on English (eng_Latn)" in sentence and not re.search(r"\b0%", sentence)


def test_the_summary_counts_only_tokenizers_that_were_measured(results):
    from benchmark.report.facts.methods import run_summary

    measured = {r.tokenizer for r in results.rows if r.ok}
    never = {r.tokenizer for r in results.rows} - measured
    assert never, "the fixture should have a tokenizer skipped on every language"
    assert f"{len(measured)} tokenizers measured ({len(never)} more skipped on every language)" in run_summary(results)


def test_the_summary_names_the_corpus_and_the_domain(results):
    import dataclasses

    from benchmark.report.facts.methods import run_summary

    settings = dataclasses.replace(results.record.settings, corpus_dir="corpora/django-ui", domain="ui")
    record = dataclasses.replace(results.record, settings=settings)
    assert "sentences per language of corpora/django-ui, its ui lines only (" in run_summary(
        ReportView(rows=results.rows, record=record))

"""How the figures were measured, in words: the one-line run summary and the methods paragraph,
filled in from the run record. README.md and index.html both print them.
"""

from __future__ import annotations

from benchmark.report.facts.analysis import has_yardstick_ratios, has_yardstick_row
from benchmark.report.naming import (
    MAX_NAMED,
    clock_name,
    join_limited,
    language_label,
)
from benchmark.report.view import ReportView


def run_summary(results: ReportView) -> str:
    """One line: when, on what, how many sentences."""
    record = results.record
    codes = results.languages
    languages = (", ".join(language_label(results, code) for code in codes) if len(codes) <= MAX_NAMED
                 else f"{len(codes)} languages: {join_limited([language_label(results, c) for c in codes])}")
    n_sentences = max((row.n_sentences for row in results.rows if row.ok), default=0)
    n_tokenizers = len({row.tokenizer for row in results.rows if row.ok})
    n_never = len({row.tokenizer for row in results.rows}) - n_tokenizers
    skipped = f" ({n_never} more skipped on every language)" if n_never else ""
    machine = record.machine
    where = ", ".join(str(value) for value in (machine.platform, machine.processor) if value)
    cpus = f", {machine.cpu_count} CPUs" if machine.cpu_count else ""
    quick = " (quick run)" if record.settings.quick else ""
    # The corpus first: the same languages on UI strings or on news are different answers.
    corpus = f" of {record.settings.corpus_dir}" if record.settings.corpus_dir else ""
    domain = f", its {record.settings.domain} lines only" if record.settings.domain else ""
    return (
        f"Run of {record.date}{quick}: {n_tokenizers} tokenizers measured{skipped}, {n_sentences:,} sentences per "
        f"language{corpus}{domain} ({languages}); machine: {where or 'unknown'}{cpus}."
    )


def methods_paragraph(results: ReportView) -> str:
    """How each figure was measured, filled in from the run's settings where it recorded them, and
    only about what this run did (no training sentence for a run that trained nothing)."""
    settings = results.record.settings
    reference = results.reference
    n_sentences = max((row.n_sentences for row in results.rows if row.ok), default=0)
    measure_split = settings.measure_split or "devtest"
    train_split = settings.train_split or "dev"
    premium = settings.premium
    resamples = f"{premium.n_resamples:,} resamples, " if premium.n_resamples else ""
    seed = f"seed {premium.seed}" if premium.seed is not None else "seeded"
    n_repeats = settings.timing.repeats
    repeats = ("one timed pass" if n_repeats == 1 else f"the median of {n_repeats} timed repeats" if n_repeats
               else "the median of repeats")
    train_lines = settings.n_train_lines_per_language
    train_share = f"{train_lines:,} lines per language" if train_lines else "an equal share per language"
    corpus_dir = settings.corpus_dir
    of_corpus = f" of {corpus_dir}" if corpus_dir else ""
    measured_text = f"every line{of_corpus}" if measure_split == "all" else f"the {measure_split} split{of_corpus}"
    if settings.max_sentences is not None:  # --max-sentences or --quick: only the first lines
        measured_text = (f"the first {settings.max_sentences:,} lines of {measured_text}" if measure_split != "all"
                         else f"the first {settings.max_sentences:,} lines{of_corpus}")
    train_dir = settings.train_corpus_dir
    train_text = "the training text" if train_split == "all" else f"the {train_split} split"
    if train_dir:
        train_text += f" of {train_dir}"
        if corpus_dir and measure_split == "all" and train_dir != corpus_dir:
            train_text += f" ({corpus_dir} has no dev/ split to train on: it is measured whole)"
    text = (
        f"Each measured sentence ({n_sentences:,} per language, {measured_text}) is encoded on its own as plain "
        "text (no special tokens, no truncation) and the token counts are summed. The premium is a language's token "
        f"count divided by {language_label(results, reference)}'s on the same lines; its 95% interval is a paired "
        f"bootstrap over sentences ({resamples}{seed}). Bytes and characters are those of the sentences in UTF-8. "
        f"Throughput is MB (10^6 bytes) of UTF-8 text encoded per {clock_name(results)} second on a single thread, "
        f"{repeats}, on text the tokenizer has not seen: {_warm_up(results)} {_yardstick(results)}"
    ) + _reused_timing(results)
    if settings.counting.engine:  # our BPE counted on tiktoken's engine, its ids checked against ours
        text += f"Counting: {settings.counting.engine}. "
    if results.trained_families:
        names = [language_label(results, code) for code in settings.train_languages]
        of_languages = f", in {join_limited(names)}" if names else ""
        if len(names) > MAX_NAMED:
            of_languages += " (every one in results.json, settings.train_languages)"
        text += (f"Trained tokenizers learn from {train_text}{of_languages} ({train_share}). "
                 f"{training_overlap(results)}")
    if settings.calibration and results.calibration:  # how the tokens-per-character table was fitted
        text += f"Estimates without a tokenizer: {settings.calibration}. "
    text += _mixes(results) + _words_and_fairness(results) + run_costs(results)
    if settings.quick_left_out:
        text += f"This was a --quick look; it left out {'; '.join(settings.quick_left_out)}. "
    if not _trained_by_hf_wordpiece(results):
        return text + f"Only the timing columns ({_timing_columns(results)}) change between runs."
    return text + (
        f"Only the timing columns ({_timing_columns(results)}) change between runs, with one exception: "
        "this run's `hf/wordpiece-*` tokenizers were trained by HuggingFace's WordPiece trainer, which breaks ties "
        "between equally frequent pairs in hash-map order, which changes from process to process, so a fresh "
        "training can move a row's count by about 0.2% (trained tokenizers are cached, so reruns "
        "measure the same model; this suite now trains WordPiece in a fixed order: benchmark/adapters/hf_wordpiece.py)."
    )


def _trained_by_hf_wordpiece(results: ReportView) -> bool:
    """Whether a WordPiece model measured here came from HF's own trainer: a record from before our
    fixed-order copy (hf_wordpiece.py), whose models name no `trainer` in their settings."""
    measured = {row.tokenizer for row in results.rows if row.family == "hf-wordpiece" and row.ok}
    return any((entry := results.record.tokenizers.get(tokenizer)) is None or "trainer" not in entry.settings
               for tokenizer in measured)


def run_costs(results: ReportView) -> str:
    """Where the measuring run's time and memory went, phase by phase, from the record (empty for
    a record without them)."""
    record = results.record
    if not record.phase_seconds:
        return ""
    parts = []
    for phase, seconds in record.phase_seconds.items():
        peak = record.phase_peak_mb.get(phase)
        parts.append(f"{phase} {seconds:,.1f} s" + (f" (peak {peak:,.0f} MB)" if peak is not None else ""))
    total = sum(record.phase_seconds.values())
    return (f"Measuring took {total:,.1f} s of wall time on this machine: {', '.join(parts)}; drawing the report "
            "comes after. ")


def _mixes(results: ReportView) -> str:
    """Our BPE's training mixes as the run applied them, from the run record."""
    mixes = results.record.settings.train_mixes
    if not mixes:
        return ""
    reference = results.reference
    parts = []
    for name, mix in mixes.items():
        share = mix.byte_shares.get(reference)
        of_bytes = f", {language_label(results, reference)} {share:.0%} of the bytes" if share is not None else ""
        parts.append(f"{name} ({mix.description}{of_bytes})")
    return (f"Our BPE is trained in {len(mixes)} mixes of the same text: {'; '.join(parts)}. A mix weights a "
            "language's pre-token counts by an integer (the same as repeating its text, not more distinct text); "
            "parity-aware training takes, at each merge, the language whose training text is then worst "
            "compressed and merges its most frequent pair (Foroutan et al. 2025; docs/bpe.md). ")


def _words_and_fairness(results: ReportView) -> str:
    """How words were found and what the fairness figures are over, from the run record."""
    settings = results.record.settings
    text = ""
    segmenters = settings.words.segmenters
    if segmenters:
        by_segmenter: dict[str, list[str]] = {}
        for code, entry in segmenters.items():
            by_segmenter.setdefault(entry.segmenter, []).append(language_label(results, code))
        used = "; ".join(f"{segmenter} for {join_limited(names)}" for segmenter, names in by_segmenter.items())
        if any(len(names) > MAX_NAMED for names in by_segmenter.values()):
            used += " (each language's in results.json, settings.words)"
        text += (f"Words (for fertility, whole and continued words) are {settings.words.word}: {used}; "
                 f"{settings.words.alignment}. ")
    if settings.distribution.fairness:
        text += f"The fairness figures are taken {settings.distribution.fairness}. "
    if settings.distribution.renyi_efficiency_ci:
        text += f"The Rényi efficiency's interval is a {settings.distribution.renyi_efficiency_ci}. "
    return text


def _timing_columns(results: ReportView) -> str:
    return "train seconds, MB/s, tokens/s" + (", x tiktoken" if has_yardstick_ratios(results) else "")


def _yardstick(results: ReportView) -> str:
    """How the ratio to tiktoken was timed; empty for a record from before it."""
    if not has_yardstick_ratios(results):
        return ""
    itself = (" (tiktoken's own row, timed against itself, shows how far it strays from 1.0x)"
              if has_yardstick_row(results) else "")
    return ("In every repeat, tiktoken's cl100k_base encodes the same sentences too, the two taking turns, and the "
            "throughput in multiples of tiktoken's is the median over repeats of tiktoken's seconds divided by the "
            "tokenizer's: a busy machine slows both alike, so the ratio is much steadier than MB/s, though not "
            f"exact{itself}. ")


def _warm_up(results: ReportView) -> str:
    """What each repeat encodes before the timed pass, from the run record's per-language sources."""
    sources = results.record.settings.timing.warm_up
    empty_cache = "each repeat first empties the encoder's cache and encodes"
    if not isinstance(sources, dict) or not sources:
        return f"{empty_cache} the language's dev split, so no measured sentence is cached."
    cold = [code for code, source in sources.items() if str(source).startswith("none")]
    warm = {code: source for code, source in sources.items() if code not in cold}
    sentence = ""
    if warm:
        # "dev split of <corpus>" (the corpus's own), "<split> split of <training corpus> (<code>)" (borrowed)
        corpus = results.record.settings.corpus
        own = all(
            source == f"dev split of {corpus}" or (str(source).startswith("dev split of ") and not str(source).endswith(")"))
            for source in warm.values()
        )
        places = {str(source).rsplit(" (", 1)[0] for source in warm.values()}
        if own:
            what = "the language's own dev split"
        elif len(places) == 1:
            what = f"the same language's lines in the {places.pop()}"
        else:
            what = "other text of the same language (per language in results.json, settings.timing.warm_up)"
        sentence = f"{empty_cache} {what}, so no measured sentence is cached."
    if cold:
        names = join_limited([language_label(results, code) for code in cold])
        sentence += (f"{' ' if sentence else ''}{names} had no text to warm up on and {'was' if len(cold) == 1 else 'were'} "
                     "timed cold (each repeat starts from an empty cache).")
    return sentence


def training_overlap(results: ReportView) -> str:
    """What the trained tokenizers saw of the measured languages and text, as the run checked it:
    whole sentences, each followed by a space (empty for a record that did not check)."""
    settings = results.record.settings
    sentences = []
    counterpart = settings.train_language_of or {}
    unseen = [code for code in results.languages if code in counterpart and counterpart[code] is None]
    if unseen:
        names = ", ".join(language_label(results, code) for code in unseen)
        sentences.append(f"They saw no text at all in {names}: the training corpus has no such language, so "
                         "their figures there are for a language they never learnt.")
    found = settings.n_measured_lines_in_training
    if isinstance(found, dict):
        overlap = {code: n for code, n in found.items() if n}
        if not overlap:
            sentences.append("No measured sentence occurs in the training text (checked line by line).")
        else:
            counts = ", ".join(f"{language_label(results, code)} {n:,}" for code, n in overlap.items())
            limit = settings.max_share_measured_in_training
            refused = f"; a run is refused above {limit:.0%} of a language" if isinstance(limit, (int, float)) else ""
            sentences.append(f"Measured sentences that also occur word for word in the training text (checked "
                             f"line by line{refused}): {counts}.")
    return "".join(sentence + " " for sentence in sentences)


def _reused_timing(results: ReportView) -> str:
    """Which timings `run --reuse-timing` took from the results cache, and when they were measured."""
    reused = results.record.settings.timing.reused_measured_on
    if not reused:
        return ""
    days = sorted({when[:10] for when in reused.values()})
    when = days[0] if len(days) == 1 else f"between {days[0]} and {days[-1]}"
    n_timed = len({row.tokenizer for row in results.rows if row.throughput_mb_s is not None})
    return (f"The timing columns of {len(reused)} of the {max(n_timed, len(reused))} timed tokenizers were not "
            f"measured in this run: they are reused (run --reuse-timing) from a run on this machine with the same "
            f"text and timing settings, measured {when} (each tokenizer's date in results.json, "
            "settings.timing.reused_measured_on). ")

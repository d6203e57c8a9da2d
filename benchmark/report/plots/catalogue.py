"""The plots, each declared once: its file name, title, caption, the function that draws it, the
section it is shown in and its form for many languages, in reading order.

Adding a plot: its drawing function (measurements.py, compare.py, ...) and its `PlotSpec` here,
plus its test. README.md and index.html show every spec in its section (pages/sections.py),
render.py draws them; a spec must name a section (a spec that does not is refused when it is made).

Importing this module loads no plotting library: the drawing functions import matplotlib when
they run.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from benchmark.report.facts.analysis import has_yardstick_ratios
from benchmark.report.facts.examples import MAX_PNG_LANGUAGES, png_languages, png_leaves_out
from benchmark.report.naming import join_words, language_label
from benchmark.report.plots import (code, compare, decomposition, domains, hangul_first, lorenz, many_languages,
                                    measurements, token_boundaries)
from benchmark.report.view import ReportView

# The sections of the report, in reading order (pages/sections.py lays them out): a plot names one.
SECTION_KEYS = ("cost", "fairness", "groups", "domains", "code", "mixes", "trained", "words", "calibration", "speed", "fidelity", "vocabulary",
                "examples", "tokenizers")


@dataclass(frozen=True)
class PlotSpec:
    name: str  # file stem under plots/
    title: str
    caption: str  # one sentence: how to read it
    draw: Callable[[ReportView], object]  # -> a matplotlib Figure, or None when the run has nothing to draw
    section: str  # the key of the section that shows it (SECTION_KEYS)
    # Past view.MANY_LANGUAGES languages: the caption of the layout drawn then, and the function
    # that draws it where it is another function (None: `draw` adapts, or the plot looks the same).
    many_caption: str | None = None
    draw_many: Callable[[ReportView], object] | None = None
    # Drawn first on the pool: the slowest (thousands of text boxes, 3-5 s against 0.2-1.9 s for
    # each other plot), so the rest fill the other core while it draws, not after.
    slow_to_draw: bool = False

    def __post_init__(self):
        if self.section not in SECTION_KEYS:
            raise ValueError(f"plot {self.name!r}: section {self.section!r} is not one of {', '.join(SECTION_KEYS)}")

    def figure(self, results: ReportView):
        """The figure for these results (call inside style.plot_style()), or None."""
        draw = self.draw_many if results.many and self.draw_many is not None else self.draw
        return draw(results)


PLOTS = (
    PlotSpec(
        "production_cost",
        "What each language costs on today's models",
        "Mean tokens per sentence of the same content on each production tokenizer, one row per language; the "
        "grey band spans the fewest to the most tokens over the models. Lower is cheaper.",
        compare.plot_production_cost, "cost",
    ),
    PlotSpec(
        "fairness",
        "How evenly each tokenizer charges the languages",
        "The Gini coefficient of the languages' token counts for the same sentences, per tokenizer, most even on "
        "top; whiskers are the 95% bootstrap interval over sentences, hatched bars count text the tokenizer changed.",
        compare.plot_fairness, "fairness",
    ),
    PlotSpec(
        "lorenz",
        "Lorenz curves: the picture of each Gini",
        "For each production tokenizer, the share of all tokens (up) that the cheapest share of languages (across) "
        "needs for the same sentences; the dashed diagonal is every language costing the same, and the further a "
        "curve sags below it the larger its Gini (twice the area between them, in the legend).",
        lorenz.plot_lorenz, "fairness",
    ),
    PlotSpec(
        "domain_premium",
        "The same language, different kinds of text",
        "One panel per language, one row per tokenizer: the premium over the reference on the lines of each kind "
        "of text alone (a colour per domain), whiskers the 95% paired bootstrap interval over those lines, the "
        "dashed line parity. How far a row's markers lie apart is how far the kind of text moves the premium.",
        domains.plot_domain_premiums, "domains",
    ),
    PlotSpec(
        "code",
        "Source code: tokens per kilobyte",
        "Tokens per 1,000 bytes of each programming language's sample (whole files of real source, a colour per "
        "language), per tokenizer; the black tick is the reference language's FLORES prose in the same unit, for "
        "scale (not the same content, so no premium). Lower is cheaper.",
        code.plot_code, "code",
    ),
    PlotSpec(
        "mix_premium",
        "What the training mix does to the premium",
        "Our BPE trained on the same text in each mix, at one size: the premium of each language (bars), with "
        "OpenAI's two vocabularies as reference points (markers) and parity with the reference dashed. English "
        "first in the training text makes every other language pay more; parity-aware merges close the gap.",
        compare.plot_mix_premium, "mixes",
    ),
    PlotSpec(
        "korean_by_size",
        "Korean: Hangul syllables first, or frequency merges?",
        "Korean's premium over the reference (left, 95% interval shaded) and the share of its tokens that are part "
        "of a character (right) at each size, for our BPE trained balanced, parity-aware and with every Hangul "
        "syllable bound first, and HF's parity-aware trainer (dotted); the same training text for all.",
        hangul_first.plot_korean_by_size, "mixes",
    ),
    PlotSpec(
        "gini_by_size",
        "Fairness against vocabulary size, per training mix",
        "The Gini of the languages' token counts for each trained family at each size (solid: our BPE's mixes, "
        "dotted: the libraries' trainers); dashed horizontal lines mark the production tokenizers.",
        compare.plot_gini_by_size, "mixes",
    ),
    PlotSpec(
        "tokens_per_sentence",
        "Tokens per sentence",
        "What each language costs: mean tokens per sentence of the same content, for the main tokenizers; "
        "lower is cheaper. Hatched bars count text the tokenizer changed.",
        measurements.plot_tokens_per_sentence, "trained",
        many_caption="What each language costs: mean tokens per sentence of the same content, one row per "
        "language (the most expensive first, by the mean over the main tokenizers), one column per main tokenizer; "
        "lower is cheaper. † marks a count of text the tokenizer changed.",
        draw_many=many_languages.tokens_heatmap,
    ),
    PlotSpec(
        "premium_decomposition",
        "Where each premium comes from: the text's bytes, and the tokenizer",
        "Per production tokenizer, languages by premium over the reference (dearest on top, log scale): the grey "
        "bar is the byte premium (the same sentences' UTF-8 bytes over the reference's, no tokenizer involved), the "
        "coloured one the tokenizer's factor that takes it to the premium (a bar that turns back is a tokenizer that "
        "charges less than the bytes would), and the black tick the information floor (the text compressed by lzma).",
        decomposition.plot_premium_decomposition, "cost",
        many_caption="Per production tokenizer, every language by premium over the reference (dearest on top, the "
        "dearest named; log scale): the grey bar is the byte premium, the coloured one the tokenizer's factor, the "
        "black tick the information floor (the text compressed by lzma).",
    ),
    PlotSpec(
        "premium",
        "Token premium vs the reference language",
        "Tokens each language needs for the same sentences, relative to the reference under the same "
        "tokenizer (so a small premium can still mean more tokens: see tokens per sentence); whiskers are the "
        "95% bootstrap interval, the dashed line parity, hatched bars count text the tokenizer changed.",
        measurements.plot_premium, "trained",
        many_caption="Tokens each language needs for the same sentences, relative to the reference under the same "
        "tokenizer (so a small premium can still mean more tokens: see tokens per sentence), one row per language, "
        "the most expensive first; the 95% bootstrap intervals are in the premium table, † marks a count of text "
        "the tokenizer changed.",
        draw_many=many_languages.premium_heatmap,
    ),
    PlotSpec(
        "bytes_per_token",
        "Bytes per token against vocabulary size",
        "One panel per trained family, one line per language; crosses and stars mark the fixed "
        "cl100k and o200k vocabularies (spread sideways so that languages do not hide each other), a ring "
        "the size after which doubling gains less than 5% where a curve gets there. A language's bytes per "
        "character depend on its script, so compare a colour across panels, not colours with each other.",
        measurements.plot_bytes_per_token, "trained",
        many_caption="One panel per trained family: the median over the languages (the line), the middle half "
        "and the whole range (the bands), and three languages named (the reference, and the lowest and highest at "
        "the largest size); crosses and stars mark the fixed cl100k and o200k vocabularies' median with the middle "
        "half (bar) and range (line), a ring the size after which doubling gains the median less than 5% where it "
        "gets there. A language's bytes per character depend on its script: the spread is partly UTF-8's.",
    ),
    PlotSpec(
        "throughput",
        "Encoder throughput",
        "Encoding speed on one thread in multiples of tiktoken cl100k_base's (the dashed line), each tokenizer "
        "timed in turns with tiktoken on the same sentences (log scale), one dot per language.",
        measurements.plot_throughput, "speed",
        many_caption="Encoding speed on one thread in multiples of tiktoken cl100k_base's (the dashed line), each "
        "tokenizer timed in turns with tiktoken on the same sentences (log scale): one small dot per language, "
        "spread up and down so that equal speeds stay visible, and a bar at the median over the languages.",
    ),
    PlotSpec(
        "train_seconds",
        "Training time against vocabulary size",
        "Wall-clock seconds to train each family on the training text, by vocabulary size.",
        measurements.plot_train_seconds, "trained",
    ),
    PlotSpec(
        "roundtrip",
        "Round-trip fidelity",
        "Share of sentences that decode back to exactly the input; anything below 100% is lossy normalisation.",
        measurements.plot_roundtrip, "fidelity",
        many_caption="Share of sentences that decode back to exactly the input, one row per language, the worst "
        "first; languages that every tokenizer gives back exactly share the last row. Anything below 100% is lossy "
        "normalisation.",
        draw_many=many_languages.roundtrip_by_language,
    ),
    PlotSpec(
        "token_boundaries",
        "Token boundaries of one example sentence",
        "Each box is one token of the example sentence, for the main tokenizers.",
        token_boundaries.plot_token_boundaries, "examples", slow_to_draw=True,
    ),
)
PLOT_BY_NAME = {spec.name: spec for spec in PLOTS}

# What the throughput plot shows for a results.json from before the yardstick (format 1).
THROUGHPUT_MB_S_CAPTION = "MB of UTF-8 text encoded per second on one thread (log scale), one dot per language."


def plots_in(section: str) -> tuple[str, ...]:
    """The names of the plots a section shows, in reading order."""
    return tuple(spec.name for spec in PLOTS if spec.section == section)


def caption_of(spec: PlotSpec, results: ReportView) -> str:
    """The plot's caption for these results: the layout for many languages, the MB/s of an old
    results file, the languages the token-boundary plot shows."""
    if spec.name == "throughput" and not has_yardstick_ratios(results):
        return THROUGHPUT_MB_S_CAPTION
    if spec.name == "token_boundaries":
        return _token_boundaries_caption(spec, results)
    if results.many and spec.many_caption:
        return spec.many_caption
    return spec.caption


def _token_boundaries_caption(spec: PlotSpec, results: ReportView) -> str:
    left_out = png_leaves_out(results)
    if not left_out:
        return spec.caption
    shown = join_words([language_label(results, code) for code in png_languages(results)])
    return (f"{spec.caption.removesuffix('.')}, in {shown}: the reference and, of the languages in scripts a plot "
            f"draws correctly, the costliest of each script first, {MAX_PNG_LANGUAGES} in all. The {len(left_out)} others, right-to-left "
            "and complex scripts among them, are in the HTML page's token boundaries, which the browser lays out, "
            "and in results.json (record.examples).")


@dataclass(frozen=True)
class RenderedPlot:
    """One plot as written (render.py): its spec and its PNG and SVG bytes (None: no SVG asked for),
    the digest of what it is drawn from (reuse.py) and whether the previous report's files gave it."""

    spec: PlotSpec
    png: bytes
    svg: bytes | None = None
    digest: str | None = None
    reused: bool = False

"""The plots' catalogue: each plot's file name, title and caption, in reading order.

Plain data (no matplotlib): README.md and index.html read the titles and captions from here, and
plots.py draws the figures under these names, so no renderer needs another one to know what a plot
is called or how to read it.
"""

from __future__ import annotations

from dataclasses import dataclass

from benchmark.report.analysis import has_yardstick_ratios
from benchmark.report.examples import MAX_PNG_LANGUAGES, png_languages, png_leaves_out
from benchmark.report.naming import has_many_languages, join_words, language_label
from benchmark.results.rows import Results


@dataclass(frozen=True)
class PlotInfo:
    name: str  # file stem under plots/
    title: str
    caption: str  # one sentence: how to read it


PLOTS = (
    PlotInfo(
        "production_cost",
        "What each language costs on today's models",
        "Mean tokens per sentence of the same content on each production tokenizer, one row per language; the "
        "grey band spans the cheapest to the dearest model. Lower is cheaper.",
    ),
    PlotInfo(
        "fairness",
        "How evenly each tokenizer charges the languages",
        "The Gini coefficient of the languages' token counts for the same sentences, per tokenizer, most even on "
        "top; whiskers are the 95% bootstrap interval over sentences, hatched bars count text the tokenizer changed.",
    ),
    PlotInfo(
        "mix_premium",
        "What the training mix does to the premium",
        "Our BPE trained on the same text in each mix, at one size: the premium of each language (bars), with "
        "OpenAI's two vocabularies as reference points (markers) and parity with the reference dashed. English "
        "first in the training text makes every other language pay more; parity-aware merges close the gap.",
    ),
    PlotInfo(
        "gini_by_size",
        "Fairness against vocabulary size, per training mix",
        "The Gini of the languages' token counts for each trained family at each size (solid: our BPE's mixes, "
        "dotted: the libraries' trainers); dashed horizontal lines mark the production tokenizers.",
    ),
    PlotInfo(
        "tokens_per_sentence",
        "Tokens per sentence",
        "What each language costs: mean tokens per sentence of the same content, for the main tokenizers; "
        "lower is cheaper. Hatched bars count text the tokenizer changed.",
    ),
    PlotInfo(
        "premium",
        "Token premium vs the reference language",
        "Tokens each language needs for the same sentences, relative to the reference under the same "
        "tokenizer (so a small premium can still mean more tokens: see tokens per sentence); whiskers are the "
        "95% bootstrap interval, the dashed line parity, hatched bars count text the tokenizer changed.",
    ),
    PlotInfo(
        "bytes_per_token",
        "Bytes per token against vocabulary size",
        "One panel per trained family, one line per language; crosses and stars mark the fixed "
        "cl100k and o200k vocabularies (spread sideways so that languages do not hide each other), a ring "
        "the size after which doubling gains less than 5% where a curve gets there. A language's bytes per "
        "character depend on its script, so compare a colour across panels, not colours with each other.",
    ),
    PlotInfo(
        "throughput",
        "Encoder throughput",
        "Encoding speed on one thread in multiples of tiktoken cl100k_base's (the dashed line), each tokenizer "
        "timed in turns with tiktoken on the same sentences (log scale), one dot per language.",
    ),
    PlotInfo(
        "train_seconds",
        "Training time against vocabulary size",
        "Wall-clock seconds to train each family on the training text, by vocabulary size.",
    ),
    PlotInfo(
        "roundtrip",
        "Round-trip fidelity",
        "Share of sentences that decode back to exactly the input; anything below 100% is lossy normalisation.",
    ),
    PlotInfo(
        "token_boundaries",
        "Token boundaries of one example sentence",
        "Each box is one token of the example sentence, for the main tokenizers.",
    ),
)


# What the throughput plot shows for a results.json from before the yardstick (format 1).
THROUGHPUT_MB_S_CAPTION = "MB of UTF-8 text encoded per second on one thread (log scale), one dot per language."

# The captions of the layouts for more than naming.MANY_LANGUAGES languages (many_languages.py).
MANY_LANGUAGES_CAPTIONS = {
    "tokens_per_sentence": "What each language costs: mean tokens per sentence of the same content, one row per "
    "language (the most expensive first, by the mean over the main tokenizers), one column per main tokenizer; lower "
    "is cheaper. † marks a count of text the tokenizer changed.",
    "premium": "Tokens each language needs for the same sentences, relative to the reference under the same "
    "tokenizer (so a small premium can still mean more tokens: see tokens per sentence), one row per language, the "
    "most expensive first; the 95% bootstrap intervals are in the premium table, † marks a count of text the "
    "tokenizer changed.",
    "bytes_per_token": "One panel per trained family: the median over the languages (the line), the middle half "
    "and the whole range (the bands), and three languages named (the reference, and the lowest and highest at the "
    "largest size); crosses and stars mark the fixed cl100k and o200k vocabularies' median with the middle half "
    "(bar) and range (line), a ring the size after which doubling gains the median less than 5% where it gets "
    "there. A language's bytes per character depend on its script: the spread is partly UTF-8's.",
    "throughput": "Encoding speed on one thread in multiples of tiktoken cl100k_base's (the dashed line), each "
    "tokenizer timed in turns with tiktoken on the same sentences (log scale): one small dot per language, spread "
    "up and down so that equal speeds stay visible, and a bar at the median over the languages.",
    "roundtrip": "Share of sentences that decode back to exactly the input, one row per language, the worst "
    "first; languages that every tokenizer gives back exactly share the last row. Anything below 100% is lossy "
    "normalisation.",
}


def caption_of(info: PlotInfo, results: Results) -> str:
    """The plot's caption for these results: the layout for many languages, the MB/s of an old
    results file, the languages the token-boundary plot shows."""
    if info.name == "throughput" and not has_yardstick_ratios(results):
        return THROUGHPUT_MB_S_CAPTION
    if info.name == "token_boundaries":
        return _token_boundaries_caption(info, results)
    if has_many_languages(results) and info.name in MANY_LANGUAGES_CAPTIONS:
        return MANY_LANGUAGES_CAPTIONS[info.name]
    return info.caption


def _token_boundaries_caption(info: PlotInfo, results: Results) -> str:
    left_out = png_leaves_out(results)
    if not left_out:
        return info.caption
    shown = join_words([language_label(results, code) for code in png_languages(results)])
    return (f"{info.caption.removesuffix('.')}, in {shown}: the reference and the first languages of the run in "
            f"scripts a plot draws correctly, {MAX_PNG_LANGUAGES} at most. The {len(left_out)} others, right-to-left "
            "and complex scripts among them, are in the HTML page's token boundaries, which the browser lays out, "
            "and in results.json (record.examples).")


@dataclass(frozen=True)
class RenderedPlot:
    """One plot as written: its catalogue entry and its PNG and SVG bytes."""

    info: PlotInfo
    png: bytes
    svg: bytes

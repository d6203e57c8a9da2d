"""The token-boundary plot: one example sentence per language, split into boxes by each main
tokenizer, so a reader sees where a tokenizer cuts (`Fred | dy`) and why one language costs more.
A few languages only (examples.png_languages); the HTML page shows every one (pages/token_examples.py).

Laid out by hand on a blank canvas in inches (each box as wide as its text measures), not with
seaborn: it draws text, not data.
"""

from __future__ import annotations

from benchmark.report.facts.examples import example_languages, example_tokenizers, png_languages, visible_token
from benchmark.report.naming import language_label
from benchmark.report.plots.style import new_figure, text_colour, tokenizer_colours
from benchmark.report.view import ReportView


def plot_token_boundaries(results: ReportView):
    """Coloured spans, one row per tokenizer, one block per language: `Fred | dy`."""
    from matplotlib.backends.backend_agg import RendererAgg
    from matplotlib.font_manager import FontProperties
    from matplotlib.patches import FancyBboxPatch

    examples = results.record.examples
    tokenizers = example_tokenizers(results)
    languages = png_languages(results)  # a few, in scripts matplotlib draws (facts/examples.py says why)
    if not tokenizers or not languages:
        return None
    colours = tokenizer_colours(results)

    width_in, margin_in = 12.0, 0.25
    token_pt, pad_pt, gap_pt = 10.0, 2.5, 2.0
    line_in, header_in, block_gap_in = 0.30, 0.36, 0.22
    span_right_in = width_in - margin_in
    font = FontProperties(size=token_pt)
    measure = RendererAgg(10, 10, 72)  # at 72 dpi one pixel is one point

    widths_in: dict[str, float] = {}  # a token's text is measured once, however often it recurs

    def text_width_in(text: str) -> float:
        if text not in widths_in:
            widths_in[text] = measure.get_text_width_height_descent(text, font, ismath=False)[0] / 72
        return widths_in[text]

    label_font = FontProperties(size=9)
    longest_label_pt = max(
        measure.get_text_width_height_descent(f"{tid}  (000 tokens)", label_font, ismath=False)[0]
        for tid in tokenizers
    )
    label_in = margin_in + longest_label_pt / 72 + 0.15

    # First pass: place every box, top-down, in inches from the top of the figure.
    boxes = []  # (x, y_top, width, text, colour, shade)
    labels = []  # (x, y_top, text, colour, weight, size)
    y = 0.75  # room for the title and the key
    for code in languages:
        labels.append((margin_in, y, language_label(results, code), "0.1", "bold", 11))
        y += header_in
        for tid in tokenizers:
            tokens = examples[code].get(tid)
            if tokens is None:
                continue
            labels.append((margin_in, y, f"{tid}  ({len(tokens)} tokens)", text_colour(colours[tid]), "normal", 9))
            x = label_in
            for k, token in enumerate(tokens):
                text = visible_token(token)
                box_w = text_width_in(text) + 2 * pad_pt / 72
                if x + box_w > span_right_in and x > label_in:
                    x, y = label_in, y + line_in
                boxes.append((x, y, box_w, text, colours[tid], k % 2))
                x += box_w + gap_pt / 72
            y += line_in
        y += block_gap_in
    height_in = y + 0.1

    fig = new_figure(width_in, height_in)
    fig.set_layout_engine("none")
    ax = fig.add_axes((0, 0, 1, 1))
    ax.set_axis_off()
    inches = fig.dpi_scale_trans
    box_h = (token_pt + 2 * pad_pt) / 72
    for x, y_top, w, text, colour, shade in boxes:
        y_base = height_in - y_top - box_h
        ax.add_artist(  # not add_patch: every box is placed in inches, so no data limits to update (1 s)
            FancyBboxPatch((x, y_base), w, box_h, boxstyle="round,pad=0,rounding_size=0.03", transform=inches,
                           facecolor=(*colour, 0.22 if shade else 0.45), edgecolor=(*colour, 0.9), linewidth=0.6)
        )
        ax.text(x + w / 2, y_base + box_h / 2, text, transform=inches, ha="center", va="center_baseline",
                fontsize=token_pt, parse_math=False)
    for x, y_top, text, colour, weight, size in labels:
        ax.text(x, height_in - y_top - box_h / 2, text, transform=inches, ha="left", va="center", color=colour,
                fontsize=size, fontweight=weight, parse_math=False)
    n_examples = len(example_languages(results))
    which = f"in {len(languages)} of the {n_examples} languages" if n_examples > len(languages) else "per language"
    fig.suptitle(f"Token boundaries: one example sentence {which}, one row per tokenizer",
                 fontweight="bold", y=1 - 0.12 / height_in, va="top")
    key = (
        "Each box is one token, as the text it stands for (WordPiece: the text it covers).  \u2423 is a space, "
        "<e3 81> the bytes of a character split across tokens."
    )
    fig.text(0.5, 1 - 0.42 / height_in, key,
             ha="center", va="top", fontsize=9, color="0.3", parse_math=False)
    return fig

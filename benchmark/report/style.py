"""How every figure looks: fonts (with a search for one that draws Japanese and Korean), seaborn's
style for the length of a `with` block, the canvas, and the fixed colours.

Colours: one fixed colour per tokenizer (a shade of its family's hue, darker for a larger
vocabulary) and one per language, computed once from the sorted ids, so a tokenizer or a language
looks the same in every figure.

matplotlib and seaborn are imported inside the functions, so importing this module loads neither.
"""

from __future__ import annotations

import contextlib
import logging
import warnings
from collections.abc import Iterator

from benchmark.report.view import ReportView

# The OpenAI vocabularies are the baseline everyone knows: neutral greys, o200k the darkest. Each
# trained family gets its own hue.
FAMILY_PALETTES = {
    "tiktoken": "Greys",
    "bpe_openai": "RdPu",
    "llama": "BuPu",
    "mistral": "YlOrRd",
    "qwen": "YlGn",
    "deepseek": "PuBu",
    "bpe": "Blues",
    "bpe-balanced": "Blues",
    "bpe-parity": "BuGn",
    "bpe-hangul-first": "PuRd",
    "bpe-english-heavy": "Reds",
    "bpe-english-only": "YlOrBr",
    "hf-bpe": "Purples",
    "hf-parity": "GnBu",
    "sentencepiece-unigram": "Greens",
    "hf-wordpiece": "Oranges",
}
SPARE_PALETTES = ("YlOrBr", "PuBuGn", "YlGn", "Reds", "GnBu", "PuRd")
# Fonts that draw Japanese and Korean, in order of preference.
CJK_FONT_NAMES = (
    "Noto Sans CJK JP",
    "Noto Sans CJK TC",  # the one the PyPI dependency cvttf-notosanscjk-regular ships
    "Noto Sans CJK KR",
    "Noto Sans JP",
    "Source Han Sans",
    "IPAexGothic",
    "IPAGothic",
    "TakaoGothic",
    "NanumGothic",
    "Droid Sans Fallback",
    "WenQuanYi Zen Hei",
)
# The round-trip heatmap's colour bands, (name, low %, high %): on a linear 0-100% scale 89% (one
# sentence in nine changed) is as green as 100%. "100" is exactly every sentence: one lost sentence
# in a million still reads as lossy.
_EXACT = 100 - 1e-4
ROUNDTRIP_BANDS = (("under 50", 0, 50), ("50-90", 50, 90), ("90-99", 90, 99), ("99 to <100", 99, _EXACT),
                   ("100", _EXACT, 100 + 1e-4))
SVG_HASH_SALT = "tokencost-report"  # fixed ids inside SVG files, so reruns give the same bytes
PNG_DPI = 110


_cjk_font_cache: list[str | None] = []


def find_cjk_font() -> str | None:
    """The name of an installed font that draws Japanese and Korean, or None.

    matplotlib's font cache is built once; a font installed later (apt-get install fonts-noto-cjk)
    is not in it, so when the cache has none we look at the system font files too.
    """
    if _cjk_font_cache:
        return _cjk_font_cache[0]
    from matplotlib import font_manager

    def known() -> str | None:
        names = {entry.name for entry in font_manager.fontManager.ttflist}
        return next((name for name in CJK_FONT_NAMES if name in names), None)

    # The project depends on a PyPI package that ships Noto Sans CJK (kana, Hangul and Han), so a
    # fresh machine draws Japanese and Korean without any system font.
    with contextlib.suppress(Exception):
        from cvttf_NotoSansCJK_Regular import get_TTF_path

        font_manager.fontManager.addfont(get_TTF_path())
    found = known()
    if found is None:
        hints = ("cjk", "gothic", "nanum", "ipa", "takao", "droidsansfallback", "wqy", "sourcehan", "notosansjp")
        for path in font_manager.findSystemFonts():
            flat = path.lower().replace("-", "").replace("_", "")
            if any(hint in flat for hint in hints):
                with contextlib.suppress(Exception):  # an unreadable font file is just not used
                    font_manager.fontManager.addfont(path)
        found = known()
    if found is None:
        warnings.warn(
            "no font for Japanese/Korean found; the token-boundary plot will show boxes for them "
            "(install one, e.g. `apt-get install fonts-noto-cjk`)",
            stacklevel=2,
        )
    _cjk_font_cache.append(found)
    return found


@contextlib.contextmanager
def plot_style() -> Iterator[None]:
    """seaborn's look and fonts that cover CJK, for the duration of a `with` block only."""
    import matplotlib as mpl
    import seaborn as sns

    cjk = find_cjk_font()
    families = ["DejaVu Sans"] + ([cjk] if cjk else [])
    rc = {
        "font.family": families,
        "svg.hashsalt": SVG_HASH_SALT,
        "svg.fonttype": "path",  # glyphs as outlines: the SVG draws the same without the fonts
        "figure.dpi": PNG_DPI,
        "axes.titleweight": "bold",
        "text.parse_math": False,  # labels are names ("a|b$x^$.json"), never mathtext
    }
    # The CJK font has no bold face: matplotlib logs a fallback to regular for every bold title.
    font_log = logging.getLogger("matplotlib.font_manager")
    level = font_log.level
    font_log.setLevel(logging.ERROR)
    with sns.axes_style("whitegrid"), sns.plotting_context("notebook", font_scale=0.9), mpl.rc_context(rc):
        with warnings.catch_warnings():
            # Without a CJK font every missing glyph warns; one warning (above) says it already.
            warnings.filterwarnings("ignore", message=r"Glyph \d+ .*missing from font")
            try:
                yield
            finally:
                font_log.setLevel(level)


def new_figure(width_in: float, height_in: float, **kwargs):
    """A `Figure` on an Agg canvas: no pyplot, so no display and no global list of open figures."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    fig = Figure(figsize=(width_in, height_in), layout="constrained", **kwargs)
    FigureCanvasAgg(fig)
    return fig


def tokenizer_colours(results: ReportView) -> dict[str, tuple[float, float, float]]:
    """tokenizer id -> RGB, a shade of the family's hue; darker means a larger vocabulary."""
    import seaborn as sns

    by_family: dict[str, list[str]] = {}
    for tid in results.tokenizers:
        family = next(row.family for row in results.rows if row.tokenizer == tid)
        by_family.setdefault(family, []).append(tid)
    spare = iter(SPARE_PALETTES * 10)
    colours = {}
    for family in sorted(by_family):
        palette = FAMILY_PALETTES.get(family) or next(spare)
        tids = by_family[family]
        # From the middle of the colour map to its dark end: pale shades vanish on white.
        cmap = sns.color_palette(palette, as_cmap=True)
        # Not the very end either: there the blues, purples and greys all look black.
        stops = [0.75] if len(tids) == 1 else [0.5 + 0.35 * i / (len(tids) - 1) for i in range(len(tids))]
        colours.update((tid, tuple(float(c) for c in cmap(stop)[:3])) for tid, stop in zip(tids, stops))
    return colours


def language_colours(results: ReportView) -> dict[str, tuple[float, float, float]]:
    import seaborn as sns

    languages = results.languages
    palette = sns.color_palette("colorblind", max(len(languages), 1))
    return {code: palette[i % len(palette)] for i, code in enumerate(languages)}


def text_colour(colour: tuple[float, float, float]) -> tuple[float, float, float]:
    """The tokenizer's colour, darkened enough to read as text on white."""
    return tuple(0.7 * c for c in colour)


def plain_log_ticks(axis, values: list[float]) -> None:
    """Ticks at 1-2-5 steps labelled as plain numbers ("20", not "2x10^1") on a log axis."""
    from matplotlib.ticker import FixedLocator, FuncFormatter, NullLocator

    low, high = min(values) / 1.5, max(values) * 1.5
    steps = [m * 10.0**e for e in range(-3, 7) for m in (1, 2, 5)]
    axis.set_major_locator(FixedLocator([v for v in steps if low <= v <= high]))
    axis.set_major_formatter(FuncFormatter(lambda v, _: f"{v:g}"))
    axis.set_minor_locator(NullLocator())


def colour_tick_labels(labels, colours) -> None:
    for label in labels:
        colour = colours.get(label.get_text())
        if colour is not None:
            label.set_color(text_colour(colour))

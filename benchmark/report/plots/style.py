"""How every figure looks: fonts (with a search for one that draws Japanese and Korean), seaborn's
style for the length of a `with` block, the canvas, and the fixed colours.

Colours: one fixed colour, line style and marker per family (FAMILY_COLOURS, read with the families
table), each tokenizer a shade of its family's colour (lighter for a smaller vocabulary), and one
colour per language, so a family, a tokenizer or a language looks the same in every figure.

matplotlib and seaborn are imported inside the functions, so importing this module loads neither.
"""

from __future__ import annotations

import contextlib
import io
import logging
import warnings
from collections.abc import Iterator
from dataclasses import dataclass

from benchmark.adapters.families import FAMILIES, family_info, family_rank
from benchmark.adapters.table import PRODUCTION, TRAINED

from benchmark.report.view import ReportView

# One colour per family, the same in every plot, from Paul Tol's and Okabe & Ito's colour-blind
# schemes, taken in the families table's order within each kind (adapters/families.py): adding a
# vendor or a trained family gives it the next colour, no edit here. Within a kind (the vendors'
# fixed vocabularies; the tokenizers trained here) any two are at least 10 apart in CAM02-UCS for
# normal vision and for simulated deuteranopia, protanopia and tritanopia
# (tests/report/test_style.py; Okabe & Ito's own closest pair is 11). The two kinds are drawn in
# separate panels or with their own line styles.
KIND_COLOURS = {
    # tiktoken first: OpenAI, the baseline everyone knows, near black; Z.ai's violet and MiniMax's dark red
    # were searched for the two added in the table's order, so the others keep their colours (17 from any)
    PRODUCTION: ("#333333", "#9467bd", "#99DDFF", "#CC79A7", "#228833", "#EE6677", "#510AC9", "#CCBB44", "#840000",
                 "#AA3377", "#56B4E9"),
    TRAINED: ("#332288", "#117733", "#999933", "#CC6677", "#882255", "#e6ab02", "#44AA99", "#DDCC77", "#88CCEE",
              "#AA4499"),
}
# A family past its kind's colours (a custom mix, a user's file) takes the next of these.
SPARE_COLOURS = ("#0077BB", "#EE7733", "#009988", "#994F00", "#6699CC", "#997700", "#994455", "#004488")
# Our BPE (families bpe, bpe-<mix>) solid; each library's trainer the next dashes in table order, so
# two trained families never look alike even in grey.
LIBRARY_DASHES = ("--", ":", "-.", (0, (5, 1.5, 1, 1.5, 1, 1.5)), (0, (1, 1)), (0, (8, 2)))
FAMILY_MARKERS = ("o", "s", "D", "^", "v", "P", "X", "h", "<", ">", "p", "*")
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
# A plot's PNG is cut to a palette of this many colours: flat fills, lines and anti-aliased text
# need no more, and it is a third of the bytes on the self-contained page (docs/measurements/2026-12-08-page.md).
PNG_COLOURS = 256


def palette_png(png: bytes) -> bytes:
    """`png` with its colours cut to PNG_COLOURS (Pillow's fast octree, alpha kept, no dithering, so
    the same drawing gives the same bytes)."""
    from PIL import Image

    with Image.open(io.BytesIO(png)) as image:
        cut = image.quantize(colors=PNG_COLOURS, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)
    out = io.BytesIO()
    cut.save(out, format="PNG")
    return out.getvalue()


_cjk_font_cache: list[str | None] = []


def preload_drawing() -> None:
    """Import what drawing uses and find the CJK font, in this process, once: drawing workers
    forked from it afterwards start drawing at once instead of each loading them (0.7 s apiece)."""
    import matplotlib.backends.backend_agg  # noqa: F401
    import matplotlib.figure  # noqa: F401
    import pandas  # noqa: F401
    import seaborn  # noqa: F401

    find_cjk_font()


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


@dataclass(frozen=True)
class FamilyStyle:
    colour: tuple[float, float, float]
    linestyle: str | tuple
    marker: str


def family_styles(families) -> dict[str, FamilyStyle]:
    """family -> its colour, line style and marker, from its place among its kind in the families
    table; a family the table does not hold takes a spare colour (in report order)."""
    from matplotlib.colors import to_rgb

    by_kind: dict[str, list[str]] = {}
    for entry in FAMILIES:
        by_kind.setdefault(entry.kind, []).append(entry.family)
    spare = iter(SPARE_COLOURS * 4)
    styles = {}
    for family in sorted(families, key=lambda f: (family_rank(f), f)):
        kind = family_info(family).kind
        place = by_kind.get(kind, [])
        rank = place.index(family) if family in place else len(place) + len(styles)
        colours = KIND_COLOURS.get(kind, ())
        colour = colours[rank] if family in place and rank < len(colours) else next(spare)
        libraries = [f for f in by_kind.get(TRAINED, []) if not _is_our_bpe(f)]
        if kind != TRAINED or _is_our_bpe(family):
            linestyle = "-"
        else:
            linestyle = LIBRARY_DASHES[(libraries.index(family) if family in libraries else rank) % len(LIBRARY_DASHES)]
        styles[family] = FamilyStyle(to_rgb(colour), linestyle, FAMILY_MARKERS[rank % len(FAMILY_MARKERS)])
    return styles


def _is_our_bpe(family: str) -> bool:
    return family == "bpe" or family.startswith("bpe-")


def family_style(results: ReportView, family: str) -> FamilyStyle:
    return family_styles(set(results.family.values()))[family]


def tokenizer_colours(results: ReportView) -> dict[str, tuple[float, float, float]]:
    """tokenizer id -> RGB: its family's colour, lighter for a smaller vocabulary (the largest is
    the family's colour itself, as in the legends)."""
    styles = family_styles(set(results.family.values()))
    by_family: dict[str, list[str]] = {}
    for tid in results.tokenizers:
        by_family.setdefault(results.family[tid], []).append(tid)
    colours = {}
    for family, tids in by_family.items():
        base = styles[family].colour
        for k, tid in enumerate(tids):
            # Up to 45% of the way to white for the smallest: pale shades vanish on white.
            mix = 0.45 * (len(tids) - 1 - k) / max(len(tids) - 1, 1)
            colours[tid] = tuple(float(c + (1 - c) * mix) for c in base)
    return colours


def language_colours(results: ReportView) -> dict[str, tuple[float, float, float]]:
    import seaborn as sns

    languages = results.languages
    palette = sns.color_palette("colorblind", max(len(languages), 1))
    return {code: palette[i % len(palette)] for i, code in enumerate(languages)}


def text_colour(colour: tuple[float, float, float]) -> tuple[float, float, float]:
    """The tokenizer's colour, darkened until it reads as text on white (relative luminance at most
    0.18, a contrast of 4.5:1 or more: WCAG's for small text)."""
    from seaborn.utils import relative_luminance

    colour = tuple(float(c) for c in colour)
    while relative_luminance(colour) > 0.18:
        colour = tuple(0.9 * c for c in colour)
    return colour


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

"""The fonts of index.html: the system's font stacks its rules name, and the faces it embeds so
that it draws every character it shows on any machine, one without system fonts for CJK,
Devanagari, Ethiopic, Tamil, Thai, Arabic or Hebrew too.

A page embeds faces for every character of its token examples, and for every character it shows
anywhere (a vocabulary table's `１０` or `珊`, a user's file name) beyond the Unicode blocks that
every browser's own fonts draw: Latin, Greek and Cyrillic with their marks, punctuation and
currency signs (SYSTEM_DRAWN). A page of those alone embeds nothing. The faces are named in every
font stack of the page, after the system's fonts and before the generic family, so a machine's
own fonts draw what they can and the embedded faces the rest; the token examples are set in the
embedded faces first, so they look alike on every machine.

The faces are Noto's (SIL Open Font License 1.1), read offline from two pinned PyPI packages:
manimgx-fonts (Noto Sans and Noto Sans for 19 scripts Latin faces lack) and cvttf-NotoSansCJK-Regular
(Chinese, Japanese, Korean; the plots use it too). Each character of the text goes to the first face
that has it (Noto Sans first, the CJK face last); each face used is cut down with fontTools to those
characters alone (its shaping features kept, so Devanagari conjuncts and Arabic joining still
work), at regular weight, and embedded as WOFF; faces the text does not need are not embedded at
all. Neither package has a face for Tibetan, Ol Chiki or Tifinagh: a page's text in those scripts
is left to the reader's system fonts.

fontTools is imported when a page is drawn (matplotlib depends on it).
"""

from __future__ import annotations

import base64
import io
import unicodedata
from dataclasses import dataclass
from functools import lru_cache
from html.parser import HTMLParser
from pathlib import Path

# The page's font stacks, without their generic family (sans-serif, monospace).
TEXT_FONTS = 'system-ui, -apple-system, "Segoe UI", "Noto Sans", "Noto Sans CJK JP", Roboto, Helvetica, Arial'
CODE_FONTS = 'ui-monospace, "DejaVu Sans Mono", Menlo, Consolas'
# The Unicode blocks every browser's fonts draw (DejaVu Sans, Arial, Segoe UI, Helvetica): Latin to
# Latin Extended-B, IPA, spacing and combining marks, Greek, Cyrillic and its supplement, Latin
# Extended Additional, Greek Extended, General Punctuation, Currency Symbols.
SYSTEM_DRAWN = ((0x0000, 0x052F), (0x1E00, 0x1FFF), (0x2000, 0x206F), (0x20A0, 0x20CF))
FAMILY_PREFIX = "tokencost-text-"
# Noto Sans (Latin, Greek, Cyrillic) first; then the faces of the scripts; symbols last but for CJK.
FIRST_FACES = ("NotoSans[wght].ttf",)
LAST_FACES = ("NotoSansSymbols[wght].ttf",)
LEFT_OUT = ("NotoEmoji[wght].ttf", "NotoSans-Italic[wght].ttf")


@dataclass(frozen=True)
class EmbeddedFont:
    family: str  # the CSS font-family name
    woff: bytes
    characters: str  # the characters it was cut down to

    def css(self) -> str:
        data = base64.b64encode(self.woff).decode("ascii")
        return (f'@font-face {{ font-family: "{self.family}"; font-weight: 400; '
                f'src: url(data:font/woff;base64,{data}) format("woff"); }}')


@lru_cache(maxsize=1)
def font_files() -> tuple[Path, ...]:
    """The faces in the order a character is looked up; those whose package is missing are left out."""
    files: list[Path] = []
    try:
        import manimgx_fonts

        folder = Path(manimgx_fonts.__file__).parent
        found = sorted(path.name for path in folder.glob("*.ttf") if path.name not in LEFT_OUT)
        names = [*FIRST_FACES, *(n for n in found if n not in FIRST_FACES + LAST_FACES), *LAST_FACES]
        files += [folder / name for name in names if (folder / name).is_file()]
    except ImportError:
        pass
    try:
        from cvttf_NotoSansCJK_Regular import get_TTF_path

        files.append(Path(get_TTF_path()))
    except ImportError:
        pass
    return tuple(files)


@lru_cache(maxsize=None)
def _cmap(path: Path) -> frozenset[int]:
    from fontTools.ttLib import TTFont

    with TTFont(path, lazy=True) as font:
        return frozenset(font.getBestCmap())


def _drawn(text: str) -> list[str]:
    """The characters a face must draw: not spaces, controls or format characters (joiners, marks of
    direction) nor variation selectors (they pick a form of the character before them), which a
    browser handles itself."""
    return sorted({ch for ch in text if unicodedata.category(ch)[0] not in "ZC" and not _is_selector(ch)})


def _is_selector(ch: str) -> bool:
    return 0xFE00 <= ord(ch) <= 0xFE0F or 0xE0100 <= ord(ch) <= 0xE01EF


def beyond_system_fonts(text: str) -> str:
    """The characters of `text` a face must draw that lie outside SYSTEM_DRAWN."""
    return "".join(ch for ch in _drawn(text) if not any(low <= ord(ch) <= high for low, high in SYSTEM_DRAWN))


class _Text(HTMLParser):
    SHOWN_ATTRIBUTES = ("alt", "title", "placeholder")

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self.hidden = 0  # inside <style> or <script>

    def handle_starttag(self, tag, attrs):
        self.hidden += tag in ("style", "script")
        self.parts += [value for name, value in attrs if name in self.SHOWN_ATTRIBUTES and value]

    def handle_endtag(self, tag):
        self.hidden -= tag in ("style", "script")

    def handle_data(self, data):
        if not self.hidden:
            self.parts.append(data)


def page_text(page: str) -> str:
    """The text a reader of the HTML `page` sees: its text outside <style> and <script>, and its
    alt, title and placeholder attributes."""
    parser = _Text()
    parser.feed(page)
    parser.close()
    return "".join(parser.parts)


def _subset(path: Path, characters: str) -> bytes:
    from fontTools import subset
    from fontTools.ttLib import TTFont

    font = TTFont(path, recalcTimestamp=False)
    options = subset.Options()
    options.layout_features = ["*"]  # shaping: conjuncts, joining forms, marks
    options.flavor = "woff"
    options.name_IDs = ["*"]  # the licence and the font's own name stay with it
    subsetter = subset.Subsetter(options)
    subsetter.populate(text=characters)
    subsetter.subset(font)
    if "fvar" in font:  # one weight is enough for the examples: drop the variations
        from fontTools.varLib.instancer import instantiateVariableFont

        axes = {axis.axisTag: (400 if axis.axisTag == "wght" else axis.defaultValue) for axis in font["fvar"].axes}
        font = instantiateVariableFont(font, axes)
    font.flavor = "woff"
    out = io.BytesIO()
    font.save(out)
    return out.getvalue()


def embedded_fonts(text: str) -> list[EmbeddedFont]:
    """The faces `text` needs, each cut down to the characters it draws, in lookup order."""
    left = _drawn(text)
    fonts = []
    for path in font_files():
        if not left:
            break
        cmap = _cmap(path)
        mine = [ch for ch in left if ord(ch) in cmap]
        if not mine:
            continue
        left = [ch for ch in left if ord(ch) not in cmap]
        chars = "".join(mine)
        fonts.append(EmbeddedFont(f"{FAMILY_PREFIX}{len(fonts)}", _subset(path, chars), chars))
    return fonts


def font_css(fonts: list[EmbeddedFont], stacks: dict[str, tuple[str, str]]) -> str:
    """The @font-face rules, and for each selector its stack (before, after) with the embedded
    faces between the two: ("", "system-ui, sans-serif") sets them first, (TEXT_FONTS, "sans-serif")
    after the system's fonts."""
    if not fonts:
        return ""
    families = ", ".join(f'"{font.family}"' for font in fonts)
    rules = [f"{selector} {{ font-family: {', '.join(part for part in (before, families, after) if part)}; }}"
             for selector, (before, after) in stacks.items()]
    return "\n".join([*(font.css() for font in fonts), *rules]) + "\n"

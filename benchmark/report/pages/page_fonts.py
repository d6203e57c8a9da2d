"""The fonts index.html embeds, so that it draws every script its token examples show on any
machine, one without system fonts for Devanagari, Ethiopic, Tamil, Thai, Arabic or Hebrew too.

The faces are Noto's (SIL Open Font License 1.1), read offline from two pinned PyPI packages:
manimgx-fonts (Noto Sans and Noto Sans for 19 scripts Latin faces lack) and cvttf-NotoSansCJK-Regular
(Chinese, Japanese, Korean; the plots use it too). Each character of the text goes to the first face
that has it (Noto Sans first, the CJK face last); each face used is cut down with fontTools to those
characters alone (its shaping features kept, so Devanagari conjuncts and Arabic joining still
work), at regular weight, and embedded as WOFF. A six-language report embeds about 40 kB; faces
the text does not need are not embedded at all.

fontTools is imported when a page is drawn (matplotlib depends on it).
"""

from __future__ import annotations

import base64
import io
import unicodedata
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

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
    direction), which a browser handles itself."""
    return sorted({ch for ch in text if unicodedata.category(ch)[0] not in "ZC"})


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


def font_css(fonts: list[EmbeddedFont], selector: str) -> str:
    """The @font-face rules and `selector` set in the embedded faces first, then the system's."""
    if not fonts:
        return ""
    families = ", ".join(f'"{font.family}"' for font in fonts)
    return "\n".join(font.css() for font in fonts) + f"\n{selector} {{ font-family: {families}, system-ui, sans-serif; }}\n"

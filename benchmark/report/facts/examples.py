"""The token-boundary examples: which tokenizers and languages each report shows, how a token is
written so that its spaces show, and each language's direction and `lang` tag from the run record.

Plain Python (no matplotlib): the PNG (plots/token_boundaries.py), the HTML section
(pages/token_examples.py) and the captions (plots/catalogue.py) all choose from here, so the
caption names the languages drawn.

The PNG is drawn by matplotlib, which lays glyphs out one after the other: no bidirectional
ordering and no shaping (Arabic letters would stand unjoined, Devanagari conjuncts fall apart), and
fonts only for Latin, Greek, Cyrillic, Armenian, Georgian and CJK. So it shows at most
`MAX_PNG_LANGUAGES` languages in scripts it draws correctly; the HTML page shows every language,
since a browser orders, shapes and finds fonts.
"""

from __future__ import annotations

import re

from benchmark.report.view import ReportView

MAX_PNG_LANGUAGES = 6  # the reference and the first five others: a PNG of about a screen and a half
# ISO 15924 scripts matplotlib draws correctly with the plots' fonts (DejaVu Sans, Noto Sans CJK):
# written left to right, one glyph per character, no shaping.
PNG_SCRIPTS = frozenset({"Latn", "Cyrl", "Grek", "Armn", "Geor", "Hans", "Hant", "Jpan", "Hang"})

_BYTES_TOKEN = re.compile(r"<[0-9a-f]{2}(?: [0-9a-f]{2})*>")


def is_bytes_token(text: str) -> bool:
    """A token shown as its bytes ("<e3 81>"): part of a character, not text."""
    return _BYTES_TOKEN.fullmatch(text) is not None


def visible_token(text: str) -> str:
    """The token with its invisible characters made visible: a space is what separates a token from
    its neighbour. A token shown as its bytes ("<e3 81>") keeps its spaces between the bytes."""
    if is_bytes_token(text):
        return text
    text = text.replace(" ", "\u2423").replace("\n", "\u23ce").replace("\t", "\u2192")
    return text if text else "\u2205"


def example_tokenizers(results: ReportView) -> list[str]:
    """The main tokenizers that split at least one example sentence."""
    examples = results.record.examples
    return [tid for tid in results.headline if any(tid in examples.get(c, {}) for c in examples)]


def example_languages(results: ReportView) -> list[str]:
    """Every language with an example sentence, the reference first, then in run order."""
    examples = results.record.examples
    return [code for code in results.languages if examples.get(code)]


def png_drawable(results: ReportView, code: str) -> bool:
    """Whether matplotlib draws the language's script correctly; a code whose script the record does
    not give (a user's `jpn.txt`, an older results file) is drawn, as before scripts were recorded."""
    script = results.record.language_scripts.get(code)
    return code not in results.record.right_to_left and (script is None or script in PNG_SCRIPTS)


def png_languages(results: ReportView) -> list[str]:
    """The languages of the token-boundary PNG, in run order: the reference, and of the others that
    matplotlib draws correctly, when more than fit (`MAX_PNG_LANGUAGES` in all), one per script first,
    the costliest first (mean premium over the main tokenizers), then the next costliest."""
    drawable = [code for code in example_languages(results) if png_drawable(results, code)]
    if len(drawable) <= MAX_PNG_LANGUAGES:
        return drawable
    reference, others = drawable[0], drawable[1:]
    premiums: dict[str, list[float]] = {}
    for row in results.rows:
        if row.ok and row.premium is not None and row.tokenizer in results.headline:
            premiums.setdefault(row.language, []).append(row.premium)
    cost = {code: sum(premiums.get(code, [0.0])) / len(premiums.get(code, [0.0])) for code in others}
    by_cost = sorted(others, key=lambda code: (-cost[code], others.index(code)))
    scripts = results.record.language_scripts
    first_of_script = list({scripts.get(code, code): code for code in reversed(by_cost)}.values())[::-1]
    chosen = set(list(dict.fromkeys(first_of_script + by_cost))[: MAX_PNG_LANGUAGES - 1])
    return [reference] + [code for code in others if code in chosen]


def png_leaves_out(results: ReportView) -> list[str]:
    """The languages with an example that the PNG does not show (the HTML page shows them)."""
    shown = set(png_languages(results))
    return [code for code in example_languages(results) if code not in shown]


def is_right_to_left(results: ReportView, code: str) -> bool:
    return code in results.record.right_to_left


def lang_tag(results: ReportView, code: str) -> str:
    """An HTML `lang` value for the language: 'heb_Hebr' -> 'heb-Hebr' (language and script
    subtags, as BCP 47 writes them); a user's code as it is, '_' read as '-'."""
    language, _, script = code.partition("_")
    script = results.record.language_scripts.get(code, script)
    return f"{language}-{script}" if script else language.replace("_", "-")

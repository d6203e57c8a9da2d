"""The HTML page's token examples: the example sentence of the languages the token-boundary PNG
cannot draw (right-to-left scripts, scripts that need shaping), as text the browser lays out.

Each language's block carries its `lang` and `dir` (facts/examples.py), so a browser orders Arabic and
Hebrew right to left, shapes Devanagari and picks a font; tokens are told apart by alternating
backgrounds, not by gaps, so letters joined across a token boundary stay joined. A run of many
languages shows one language per script first, MAX_HTML_LANGUAGES in all.
"""

from __future__ import annotations

import html

from benchmark.corpora import one_per_script, script_of
from benchmark.report.facts.examples import (
    example_tokenizers,
    is_bytes_token,
    is_right_to_left,
    lang_tag,
    png_leaves_out,
)
from benchmark.report.naming import language_label
from benchmark.report.pages.page_fonts import CODE_FONTS
from benchmark.report.view import ReportView

MAX_HTML_LANGUAGES = 30  # FLORES-200 has 29 scripts: each can show one language

CSS = """
.tokex { margin: 10px 0 18px; }
.tokex h4 { margin: 14px 0 4px; font-size: 0.95rem; }
.tokrow { display: grid; grid-template-columns: 250px 1fr; gap: 10px; padding: 2px 0; align-items: baseline; }
.tokrow .tid { font: 0.8rem CODE_FONTS, monospace; color: var(--muted); }
.toks { font-size: 1.05rem; line-height: 1.9; }
.toks span { padding: 1px 0; border-radius: 2px; }
.toks span:nth-child(odd) { background: #dbe8f6; }
.toks span:nth-child(even) { background: #f6e3c8; }
.toks span.bytes { font: 0.75rem ui-monospace, monospace; color: #7a4b00; }
""".replace("CODE_FONTS", CODE_FONTS)


def html_languages(results: ReportView, left_out: list[str] | None = None) -> list[str]:
    """The languages shown as text: those the PNG leaves out (`left_out`, if the caller has them),
    one per script first (in run order), then the next in run order, MAX_HTML_LANGUAGES at most."""
    scripts = results.record.language_scripts
    left_out = png_leaves_out(results) if left_out is None else left_out
    return one_per_script(left_out, MAX_HTML_LANGUAGES, script=lambda code: scripts.get(code) or script_of(code))


def _token(text: str) -> str:
    if is_bytes_token(text):
        return f'<span class="bytes" dir="ltr">{html.escape(text)}</span>'
    # Spaces stay spaces (their background shows them), so the sentence reads as it is written.
    return f"<span>{html.escape(text.replace(chr(10), chr(0x23CE)))}</span>"


def token_examples_text(results: ReportView) -> str:
    """Every token the blocks show, as one text: what the page's embedded fonts must draw."""
    languages = html_languages(results)
    tokenizers = example_tokenizers(results)
    return "".join(token for code in languages for tid in tokenizers
                   for token in results.record.examples.get(code, {}).get(tid) or ())


def token_examples_html(results: ReportView) -> str:
    """The blocks, or "" when every example language is in the PNG."""
    left_out = png_leaves_out(results)
    languages = html_languages(results, left_out)
    tokenizers = example_tokenizers(results)
    if not languages or not tokenizers:
        return ""
    esc = html.escape
    more = len(left_out) - len(languages)
    intro = ("The sentence as text, for the languages the figure above cannot draw (right-to-left scripts and "
             "scripts whose letters join or combine): each token on its own background, in the language's own "
             "direction." + (f" One language per script; {more} more languages' examples are in results.json "
                             "(record.examples)." if more > 0 else ""))
    blocks = [f'<p class="note">{esc(intro)}</p>']
    for code in languages:
        direction = "rtl" if is_right_to_left(results, code) else "ltr"
        rows = []
        for tid in tokenizers:
            tokens = results.record.examples.get(code, {}).get(tid)
            if tokens is None:
                continue
            spans = "".join(_token(t) for t in tokens)
            rows.append(f'<div class="tokrow"><span class="tid">{esc(tid)} ({len(tokens)} tokens)</span>'
                        f'<span class="toks" lang="{esc(lang_tag(results, code))}" dir="{direction}">{spans}</span></div>')
        blocks.append(f'<div class="tokex"><h4>{esc(language_label(results, code))}</h4>' + "".join(rows) + "</div>")
    return "\n".join(blocks)

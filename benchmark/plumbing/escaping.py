"""Text from outside (file and folder names, tokens, corpus lines, results.json fields) made inert
wherever it is shown: in Markdown (and the HTML a Markdown renderer lets through), in a CSV cell a
spreadsheet would run as a formula, on a terminal that would obey its control sequences, and in
the JSON a page carries for its scripts.

Each function is the identity on ordinary text (`tiktoken/cl100k_base`, `eng_Latn`, a date), so
ids stay ids; only the characters that could make markup, a formula or a terminal command change.
"""

from __future__ import annotations

import html
import json
import re
import unicodedata

# What opens a Markdown or HTML construct inside a line: each such character becomes a numeric
# character reference, which CommonMark and GitHub show as the character and never parse (one also
# survives the `\\|` a table cell adds, where a backslash escape would not). `<` and `&` only where
# a tag, comment, autolink or entity could start (so "<= 6247" reads as it is); `_` only at a
# word's edge (inside a word it never makes emphasis, so `cl100k_base` stays); `://` and `www.`
# are broken so that no autolink is made.
_MARKDOWN_ACTIVE = re.compile(
    r"[\\`*\[\]|~]|<(?=[A-Za-z/!?])|&(?=[#A-Za-z0-9])|(?<![^\W_])_|_(?![^\W_])|:(?=//)|(?<=www)\."
)
# What opens a block when it starts a line: a list item, a quote, a heading, a setext underline.
_LINE_START = re.compile(r"^(?:[-+*>](?=[ \t]|$)|>|#{1,6}(?=[ \t]|$)|=+[ \t]*$|-+[ \t]*$)|^\d{1,9}([.)])(?=[ \t]|$)")
_LINE_BREAKS = re.compile(r"[\r\n\u2028\u2029\x0b\x0c\x85]")


# What a terminal obeys or what reorders the text after it, in a file a reader may `cat` or a page a
# browser lays out: the C0 and C1 controls but tab and newline, DEL, and the bidirectional marks,
# embeddings, overrides and isolates. Zero-width joiners and spaces stay: scripts write with them.
_CONTROLS = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")


def visible_controls(text: str) -> str:
    """`text` with its control characters and bidirectional controls shown as escapes (\\x1b,
    \\u202e), as `terminal_text` shows them, for a Markdown or HTML page; the rest as it is.

    >>> visible_controls("name\\x1b[2J\\u202eevil\\tzwnj\\u200c")
    'name\\\\x1b[2J\\\\u202eevil\\tzwnj\\u200c'
    """
    return _CONTROLS.sub(lambda m: _escaped(m.group()), text)


def _reference(char: str) -> str:
    return f"&#{ord(char)};"


def markdown_text(text: str) -> str:
    """`text` as literal text in Markdown, whatever it holds: no element, attribute, link or
    emphasis can come of it, line breaks become spaces (a new line could start a block), and
    control characters are shown (`visible_controls`).

    >>> markdown_text("file/<img src=x onerror=alert(7)>.json")
    'file/&#60;img src=x onerror=alert(7)>.json'
    >>> markdown_text("tiktoken/cl100k_base")
    'tiktoken/cl100k_base'
    """
    text = visible_controls(_LINE_BREAKS.sub(" ", text))  # the escapes' backslashes are then made literal
    text = _MARKDOWN_ACTIVE.sub(lambda m: _reference(m.group()), text)
    match = _LINE_START.match(text)  # the text may begin a line (a list item, a table cell)
    if match:
        at = match.start(1) if match.group(1) else 0
        text = text[:at] + _reference(text[at]) + text[at + 1:]
    return text


# OWASP's rule for CSV injection: a cell starting with one of these is a formula to a spreadsheet.
_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def csv_cell(value):
    """A CSV cell that no spreadsheet runs as a formula: a text starting with = + - @ (or a tab,
    a carriage return) gets a leading apostrophe; numbers and other values pass unchanged.

    >>> csv_cell("=HYPERLINK(\\"http://x\\")"), csv_cell(-1.5), csv_cell("eng_Latn")
    ('\\'=HYPERLINK("http://x")', -1.5, 'eng_Latn')
    """
    if isinstance(value, str) and value.startswith(_FORMULA_START):
        return "'" + value
    return value


def terminal_text(text: str) -> str:
    """`text` safe to print: control characters (ESC, BEL, C1 controls), bidirectional overrides
    and other format characters are shown as escapes (\\x1b, \\u202e), so no terminal obeys them
    and nothing printed after them is reordered or hidden. Ordinary text, accents and CJK pass.

    >>> terminal_text("a\\x1b]0;owned\\x07b \\u202eevil")
    'a\\\\x1b]0;owned\\\\x07b \\\\u202eevil'
    """
    if text.isprintable():
        return text
    return "".join(char if char.isprintable() or char == " " else _escaped(char) for char in text)


def _escaped(char: str) -> str:
    code = ord(char)
    if unicodedata.category(char) == "Zs":
        return char  # a space of another width is shown as a space
    if code < 0x100:
        return f"\\x{code:02x}"
    return f"\\u{code:04x}" if code < 0x10000 else f"\\U{code:08x}"


def json_script(element_id: str, data, *, sort_keys: bool = False, allow_nan: bool = True) -> str:
    """`data` as a page's `<script type="application/json" id=...>` element, compact; '<', '>' and
    '&' are JSON escapes, so no name in it can close the element or open another."""
    text = json.dumps(data, ensure_ascii=False, sort_keys=sort_keys, separators=(",", ":"), allow_nan=allow_nan)
    text = text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
    return f'<script type="application/json" id="{html.escape(element_id)}">{text}</script>'

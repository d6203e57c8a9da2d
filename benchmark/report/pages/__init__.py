"""The two pages: README.md and index.html, each laid out from the same sections, tables and
plots, and the parts only a page has.

    sections.py          the sections in reading order: title, intro, plots (from the catalogue), tables
    by_language_section.py  the section a report leads with: what differs by language (vendors' order,
                         spread, the default shortlist's cost)
    decision_section.py  the section after it: the cheapest and the roomiest model per language
    markdown.py          README.md
    escaped.py           the results with every outside text escaped, for README.md
    html.py              index.html, one self-contained file
    filter_box.py        index.html's box that narrows the tables to a language or a tokenizer
    table_controls.py    index.html's selects by script, family, tier and tokenizer, and paging of long tables
    language_data.py     index.html's per-language attributes (name, script) as one JSON block
    page_state.py        index.html's state (filters, base, pasted text's language) in the URL's fragment
    base_switch.py       index.html's "premium over" switch: every per-language premium over another base
                         the run computed, from one compact JSON block
    paste_box.py         index.html's "Paste your text" box: the reader's text estimated from the calibration
                         table on every production tokenizer and priced on the shortlist, in the browser
    token_examples.py    index.html's token examples as text, for scripts a PNG cannot shape
    page_fonts.py        the font faces index.html embeds, cut down to the characters it shows
"""

"""What the rows say, as figures and in words: plain Python over a `ReportView` (no pandas, no
matplotlib), so a test checks a sentence or a figure against the rows, and the tables, plots and
pages below read the same figures.

    analysis.py       figures derived from the rows: most expensive language, where bytes per token
                      stops improving, fewest tokens per language, speed ranking, lossy rows
    compare.py        figures that compare models: each language's range of tokens over the
                      production models (fewest, most, the spread), the training mixes, Gini summaries
    by_language.py    the vendors' current tokenizers per language: fewest and most tokens, their
                      order against the order over all languages, the reversals the sample tells
    groups.py         each language's family and resource tier, the group summaries by kind
    decomposition.py  each language's premium split into its byte premium and the tokenizer's factor
    domains.py        the premium per domain: the tokenizers and domains shown, where it moves most
    code.py           the code sample: its tokenizers, language names, prose beside it, cheapest and dearest
    hangul_first.py   the Korean question: Hangul syllables first against frequency and parity BPE
    examples.py       which tokenizers and languages the token-boundary examples show, and how
    findings.py       the findings, worded from the figures above
    methods.py        the run summary and how the figures were measured, from the run record
"""

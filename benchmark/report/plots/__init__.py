"""The plots: each declared once in the catalogue, drawn by a function that takes a `ReportView`
and returns a matplotlib `Figure` (or None when the run has nothing to draw), rendered to PNG and
SVG bytes. matplotlib and seaborn load only when a plot is drawn.

    catalogue.py         every plot: file name, title, caption, drawing function, section, its form
                         for many languages
    style.py             fonts, seaborn's style, the canvas, the fixed colours
    measurements.py      tokens per sentence, premium, bytes per token, throughput, training time,
                         round trips
    compare.py           production cost, fairness (Gini), what the training mix does
    lorenz.py            Lorenz curves beside the Gini: share of tokens against share of languages
    decomposition.py     the premium decomposed into byte premium and tokenizer's factor
    domains.py           the premium per kind of text, per tokenizer, a panel per language
    code.py              source code: tokens per kilobyte per tokenizer, a hue per programming language
    hangul_first.py      Korean against vocabulary size, a line per family
    many_languages.py    the layouts past view.MANY_LANGUAGES languages (heatmaps, bands)
    token_boundaries.py  the token-boundary PNG
    render.py            every spec drawn to PNG and SVG bytes, one plot per worker process
    reuse.py             each plot's digest (its data, code and style), and the previous report's
                         plots of the same digest, taken instead of drawn again
"""

"""The tables README.md and index.html show, every number rounded for reading (pandas), and
results.csv at full precision. Each table is a `Table` of plain strings, so both pages show the
same figures; the figures come from facts/.

    table.py          the `Table`, the long-form frame of the rows and its pivot into a grid
    measurements.py   results.csv; tokens per sentence, premium, bytes per token, throughput and
                      round trips per tokenizer and language; the tokenizers; all measurements
    compare.py        what each language costs on the production models, the fewest and the most
                      tokens per language, the training mixes, fairness, vocabulary health, words
                      and characters
    decision.py       the leading section's tables: cheapest model in money, roomiest context,
                      money per tokenizer (from benchmark.pricing)
    by_language.py    what differs by language: the vendors' order and spread, the shortlist's cost
    groups.py         per language family and per resource tier: premium with interval, Gini
    scripts.py        per writing system: the median premium, and its byte premium and factor
    hangul_first.py   the Korean question, one line per family and size
    domains.py        the premium per kind of text, with its interval and how far the domain moves it
    code.py           source code: tokens per kilobyte and per line per programming language
    calibration.py    estimates without a tokenizer: tokens per character, how far characters / 4
                      and the fitted ratios miss
    calibration_domains.py  the same per domain, and which domain's ratio is closest per kind of text
"""

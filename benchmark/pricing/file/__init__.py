"""The `cost --file` answer: a user's own files counted exactly (measure/own_text.py), priced on
every model and set against its window; with a language, the reference language's estimate; with
a language or a domain, the calibration's estimate without a tokenizer.

    figures.py    its figures as data: each model's cost and window fit, the leaders, the premiums
    answer.py     the answer: counts the files, then writes the figures as text
    as_json.py    the same figures as JSON (`cost --file ... --json`)
    estimates.py  the estimate without a tokenizer from a calibration (`--domain`), beside the count
"""

"""The `cost LANG` answer (and the report's decision tables): for one language or several, each
production tokenizer with its models, the cheapest and the roomiest, then the leaders overall.

    decision.py   the cheapest and the roomiest model, and the ones the sample cannot tell apart
    shortlist.py  `cost --models`: the names typed, resolved to models, each counted or said why not
    answer.py     the answer as data
    text.py       that answer as text
    as_json.py    that answer as JSON (`cost --json`; the schema is in docs/usage.md)
"""

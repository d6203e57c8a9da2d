"""Money and context from saved token counts: what a language's text costs on each model, and how
much of it fits in each model's window. Tokens stay the measured figure; prices change, counts do not.

Data flows one way: results.json (counts) + the models of each tokenizer (the run record) + each
model's list price and window (the pinned price database, or the user's `--prices FILE`) ->
figures -> the answer (the `cost` verb) and the report's first section. Nothing here measures.

    database.py   the pinned price database (genai-prices), read offline, as of a date
    listings.py   which database entry prices each model (listings.csv), kept in the cache
    prices_file.py  the user's prices file, read exactly or refused
    book.py       models per tokenizer and their listings, for one results file
    money.py      money and context per language and model (pure arithmetic on the counts)
    decision.py   the cheapest and the roomiest model, and the ones the sample cannot tell apart
    formats.py    how dollars and capacities read
    shortlist.py  `cost --models`: the names typed, resolved to models, each counted or said why not
    answer.py     the `cost` verb's answer as data, for one language or several
    answer_text.py  that answer as text
    answer_json.py  that answer as JSON (`cost --json`; the schema is in docs/usage.md)
    own_cost.py   the `cost --file` answer: a user's files counted (measure/own_text.py), priced, fitted
    own_figures.py  its figures as data (cost, window fit, premiums); own_cost_json.py  as JSON (--json)
"""

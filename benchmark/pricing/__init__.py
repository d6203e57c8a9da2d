"""Money and context from saved token counts: what a language's text costs on each model, and how
much of it fits in each model's window. Tokens stay the measured figure; prices change, counts do not.

Data flows one way: results.json (counts) + the models of each tokenizer (the run record) + each
model's list price and window (the pinned price database, or the user's `--prices FILE`) ->
figures -> the answer (the `cost` verb) and the report's first section. Nothing here measures.

    prices/       where a price comes from: the database, its entry per model, the user's file, the book
    language/     the `cost LANG` answer: per language, each tokenizer's models, cheapest and roomiest
    file/         the `cost --file` answer: a user's own files, counted exactly, priced and fitted
    money.py      money and context per language and model (pure arithmetic on the counts), for both
                  answers and the report
    formats.py    how dollars, capacities and intervals read, for both answers and the report
"""

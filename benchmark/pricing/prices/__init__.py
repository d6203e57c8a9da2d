"""Where every price and window comes from; nothing here knows of an answer.

    database.py     the pinned price database (genai-prices), read offline, as of a date
    listings.py     which database entry prices each model (listings.csv), kept in the cache
    user_prices.py  the user's `--prices FILE`, read exactly or refused
    book.py         models per tokenizer and their listings, for one results file
"""

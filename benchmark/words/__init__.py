"""Words of a text, for fertility and split words: `uax29.py` finds UAX #29 word boundaries,
`segmenters.py` chooses a segmenter per language (MeCab for Japanese), `segmenters_extra.py` holds
the optional segmenters of other languages written without spaces."""

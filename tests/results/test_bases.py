"""results/bases.py's `BasePremiums` as JSON data and back: what it writes it reads, the same."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from benchmark.results.bases import BasePremiums

CODES = st.sampled_from(["eng_Latn", "hin_Deva", "zho_Hans", "arb_Arab", "swh_Latn", "yor_Latn"])
TOKENIZERS = st.sampled_from(["tiktoken/o200k_base", "llama/llama4", "bpe/balanced-1024"])
POSITIVE = st.floats(min_value=1e-6, max_value=1e6, allow_nan=False, allow_infinity=False)


@st.composite
def base_premiums(draw) -> BasePremiums:
    bases = draw(st.lists(CODES, min_size=1, max_size=4, unique=True))
    others = bases[1:]

    def interval(size):
        values = sorted(draw(st.lists(POSITIVE, min_size=2, max_size=2)))
        return values if size == 2 else [draw(POSITIVE), *values]

    premium_ci = {base: draw(st.dictionaries(TOKENIZERS, st.dictionaries(CODES, st.builds(lambda: interval(2)),
                                                                          max_size=3), max_size=2))
                  for base in draw(st.lists(st.sampled_from(others), unique=True))} if others else {}
    mean = {base: {t: interval(3) for t in draw(st.lists(TOKENIZERS, unique=True, max_size=2))}
            for base in draw(st.lists(st.sampled_from(others), unique=True))} if others else {}
    return BasePremiums(tuple(bases), bases[0], premium_ci, mean)


@given(base_premiums())
def test_json_round_trip_gives_the_same_premiums(found):
    again = BasePremiums.from_dict(json.loads(json.dumps(found.to_dict())))
    assert again == found
    assert again.to_dict() == found.to_dict()


@pytest.mark.parametrize("bad", [
    {"bases": "eng_Latn"},
    {"bases": ["eng_Latn", "eng_Latn"], "reference": "eng_Latn"},
    {"bases": ["eng_Latn", "hin_Deva"], "reference": "eng_Latn", "premium_ci": {"hin_Deva": {"t": {"eng_Latn": [-1, 1]}}}},
    {"bases": ["eng_Latn", "hin_Deva"], "reference": "eng_Latn", "mean_premium": {"hin_Deva": {"t": [1.0, 2.0]}}},
    {"bases": ["eng_Latn", "hin_Deva"], "reference": "eng_Latn", "premium_ci": {"hin_Deva": ["t"]}},
    {"bases": ["eng_Latn", "hin_Deva"], "reference": 3},
])
def test_malformed_data_is_a_value_error_naming_the_part(bad):
    with pytest.raises(ValueError, match="bases|premium_ci|mean_premium"):
        BasePremiums.from_dict(bad)

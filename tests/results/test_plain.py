"""Typed values as JSON data and back (benchmark/results/plain.py): what the results cache keeps
reads back equal, through json, and data of another shape is a RecordError, never a wrong value."""

from __future__ import annotations

import json
from array import array

import pytest
from hypothesis import given
from hypothesis import strategies as st

from benchmark.measure.counting import Counts
from benchmark.measure.id_counts import IdCounts
from benchmark.measure.timing import ThroughputResult
from benchmark.measure.timing_reuse import TimedEntry
from benchmark.results.plain import RecordError, from_plain, to_plain
from benchmark.words.segmenters import LanguageWords

WHOLE = st.integers(min_value=0, max_value=2**31 - 1)
SECONDS = st.floats(min_value=0, max_value=1e6, allow_nan=False)
COUNTS = st.builds(
    Counts, tokens_per_line=st.lists(WHOLE), n_roundtrip=WHOLE,
    token_counts=st.dictionaries(WHOLE, st.integers(1, 10**9)).map(
        lambda found: IdCounts(array("q", found), array("q", found.values()))), n_unk=st.none() | WHOLE,
    n_words=st.none() | WHOLE, words_per_line=st.none() | st.lists(WHOLE),
    renyi_efficiency_ci=st.none() | st.tuples(SECONDS, SECONDS))
WORDS = st.builds(LanguageWords, segmenter=st.text(), version=st.none() | st.text(), note=st.none() | st.text(),
                  spans=st.none() | st.lists(st.lists(WHOLE).map(lambda items: array("i", items))).map(tuple))
TIMED = st.builds(TimedEntry, measured_on=st.text(), timed=st.dictionaries(st.text(), st.builds(
    ThroughputResult, repeat_seconds=st.lists(SECONDS).map(tuple), median_seconds=SECONDS, n_bytes=WHOLE,
    n_tokens=WHOLE, yardstick_seconds=st.lists(SECONDS).map(tuple))))


@given(value=st.one_of(COUNTS, WORDS, TIMED))
def test_what_the_cache_keeps_reads_back_equal_through_json(value):
    data = json.loads(json.dumps(to_plain(value), allow_nan=False))
    back = from_plain(type(value), data, "entry")
    assert back == value and type(back) is type(value)
    if isinstance(value, Counts):  # in its own order: a float summed over it depends on the order
        assert back.token_counts.ids.tolist() == value.token_counts.ids.tolist()
    if isinstance(value, LanguageWords) and value.spans:
        assert all(type(flat) is array and flat.typecode == "i" for flat in back.spans)


@pytest.mark.parametrize("field, data", [
    ("tokens_per_line", [1, True]),  # a bool is not a count
    ("tokens_per_line", [1, 2.0]),
    ("tokens_per_line", "12"),
    ("token_counts", {"keys": [1, 2], "counts": [3]}),
    ("token_counts", {"1": 3}),
    ("n_unk", "0"),
    ("renyi_efficiency_ci", [0.1, float("inf")]),
])
def test_a_field_of_another_shape_is_a_record_error(field, data):
    plain = to_plain(Counts(tokens_per_line=[1, 2], token_counts=IdCounts.of_ids([5, 5])))
    with pytest.raises(RecordError, match="entry"):
        from_plain(Counts, {**plain, field: data}, "entry")


@pytest.mark.parametrize("change", [{"typecode": "d"}, {"itemsize": 8}, {"base64": "not base64!"},
                                    {"base64": "AAA="}, {"extra": 1}])
def test_an_array_of_another_kind_or_length_is_a_record_error(change):
    plain = to_plain(array("i", [0, 3, 4, 9]))
    with pytest.raises(RecordError):
        from_plain(array, {**plain, **change}, "spans")

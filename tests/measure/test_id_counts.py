"""Token id counts (benchmark/measure/id_counts.py) mean what a Counter of the ids means, in the same
order: the order is what makes a float summed over them (the Rényi efficiency) come out the same."""

from __future__ import annotations

from array import array
from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from benchmark.measure.id_counts import IdCounts
from benchmark.results import metrics
from benchmark.results.plain import from_plain, to_plain

IDS = st.lists(st.integers(min_value=0, max_value=300_000), max_size=60)


def as_pairs(counts: IdCounts) -> list[tuple[int, int]]:
    return list(zip(counts.ids.tolist(), counts.values()))


@given(first=IDS, second=IDS, third=IDS)
def test_counts_add_and_pool_as_a_counter_does_in_its_order(first, second, third):
    counter = Counter(first) + Counter(second)
    assert as_pairs(IdCounts.of_ids(first) + IdCounts.of_ids(second)) == list(counter.items())
    pooled = Counter()
    for part in (first, second, third):
        pooled.update(Counter(part))
    found = IdCounts.pooled(IdCounts.of_ids(part) for part in (first, second, third))
    assert as_pairs(found) == list(pooled.items())
    assert len(found) == len(pooled)
    # the same float to the last digit, which a sorted order would not promise
    assert metrics.renyi_entropy(found.values()) == metrics.renyi_entropy(pooled.values())


@given(ids=IDS, asked=st.sets(st.integers(min_value=0, max_value=300_000), max_size=8))
def test_the_tallies_of_some_ids_are_a_counters(ids, asked):
    counter = Counter(ids)
    counts = IdCounts.of_ids(ids)
    assert counts.total_of(asked) == sum(counter[i] for i in asked)
    for token_id in asked | set(ids[:3]):
        assert counts.count_of(token_id) == counter[token_id]


def test_nothing_counted_is_empty_everywhere():
    empty = IdCounts.of_ids([])
    assert len(empty) == 0 and empty.values() == [] and empty.total_of({1, 2}) == 0 and empty.count_of(1) == 0
    assert IdCounts.pooled([]) == empty and empty + IdCounts.of_ids([4]) == IdCounts.of_ids([4])


def test_arrays_that_do_not_pair_up_are_refused_made_or_read():
    with pytest.raises(ValueError, match="same length"):
        IdCounts(array("q", [1, 2]), array("q", [3]))
    # read from a results cache's entry, a ValueError is a miss there (computed again)
    plain = to_plain(IdCounts.of_ids([1, 2])) | {"counts": to_plain(array("q", [3]))}
    with pytest.raises(ValueError, match="same length"):
        from_plain(IdCounts, plain, "entry")
    with pytest.raises(ValueError, match="8-byte"):
        IdCounts(array("i", [1]), array("i", [3]))

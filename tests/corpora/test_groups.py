"""The language groups file (benchmark/corpora/groups.py): the carried CSV read whole, its pin, and
a broken file refused in one line that names the file and the line."""

from __future__ import annotations

import csv
import io

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from benchmark.corpora import bundled_languages
from benchmark.corpora.groups import GROUPS_FIELDS, GROUPS_FILE, bundled_groups, parse_groups, read_groups
from benchmark.plumbing.errors import BenchmarkError


def carried_lines() -> list[str]:
    return GROUPS_FILE.read_text(encoding="utf-8").splitlines()


def test_every_bundled_variety_has_one_entry_and_uncovered_ones_say_so():
    groups = bundled_groups()
    assert set(groups) == set(bundled_languages())
    missing = sorted(code for code, g in groups.items() if g.joshi_class is None)
    assert len(missing) == 8 and all(groups[c].joshi_source.startswith("not covered") for c in missing)
    assert groups["eus_Latn"].family_glottocode == groups["eus_Latn"].glottocode  # an isolate is its own family
    assert groups["zho_Hans"].family_name == "Sino-Tibetan" and groups["jpn_Jpan"].family_name == "Japonic"
    assert groups["rus_Cyrl"].family_name == groups["hin_Deva"].family_name == "Indo-European"


def test_a_modified_carried_file_is_refused_by_its_pin(tmp_path):
    copy = tmp_path / "language_groups.csv"
    copy.write_text(GROUPS_FILE.read_text(encoding="utf-8").replace(",5,", ",4,", 1), encoding="utf-8")
    from benchmark.corpora.groups import GROUPS_SHA256
    with pytest.raises(BenchmarkError, match=r"language_groups\.csv: modified"):
        read_groups(copy, sha256=GROUPS_SHA256)
    assert len(read_groups(copy)) == 204  # unpinned, the edit is still a valid file


@pytest.mark.parametrize(("change", "message"), [
    (lambda cells: cells.__setitem__(6, "6"), "joshi_class '6' is not one of 0-5"),
    (lambda cells: cells.__setitem__(1, "Basque"), "glottocode 'Basque' is not a glottocode"),
    (lambda cells: cells.__setitem__(4, ""), "family_glottocode and family_name must be both"),
    (lambda cells: cells.__setitem__(7, ""), "joshi_source is empty"),
    (lambda cells: (cells.__setitem__(6, ""), cells.__setitem__(7, "TokCollate")), "does not say 'not covered'"),
    (lambda cells: cells.pop(), "7 fields, expected 8"),
])
def test_a_broken_line_is_one_error_naming_the_file_and_line(tmp_path, change, message):
    lines = carried_lines()
    cells = next(csv.reader([lines[40]]))
    change(cells)
    buffer = io.StringIO()
    csv.writer(buffer, lineterminator="").writerow(cells)
    lines[40] = buffer.getvalue()
    path = tmp_path / "groups.csv"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    with pytest.raises(BenchmarkError) as caught:
        read_groups(path)
    assert str(caught.value).startswith(f"{path}, line 41: ") and message in str(caught.value)
    assert "\n" not in str(caught.value)


def test_a_repeated_code_and_bytes_that_are_not_utf8_are_refused(tmp_path):
    lines = carried_lines()
    path = tmp_path / "groups.csv"
    path.write_text("\n".join([*lines, lines[3]]) + "\n", encoding="utf-8")
    with pytest.raises(BenchmarkError, match=rf"line {len(lines) + 1}: .* is listed twice"):
        read_groups(path)
    path.write_bytes(("\n".join(lines[:5]) + "\n").encode() + b"xyz_Latn,\xff\n")
    with pytest.raises(BenchmarkError, match=r"line 6: not UTF-8"):
        read_groups(path)


@settings(max_examples=60, deadline=None)
@given(st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=200))
def test_any_text_is_read_or_refused_with_one_located_line(text):
    body = ",".join(GROUPS_FIELDS) + "\n" + text
    try:
        found = parse_groups(body, "groups.csv")
    except BenchmarkError as exc:
        assert str(exc).startswith("groups.csv, line ")
    else:
        assert all(g.joshi_class in (None, 0, 1, 2, 3, 4, 5) for g in found.values())

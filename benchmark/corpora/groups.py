"""Each FLORES-200 variety's language family (Glottolog) and resource class (Joshi et al. 2020),
read from benchmark/corpora/language_groups/language_groups.csv (its README gives the sources, commits and
licences; tools/build_language_groups.py builds it).

A field the sources do not cover is empty in the file and None here; a code that is not a bundled
FLORES-200 variety (a user's corpus) has no entry. A bad file is one `BenchmarkError` naming the
file and the line.

>>> group_of("eus_Latn").family_name, group_of("eng_Latn").joshi_class
('Basque', 5)
"""

from __future__ import annotations

import csv
import functools
import hashlib
import io
import re
from dataclasses import dataclass
from pathlib import Path

from benchmark.plumbing.errors import BenchmarkError

GROUPS_FILE = Path(__file__).resolve().parent / "language_groups" / "language_groups.csv"
GROUPS_SHA256 = "6f7946d5cb2ecee4e42bde0465fb776f7c71d4c5fc2cab25e199e645f4e27060"
GROUPS_FIELDS = ("code", "glottocode", "glottocode_source", "family_glottocode", "family_name", "family_source",
                 "joshi_class", "joshi_source")
JOSHI_CLASSES = (0, 1, 2, 3, 4, 5)
_GLOTTOCODE = re.compile(r"[a-z0-9]{4}\d{4}")
_NOT_COVERED = "not covered"


@dataclass(frozen=True)
class LanguageGroup:
    """One variety's family and resource class; None where the sources do not cover it."""

    code: str
    glottocode: str | None
    family_glottocode: str | None
    family_name: str | None
    joshi_class: int | None
    glottocode_source: str
    family_source: str
    joshi_source: str


def parse_groups(text: str, path: Path | str) -> dict[str, LanguageGroup]:
    """{code: LanguageGroup} from the CSV's text; `path` names the file in errors."""
    reader = csv.reader(io.StringIO(text, newline=""))
    try:
        return _parse(reader, path)
    except csv.Error as exc:  # a stray carriage return, a quote left open
        raise BenchmarkError(f"{path}, line {reader.line_num}: not CSV ({exc})") from None


def _parse(reader, path: Path | str) -> dict[str, LanguageGroup]:
    header = next(reader, None)
    if tuple(header or ()) != GROUPS_FIELDS:
        raise BenchmarkError(f"{path}, line 1: header must be {','.join(GROUPS_FIELDS)}, got {','.join(header or [])!r}")
    found: dict[str, LanguageGroup] = {}
    for cells in reader:
        line = reader.line_num

        def bad(why: str) -> BenchmarkError:
            return BenchmarkError(f"{path}, line {line}: {why}")

        if len(cells) != len(GROUPS_FIELDS):
            raise bad(f"{len(cells)} fields, expected {len(GROUPS_FIELDS)}")
        row = dict(zip(GROUPS_FIELDS, cells))
        if not row["code"] or row["code"] != row["code"].strip():
            raise bad(f"code {row['code']!r} is empty or has spaces")
        if row["code"] in found:
            raise bad(f"{row['code']} is listed twice")
        for name in ("glottocode", "family_glottocode"):
            if row[name] and not _GLOTTOCODE.fullmatch(row[name]):
                raise bad(f"{name} {row[name]!r} is not a glottocode (4 letters or digits, 4 digits)")
        if bool(row["family_glottocode"]) != bool(row["family_name"]):
            raise bad("family_glottocode and family_name must be both given or both empty")
        if row["joshi_class"] and row["joshi_class"] not in {str(c) for c in JOSHI_CLASSES}:
            raise bad(f"joshi_class {row['joshi_class']!r} is not one of 0-5 (or empty: not covered)")
        for value, source in (("glottocode", "glottocode_source"), ("family_name", "family_source"),
                              ("joshi_class", "joshi_source")):
            if not row[source]:
                raise bad(f"{source} is empty: every field says where it came from")
            if not row[value] and not row[source].startswith(_NOT_COVERED):
                raise bad(f"{value} is empty but {source} does not say '{_NOT_COVERED}'")
        found[row["code"]] = LanguageGroup(
            code=row["code"], glottocode=row["glottocode"] or None, family_glottocode=row["family_glottocode"] or None,
            family_name=row["family_name"] or None,
            joshi_class=int(row["joshi_class"]) if row["joshi_class"] else None,
            glottocode_source=row["glottocode_source"], family_source=row["family_source"],
            joshi_source=row["joshi_source"])
    return found


def read_groups(path: Path | str, *, sha256: str | None = None) -> dict[str, LanguageGroup]:
    """Read a groups CSV (strict UTF-8); `sha256`: refuse other bytes (the bundled file's pin)."""
    path = Path(path)
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise BenchmarkError(f"{path}: cannot read the language groups ({exc.strerror})") from None
    if sha256 is not None and hashlib.sha256(data).hexdigest() != sha256:
        raise BenchmarkError(f"{path}: modified (SHA-256 differs from the pinned one); restore it with "
                             "`git checkout benchmark/corpora/language_groups/`")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data[:exc.start].count(b"\n") + 1
        raise BenchmarkError(f"{path}, line {line}: not UTF-8") from None
    return parse_groups(text, path)


@functools.cache
def bundled_groups() -> dict[str, LanguageGroup]:
    """The carried file, checked against its pin, read once."""
    return read_groups(GROUPS_FILE, sha256=GROUPS_SHA256)


def group_of(code: str) -> LanguageGroup | None:
    """The bundled entry of a corpus code; None for a code that is not a FLORES-200 variety."""
    return bundled_groups().get(code)


def joshi_label(joshi_class: int | None) -> str:
    """How a report names a class: 'class 3'; 'not covered' for None."""
    return "not covered" if joshi_class is None else f"class {joshi_class}"

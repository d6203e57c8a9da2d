"""Build benchmark/corpora/language_groups/language_groups.csv: each FLORES-200 variety's Glottolog family
and Joshi et al. (2020) resource class, from three public repositories read at pinned commits.

Run it again with the three repositories cloned (bare clones are enough; it reads with `git show`):

    git clone --bare https://github.com/openlanguagedata/flores flores.git
    git clone --bare https://github.com/glottolog/glottolog-cldf glottolog-cldf.git
    git clone --bare https://github.com/ufal/TokCollate TokCollate.git
    python tools/build_language_groups.py --flores-plus flores.git --glottolog glottolog-cldf.git \
        --tokcollate TokCollate.git

Every input file is checked against its SHA-256 below before it is read, so the same inputs give
the same CSV byte for byte; the CSV's own SHA-256 is printed, for the README and for
benchmark/corpora/groups.py's pin. Nothing is guessed: a variety no source covers keeps an empty
field and a source that says "not covered".

1. Glottocode: the FLORES+ README's language table (code, variety glottocode) at the last commit
   before the repository was emptied. FLORES+ relabelled some FLORES-200 codes; its CHANGELOG says
   which ("Relabeled `zho_Hans` to `cmn_Hans`", "`ajp_Arab` to `apc_Arab_sout3123`"), and those
   sentences are read here, not retyped.
2. Family: Glottolog's CLDF languoid table (languages.csv): the languoid's Family_ID, and that
   family's Name. An isolate (Is_Isolate, or a language with no Family_ID) is its own family.
3. Resource class: TokCollate's code_tiers.tsv (ufal, MIT), which maps FLORES+ varieties (ISO
   639-3 and glottocode) onto the classes of Joshi et al.'s published list lang2tax.txt (names only,
   no codes), matched by name by their script and then checked by hand; its "?" is not covered.
"""

from __future__ import annotations

import argparse
import csv
import hashlib
import io
import re
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
NAMES = REPO / "corpora" / "flores200" / "language_names.csv"
OUTPUT = REPO / "benchmark" / "corpora" / "language_groups" / "language_groups.csv"

# (commit, path, SHA-256 of the file's bytes at that commit)
FLORES_PLUS = "39f541f333cddb5780dcc7d93a23eacec23b3303"  # "FLORES+ 2.0-rc.3", before the archive wiped the files
FLORES_README = (FLORES_PLUS, "README.md", "4a8039a8563bbe5f5a2f863de193eea824fdb02b2c2b8d2492de243c7c219562")
FLORES_CHANGELOG = (FLORES_PLUS, "CHANGELOG.md", "819c07244eb3cd49a54e2a1f5d593688a3ce8dc90bdd0294e7ef6d84b807f02f")
GLOTTOLOG = "b6d3ea20a1a305a94b1e8a1198943f26b7bd2756"  # tag v5.1, "release 5.1"
GLOTTOLOG_LANGUAGES = (GLOTTOLOG, "cldf/languages.csv",
                       "b5cb2e35d74d97d590469d3a219e16dd93629adf1e247c25a3da27327758c5e7")
TOKCOLLATE = "d89b08a0d3564f3677998c9aee6560705fa42798"  # main on 2026-03-16
TOKCOLLATE_TIERS = (TOKCOLLATE, "tokcollate/resources/language/code_tiers.tsv",
                    "71a61378e2ae5e20e15238a11fc0c0d7ba51934793c7330d75bba98d53e228bf")

FIELDS = ("code", "glottocode", "glottocode_source", "family_glottocode", "family_name", "family_source",
          "joshi_class", "joshi_source")


def read_pinned(git_dir: Path, pinned: tuple[str, str, str]) -> str:
    """One file of a repository at its commit, refused when its bytes are not the pinned ones."""
    commit, path, sha256 = pinned
    data = subprocess.run(["git", "--git-dir", str(git_dir), "show", f"{commit}:{path}"],
                          check=True, capture_output=True).stdout
    found = hashlib.sha256(data).hexdigest()
    if found != sha256:
        sys.exit(f"{git_dir}: {commit[:10]}:{path} has SHA-256 {found}, expected {sha256}")
    return data.decode("utf-8")


def flores_plus_glottocodes(readme: str) -> dict[str, list[str]]:
    """FLORES+ code -> the variety glottocodes its README's table gives it (two for apc_Arab)."""
    found: dict[str, list[str]] = {}
    for line in readme.splitlines():
        match = re.match(r"\|\s*`(\w+)`\s*\|\s*`(\w{4}\d{4})`\s*\|", line)
        if match:
            found.setdefault(match.group(1), []).append(match.group(2))
    return found


def relabellings(changelog: str) -> dict[str, tuple[str, str | None]]:
    """FLORES-200 code -> (FLORES+ code, its glottocode when the CHANGELOG names one), from the
    CHANGELOG's lines that relabel ("`ajp_Arab` to `apc_Arab_sout3123`")."""
    found = {}
    for line in changelog.splitlines():
        if "Relabel" in line:
            for old, new in re.findall(r"`(\w+_\w{4})` to `(\w+_\w{4}(?:_\w{4}\d{4})?)`", line):
                parts = new.split("_")
                found[old] = ("_".join(parts[:2]), parts[2] if len(parts) == 3 else None)
    return found


def glottolog_table(text: str) -> dict[str, dict[str, str]]:
    return {row["ID"]: row for row in csv.DictReader(io.StringIO(text))}


def joshi_classes(text: str) -> dict[tuple[str, str], str]:
    """(ISO 639-3, glottocode) -> class "0".."5" or "?", from TokCollate's code_tiers.tsv."""
    rows = csv.DictReader(io.StringIO(text), delimiter="\t")
    return {(row["iso_code"], row["glottocode"]): row["tier"] for row in rows}


def build(readme: str, changelog: str, languoids: str, tiers: str, codes: list[str]) -> list[dict[str, str]]:
    glottocodes, renamed = flores_plus_glottocodes(readme), relabellings(changelog)
    glottolog, classes = glottolog_table(languoids), joshi_classes(tiers)
    rows = []
    for code in codes:
        row = dict.fromkeys(FIELDS, "")
        row["code"] = code
        plus_code, wanted = renamed.get(code, (code, None))
        via = f" as {plus_code}" + (f" ({wanted})" if wanted else "") + " (its CHANGELOG relabels " + code + ")" \
            if code in renamed else ""
        listed = glottocodes.get(plus_code, [])
        if wanted:
            listed = [g for g in listed if g == wanted]
        if len(listed) == 1:
            row["glottocode"] = listed[0]
            row["glottocode_source"] = f"FLORES+ 2.0-rc.3 README{via}"
        else:
            row["glottocode_source"] = (f"not covered: FLORES+ 2.0-rc.3 README lists {plus_code} "
                                        f"{len(listed)} times{via}")
        languoid = glottolog.get(row["glottocode"])
        if languoid is None:
            row["family_source"] = "not covered: no glottocode" if not row["glottocode"] else \
                f"not covered: {row['glottocode']} is not in Glottolog 5.1's languages.csv"
        elif languoid["Family_ID"]:
            family = glottolog[languoid["Family_ID"]]
            row["family_glottocode"], row["family_name"] = family["ID"], family["Name"]
            row["family_source"] = f"Glottolog 5.1 languages.csv: {row['glottocode']}'s Family_ID"
        else:
            # A top-level languoid with no family: an isolate, its own family (Glottolog's own rule).
            row["family_glottocode"], row["family_name"] = languoid["ID"], languoid["Name"]
            row["family_source"] = (f"Glottolog 5.1 languages.csv: {row['glottocode']} has no Family_ID "
                                    f"(Is_Isolate {languoid['Is_Isolate'] or 'empty'}), its own family")
        iso = plus_code.split("_")[0]
        tier = classes.get((iso, row["glottocode"]))
        if tier in {"0", "1", "2", "3", "4", "5"}:
            row["joshi_class"] = tier
            row["joshi_source"] = f"TokCollate code_tiers.tsv: {iso} {row['glottocode']}"
        elif tier == "?":
            row["joshi_source"] = f"not covered: TokCollate code_tiers.tsv gives {iso} {row['glottocode']} '?'"
        else:
            row["joshi_source"] = f"not covered: not in TokCollate code_tiers.tsv ({iso} {row['glottocode'] or '-'})"
        rows.append(row)
    return rows


def to_csv(rows: list[dict[str, str]]) -> str:
    buffer = io.StringIO()
    writer = csv.DictWriter(buffer, fieldnames=FIELDS, lineterminator="\n")
    writer.writeheader()
    writer.writerows(rows)
    return buffer.getvalue()


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--flores-plus", type=Path, required=True, help="git dir of openlanguagedata/flores")
    parser.add_argument("--glottolog", type=Path, required=True, help="git dir of glottolog/glottolog-cldf")
    parser.add_argument("--tokcollate", type=Path, required=True, help="git dir of ufal/TokCollate")
    parser.add_argument("--output", type=Path, default=OUTPUT)
    args = parser.parse_args(argv)
    with NAMES.open(encoding="utf-8") as f:
        codes = sorted(line.rsplit(",", 1)[1].strip() for line in f.read().splitlines()[1:] if line.strip())
    rows = build(read_pinned(args.flores_plus, FLORES_README), read_pinned(args.flores_plus, FLORES_CHANGELOG),
                 read_pinned(args.glottolog, GLOTTOLOG_LANGUAGES), read_pinned(args.tokcollate, TOKCOLLATE_TIERS),
                 codes)
    text = to_csv(rows)
    args.output.write_text(text, encoding="utf-8")
    uncovered = {name: [r["code"] for r in rows if not r[name]] for name in ("glottocode", "family_name", "joshi_class")}
    print(f"{args.output}: {len(rows)} varieties, SHA-256 {hashlib.sha256(text.encode()).hexdigest()}")
    for name, missing in uncovered.items():
        print(f"  {name}: {len(rows) - len(missing)} covered, {len(missing)} not: {' '.join(missing)}")


if __name__ == "__main__":
    main()

"""WMT24++ (Deutsch et al. 2025) as a parallel corpus folder with domain labels, built from its release.

The release is one jsonl file per language pair, `en-<xx_XX>.jsonl`, each a row per segment
(`lp, domain, document_id, segment_id, is_bad_source, source, target, original_target`): the same
998 English segments translated into 55 languages and dialects, each segment labelled `literary`,
`news`, `social` or `speech` (and one `canary`). `build` turns them into `corpora/wmt24pp/`:

- `dev/<code>.txt`, `devtest/<code>.txt`: line N is segment N in every language (`target`, the
  post-edit the authors recommend as the reference; the English `source` as `eng_Latn`);
- `dev/domains.tsv`, `devtest/domains.tsv`: each line's domain (corpora/domains.py reads them);
- `SHA256SUMS`: every written file's SHA-256 (folders.py checks them when the corpus is read).

Left out, from every language alike so line N stays the same segment: the 38 rows the release marks
`is_bad_source` (the canary among them; the authors drop them too) and the 17 segments whose text
holds a line break in the source or in one language's translation (a corpus line holds one
segment): 943 of 998 are kept. The split is by document, per domain, so each domain has a held-out
part: a domain's documents in their release order, the chunks of one literary work counted as one
document, go alternately to devtest (the 1st, 3rd, ...) and dev (the 2nd, 4th, ...).

Each release file is checked against its SHA-256 in `SOURCE_SHA256SUMS` before anything is written.
Language codes: FLORES-200's where the variety agrees; where WMT24++ has two regional variants of
one language, the FLORES language and script with the region (`por-BR_Latn`); corpora/wmt24pp/README.md
has the whole table.

    python -m benchmark.corpora.wmt24pp SRC [DEST]   # SRC: the folder of the 55 en-*.jsonl files
"""

from __future__ import annotations

import hashlib
import json
import re
import sys
from pathlib import Path

from benchmark.corpora.domains import DOMAINS_FILE
from benchmark.corpora.sums import SUMS_FILE, read_sums
from benchmark.plumbing.errors import BenchmarkError
from benchmark.plumbing.fileio import atomic_write_text

WMT24PP_DIR = Path(__file__).resolve().parents[2] / "corpora" / "wmt24pp"
SOURCE_SUMS_FILE = "SOURCE_SHA256SUMS"
N_SEGMENTS = 998
_FIELDS = ("lp", "domain", "document_id", "segment_id", "is_bad_source", "source", "target", "original_target")
_LINE_BREAKS = re.compile(r"[\n\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029]")  # what would split a line
_CHUNK = re.compile(r"_chunk_\d+_words_\d+$")  # test-en-literary_<work>_chunk_1_words_982

# WMT24++ locale -> this corpus's code: FLORES-200's code where the variety agrees, the FLORES
# language and script with the region where WMT24++ has two variants of one language.
CODES: dict[str, str] = {
    "ar_EG": "ara-EG_Arab", "ar_SA": "ara-SA_Arab", "bg_BG": "bul_Cyrl", "bn_IN": "ben_Beng", "ca_ES": "cat_Latn",
    "cs_CZ": "ces_Latn", "da_DK": "dan_Latn", "de_DE": "deu_Latn", "el_GR": "ell_Grek", "es_MX": "spa_Latn",
    "et_EE": "est_Latn", "fa_IR": "pes_Arab", "fi_FI": "fin_Latn", "fil_PH": "fil_Latn", "fr_CA": "fra-CA_Latn",
    "fr_FR": "fra-FR_Latn", "gu_IN": "guj_Gujr", "he_IL": "heb_Hebr", "hi_IN": "hin_Deva", "hr_HR": "hrv_Latn",
    "hu_HU": "hun_Latn", "id_ID": "ind_Latn", "is_IS": "isl_Latn", "it_IT": "ita_Latn", "ja_JP": "jpn_Jpan",
    "kn_IN": "kan_Knda", "ko_KR": "kor_Hang", "lt_LT": "lit_Latn", "lv_LV": "lvs_Latn", "ml_IN": "mal_Mlym",
    "mr_IN": "mar_Deva", "nl_NL": "nld_Latn", "no_NO": "nob_Latn", "pa_IN": "pan_Guru", "pl_PL": "pol_Latn",
    "pt_BR": "por-BR_Latn", "pt_PT": "por-PT_Latn", "ro_RO": "ron_Latn", "ru_RU": "rus_Cyrl", "sk_SK": "slk_Latn",
    "sl_SI": "slv_Latn", "sr_RS": "srp_Cyrl", "sv_SE": "swe_Latn", "sw_KE": "swh-KE_Latn", "sw_TZ": "swh-TZ_Latn",
    "ta_IN": "tam_Taml", "te_IN": "tel_Telu", "th_TH": "tha_Thai", "tr_TR": "tur_Latn", "uk_UA": "ukr_Cyrl",
    "ur_PK": "urd_Arab", "vi_VN": "vie_Latn", "zh_CN": "zho_Hans", "zh_TW": "zho_Hant", "zu_ZA": "zul_Latn",
}
SOURCE_CODE = "eng_Latn"


def _read_release(source: Path) -> dict[str, list[dict]]:
    """locale -> its rows, each release file checked against SOURCE_SHA256SUMS and its rows' fields."""
    pinned = read_sums(WMT24PP_DIR / SOURCE_SUMS_FILE)
    rows = {}
    for locale in CODES:
        path = Path(source) / f"en-{locale}.jsonl"
        if not path.is_file():
            raise BenchmarkError(f"{path}: missing; the source folder needs the release's 55 en-<xx_XX>.jsonl files")
        data = path.read_bytes()
        digest = hashlib.sha256(data).hexdigest()
        if digest != pinned[path.name]:
            raise BenchmarkError(f"{path}: SHA-256 {digest} is not the release's {pinned[path.name]}; "
                                 "give the unmodified WMT24++ files")
        found = []
        for number, line in enumerate(data.decode("utf-8").splitlines(), start=1):
            row = json.loads(line)
            if tuple(row) != _FIELDS or row["lp"] != f"en-{locale}":
                raise BenchmarkError(f"{path}:{number}: not a WMT24++ row of en-{locale}")
            found.append(row)
        rows[locale] = found
    return rows


def _kept_and_split(rows: dict[str, list[dict]]) -> tuple[list[int], dict[int, str], int, int]:
    """The kept segment numbers, each one's split, and how many were dropped as bad or as broken."""
    first = next(iter(rows.values()))
    for locale, found in rows.items():  # the same segments, in the same order, in every file
        if len(found) != N_SEGMENTS or any(
                (a["segment_id"], a["document_id"], a["domain"], a["source"], a["is_bad_source"])
                != (b["segment_id"], b["document_id"], b["domain"], b["source"], b["is_bad_source"])
                for a, b in zip(found, first)):
            raise BenchmarkError(f"en-{locale}.jsonl: not the same {N_SEGMENTS} segments as en-{next(iter(rows))}.jsonl")
    bad = {i for i, row in enumerate(first) if row["is_bad_source"]}
    broken = {i for i in range(N_SEGMENTS) if i not in bad and any(
        _LINE_BREAKS.search(text) or not text.strip()
        for text in (first[i]["source"], *(found[i]["target"] for found in rows.values())))}
    kept = [i for i in range(N_SEGMENTS) if i not in bad | broken]
    works: dict[str, list[str]] = {}  # domain -> its documents (a literary work's chunks as one), in order
    for i in kept:
        work = _CHUNK.sub("", first[i]["document_id"])
        if work not in works.setdefault(first[i]["domain"], []):
            works[first[i]["domain"]].append(work)
    split_of = {i: "devtest" if works[first[i]["domain"]].index(_CHUNK.sub("", first[i]["document_id"])) % 2 == 0
                else "dev" for i in kept}
    return kept, split_of, len(bad), len(broken)


def build(source: Path, dest: Path = WMT24PP_DIR) -> dict[str, int]:
    """Write the corpus folder `dest` from the release folder `source`; returns the line counts
    (kept, dev, devtest, dropped as bad source, dropped for a line break)."""
    rows = _read_release(source)
    kept, split_of, n_bad, n_broken = _kept_and_split(rows)
    first = next(iter(rows.values()))
    texts = {SOURCE_CODE: [row["source"] for row in first],
             **{CODES[locale]: [row["target"] for row in found] for locale, found in rows.items()}}
    sums = {}
    for split in ("dev", "devtest"):
        lines = [i for i in kept if split_of[i] == split]
        files = {f"{code}.txt": "".join(f"{text[i]}\n" for i in lines) for code, text in sorted(texts.items())}
        files[DOMAINS_FILE] = "domain\n" + "".join(f"{first[i]['domain']}\n" for i in lines)
        for name, text in files.items():
            atomic_write_text(Path(dest) / split / name, text)
            sums[f"{split}/{name}"] = hashlib.sha256(text.encode("utf-8")).hexdigest()
    atomic_write_text(Path(dest) / SUMS_FILE, "".join(f"{digest}  {name}\n" for name, digest in sorted(sums.items())))
    n_dev = sum(split == "dev" for split in split_of.values())
    return {"kept": len(kept), "dev": n_dev, "devtest": len(kept) - n_dev, "bad_source": n_bad, "line_break": n_broken}


def main(argv: list[str]) -> int:
    if not 1 <= len(argv) <= 2:
        print("usage: python -m benchmark.corpora.wmt24pp SRC [DEST]  (SRC: the folder of the release's "
              "en-<xx_XX>.jsonl files; DEST: corpora/wmt24pp)", file=sys.stderr)
        return 2
    try:
        counts = build(Path(argv[0]), Path(argv[1]) if len(argv) > 1 else WMT24PP_DIR)
    except BenchmarkError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    print(f"kept {counts['kept']} of {N_SEGMENTS} segments ({counts['dev']} dev, {counts['devtest']} devtest); "
          f"dropped {counts['bad_source']} marked is_bad_source and {counts['line_break']} holding a line break")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

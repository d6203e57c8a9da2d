"""Build corpora/django-ui/ (and django-ui-wide/): a parallel corpus of UI strings from Django's
gettext catalogs, offline, from the pinned Django wheel or the installed Django of that version.

`python -m benchmark.corpora.django_ui [--wheel PATH] [--out DIR]` reads every
`django/conf/locale/<loc>/LC_MESSAGES/django.po` and `django/contrib/<app>/locale/<loc>/LC_MESSAGES/django.po`
(not the `djangojs.po` catalogs: JavaScript messages are a second, much smaller set) and writes
one file per language in which line N is the translation of the same message. The rules:

- a message is keyed by (msgctxt, msgid); English is the msgid itself;
- fuzzy, obsolete and untranslated (empty or blank msgstr) entries are dropped;
- a plural entry gives msgid -> msgstr[0] (the singular form: "one" in Russian or Czech, the only
  form in Japanese or Korean); msgid_plural and the other forms are left out, since a language's
  msgstr[1] is not the English plural's translation (Russian's [1] is "few");
- the same key in several catalogs (a contrib app repeating a core message) takes the first
  translated one in sorted catalog path order;
- placeholders (`%(name)s`, `{0}`, `%s`) and markup are kept as they are;
- one message is one line: backslash, newline, carriage return and tab are written as the escapes
  the .po file itself uses (`\\\\`, `\\n`, `\\r`, `\\t`), in every language alike;
- a key is kept only if every language of the set translates it; the split is by the SHA-256 of
  `msgctxt + "\\x04" + msgid` (its first byte even: dev, odd: devtest), lines in key order.
- each split's `domains.tsv` labels every line `ui` (corpora/domains.py), so a run's per-domain
  figures (the calibration's `ui` entries, the premium per domain) name this kind of text.

The six-language set is the mission's six; the wide set is every locale with a FLORES code whose
catalogs translate at least WIDE_MIN_COVERAGE of the six-language set's keys.
"""

from __future__ import annotations

import argparse
import hashlib
import io
import json
import re
import zipfile
from dataclasses import dataclass
from pathlib import Path

from benchmark.corpora.domains import DOMAINS_FILE

DJANGO_VERSION = "5.2.20"
WHEEL_NAME = f"django-{DJANGO_VERSION}-py3-none-any.whl"
WHEEL_SHA256 = "3b06f7a4843dea6bc14e33daf2044a40dc6df8c2105765ea03a29c64b61be0e0"
SIX = ("eng_Latn", "spa_Latn", "rus_Cyrl", "jpn_Jpan", "kor_Hang", "ces_Latn")
# A locale joins the wide set if it translates this share of the six-language keys: below it the
# intersection would shrink to the few messages every small team translated first.
WIDE_MIN_COVERAGE = 0.97
ROOT = Path(__file__).resolve().parents[2] / "corpora"
UI_DOMAIN = "ui"  # every line's domain label: one kind of text, a UI's messages

# Django locale -> FLORES-200 code. Regional variants (es_AR, en_GB...) are left out: FLORES has
# one code per language. Django's pt is European Portuguese; FLORES's por_Latn is Brazilian.
LOCALE_TO_FLORES = {
    "af": "afr_Latn", "ar": "arb_Arab", "ast": "ast_Latn", "az": "azj_Latn", "be": "bel_Cyrl",
    "bg": "bul_Cyrl", "bn": "ben_Beng", "bs": "bos_Latn", "ca": "cat_Latn", "ckb": "ckb_Arab",
    "cs": "ces_Latn", "cy": "cym_Latn", "da": "dan_Latn", "de": "deu_Latn", "el": "ell_Grek",
    "eo": "epo_Latn", "es": "spa_Latn", "et": "est_Latn", "eu": "eus_Latn", "fa": "pes_Arab",
    "fi": "fin_Latn", "fr": "fra_Latn", "ga": "gle_Latn", "gd": "gla_Latn", "gl": "glg_Latn",
    "he": "heb_Hebr", "hi": "hin_Deva", "hr": "hrv_Latn", "hu": "hun_Latn", "hy": "hye_Armn",
    "id": "ind_Latn", "ig": "ibo_Latn", "is": "isl_Latn", "it": "ita_Latn", "ja": "jpn_Jpan",
    "ka": "kat_Geor", "kab": "kab_Latn", "kk": "kaz_Cyrl", "km": "khm_Khmr", "kn": "kan_Knda",
    "ko": "kor_Hang", "ky": "kir_Cyrl", "lb": "ltz_Latn", "lt": "lit_Latn", "lv": "lvs_Latn",
    "mk": "mkd_Cyrl", "ml": "mal_Mlym", "mn": "khk_Cyrl", "mr": "mar_Deva", "ms": "zsm_Latn",
    "my": "mya_Mymr", "nb": "nob_Latn", "ne": "npi_Deva", "nl": "nld_Latn", "nn": "nno_Latn",
    "pa": "pan_Guru", "pl": "pol_Latn", "pt_BR": "por_Latn", "ro": "ron_Latn", "ru": "rus_Cyrl",
    "sk": "slk_Latn", "sl": "slv_Latn", "sq": "als_Latn", "sr": "srp_Cyrl", "sv": "swe_Latn",
    "sw": "swh_Latn", "ta": "tam_Taml", "te": "tel_Telu", "tg": "tgk_Cyrl", "th": "tha_Thai",
    "tk": "tuk_Latn", "tr": "tur_Latn", "tt": "tat_Cyrl", "ug": "uig_Arab", "uk": "ukr_Cyrl",
    "ur": "urd_Arab", "uz": "uzn_Latn", "vi": "vie_Latn", "zh_Hans": "zho_Hans", "zh_Hant": "zho_Hant",
}

_CATALOG = re.compile(r"django/(?:conf|contrib/[a-z_]+)/locale/([A-Za-z_]+)/LC_MESSAGES/django\.po")
_ESCAPES = str.maketrans({"\\": "\\\\", "\n": "\\n", "\r": "\\r", "\t": "\\t"})

Key = tuple[str, str]  # (msgctxt, msgid)


class BuildError(Exception):
    """The source is not the pinned Django, or a catalog cannot be read."""


@dataclass(frozen=True)
class Source:
    """The catalogs' texts by path inside the package (`django/...`), and where they came from."""
    catalogs: dict[str, str]
    license_text: str
    origin: str  # "wheel <name> sha256 <hex>" or "installed Django <version> at <path>"


def one_line(text: str) -> str:
    """A message as one line, its control characters escaped as the .po file writes them."""
    return text.translate(_ESCAPES)


def entries_of(po_text: str, where: str) -> dict[Key, str]:
    """(msgctxt, msgid) -> translation of one catalog's kept entries (the rules in the docstring)."""
    try:
        import polib  # the build's own dependency (the test extra), not a run's
    except ModuleNotFoundError:
        raise BuildError("polib is not installed: pip install polib==1.2.0 (or the test extra)") from None
    try:
        catalog = polib.pofile(po_text)
    except (OSError, ValueError) as exc:
        raise BuildError(f"{where}: not a readable .po catalog ({exc})") from None
    kept: dict[Key, str] = {}
    for entry in catalog:
        if entry.obsolete or "fuzzy" in entry.flags or not entry.msgid:
            continue
        text = entry.msgstr_plural.get(0, "") if entry.msgid_plural else entry.msgstr
        if not text.strip():
            continue
        kept.setdefault((entry.msgctxt or "", entry.msgid), text)
    return kept


def translations_by_locale(catalogs: dict[str, str]) -> dict[str, dict[Key, str]]:
    """locale -> its merged catalogs' kept entries, the first catalog in path order winning a key."""
    merged: dict[str, dict[Key, str]] = {}
    for path in sorted(catalogs):
        match = _CATALOG.fullmatch(path)
        if match is None:
            continue
        into = merged.setdefault(match.group(1), {})
        for key, text in entries_of(catalogs[path], path).items():
            into.setdefault(key, text)
    return merged


def split_of(key: Key) -> str:
    """'dev' or 'devtest', fixed by the key's hash, so a message's split never depends on the set."""
    digest = hashlib.sha256(f"{key[0]}\x04{key[1]}".encode("utf-8")).digest()
    return "dev" if digest[0] % 2 == 0 else "devtest"


def parallel(by_code: dict[str, dict[Key, str]], codes: tuple[str, ...]) -> dict[str, dict[str, list[str]]]:
    """{split: {code: lines}} over the keys every code translates; English's line is the msgid."""
    keys = sorted(set.intersection(*(set(by_code[code]) for code in codes if code != "eng_Latn")))
    out: dict[str, dict[str, list[str]]] = {"dev": {c: [] for c in codes}, "devtest": {c: [] for c in codes}}
    for key in keys:
        split = split_of(key)
        for code in codes:
            out[split][code].append(one_line(key[1] if code == "eng_Latn" else by_code[code][key]))
    return out


def read_wheel(path: Path) -> Source:
    """The catalogs and licence inside the pinned wheel; any other file is refused."""
    data = path.read_bytes()
    digest = hashlib.sha256(data).hexdigest()
    if digest != WHEEL_SHA256:
        raise BuildError(f"{path}: SHA-256 {digest}, not the pinned {WHEEL_NAME} ({WHEEL_SHA256}); "
                         f"get it with `pip download --no-deps django=={DJANGO_VERSION}`")
    with zipfile.ZipFile(io.BytesIO(data)) as wheel:
        catalogs = {name: wheel.read(name).decode("utf-8") for name in wheel.namelist() if _CATALOG.fullmatch(name)}
        license_text = wheel.read(f"django-{DJANGO_VERSION}.dist-info/licenses/LICENSE").decode("utf-8")
    return Source(catalogs, license_text, f"wheel {WHEEL_NAME}, SHA-256 {digest}")


def read_installed() -> Source:
    """The catalogs and licence of the installed Django, which must be the pinned version."""
    import importlib.metadata
    import django

    if django.__version__ != DJANGO_VERSION:
        raise BuildError(f"installed Django is {django.__version__}, not the pinned {DJANGO_VERSION}; "
                         f"pip install django=={DJANGO_VERSION}")
    base = Path(django.__file__).resolve().parent
    catalogs = {}
    for po in base.rglob("django.po"):
        name = "django/" + po.relative_to(base).as_posix()
        if _CATALOG.fullmatch(name):
            catalogs[name] = po.read_text(encoding="utf-8")
    dist = importlib.metadata.distribution("django")
    license_file = next(f for f in dist.files or () if f.name == "LICENSE" and "dist-info" in str(f))
    license_text = Path(dist.locate_file(license_file)).read_text(encoding="utf-8")
    return Source(catalogs, license_text, f"installed Django {DJANGO_VERSION} (the wheel's files)")


def flores_codes(by_locale: dict[str, dict[Key, str]]) -> dict[str, dict[Key, str]]:
    """The locales with a FLORES code, renamed to it."""
    return {LOCALE_TO_FLORES[loc]: entries for loc, entries in by_locale.items() if loc in LOCALE_TO_FLORES}


def wide_codes(by_code: dict[str, dict[Key, str]]) -> tuple[str, ...]:
    """English and every code translating at least WIDE_MIN_COVERAGE of the six-language keys."""
    six_keys = set.intersection(*(set(by_code[c]) for c in SIX if c != "eng_Latn"))
    wide = [code for code, entries in by_code.items()
            if len(six_keys & set(entries)) >= WIDE_MIN_COVERAGE * len(six_keys)]
    return tuple(["eng_Latn"] + sorted(wide))


def write_corpus(folder: Path, splits: dict[str, dict[str, list[str]]], source: Source, used: list[str]) -> dict:
    """Write dev/ and devtest/ <code>.txt and domains.tsv, LICENSE, SHA256SUMS and provenance.json; return the record."""
    sums, counts = [], {}
    for split, files in splits.items():
        (folder / split).mkdir(parents=True, exist_ok=True)
        for stale in (folder / split).glob("*.txt"):
            stale.unlink()
        for code, lines in sorted(files.items()):
            data = "".join(line + "\n" for line in lines).encode("utf-8")
            (folder / split / f"{code}.txt").write_bytes(data)
            sums.append(f"{hashlib.sha256(data).hexdigest()}  {split}/{code}.txt\n")
            counts[split] = len(lines)
        labels = ("domain\n" + f"{UI_DOMAIN}\n" * counts[split]).encode("utf-8")
        (folder / split / DOMAINS_FILE).write_bytes(labels)
        sums.append(f"{hashlib.sha256(labels).hexdigest()}  {split}/{DOMAINS_FILE}\n")
    (folder / "SHA256SUMS").write_text("".join(sorted(sums, key=lambda s: s[66:])), encoding="utf-8")
    (folder / "LICENSE").write_text(source.license_text, encoding="utf-8")
    record = {
        "source": f"Django {DJANGO_VERSION} from PyPI: {WHEEL_NAME}, SHA-256 {WHEEL_SHA256}",
        "read_from": source.origin,
        "licence": "BSD-3-Clause (LICENSE, copied from the wheel)",
        "built_by": "python -m benchmark.corpora.django_ui",
        "languages": sorted(splits["dev"]),
        "lines": counts,
        "catalogs": used,
    }
    (folder / "provenance.json").write_text(json.dumps(record, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    return record


def build(source: Source, out: Path = ROOT) -> dict[str, dict]:
    """Both corpora from `source` into out/django-ui and out/django-ui-wide; their records."""
    by_code = flores_codes(translations_by_locale(source.catalogs))
    missing = [code for code in SIX if code != "eng_Latn" and code not in by_code]
    if missing:
        raise BuildError(f"the catalogs hold no {', '.join(missing)}; not Django's locale tree?")
    records = {}
    for name, codes in (("django-ui", SIX), ("django-ui-wide", wide_codes(by_code))):
        inverse = {flores: loc for loc, flores in LOCALE_TO_FLORES.items()}
        wanted = {inverse[c] for c in codes if c != "eng_Latn"}
        used = sorted(p for p in source.catalogs if (m := _CATALOG.fullmatch(p)) and m.group(1) in wanted)
        records[name] = write_corpus(out / name, parallel(by_code, codes), source, used)
    return records


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmark.corpora.django_ui", description=__doc__.split("\n")[0])
    parser.add_argument("--wheel", type=Path, help=f"the pinned {WHEEL_NAME} (default: the installed Django)")
    parser.add_argument("--out", type=Path, default=ROOT, help="the folder to write django-ui/ and django-ui-wide/ into")
    args = parser.parse_args(argv)
    try:
        source = read_wheel(args.wheel) if args.wheel else read_installed()
        records = build(source, args.out)
    except (BuildError, OSError, ModuleNotFoundError) as exc:
        parser.exit(1, f"error: {exc}\n")
    for name, record in records.items():
        print(f"{name}: {len(record['languages'])} languages, {record['lines']['dev']} dev + "
              f"{record['lines']['devtest']} devtest lines")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

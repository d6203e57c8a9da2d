"""A user's parallel corpus folder: which files are its languages, and loading them.

A folder holds one UTF-8 file per language, `<code>.txt`, line N being the same content in every
file: either directly in the folder (one split, called `all`) or in `dev/` and `devtest/`
subfolders (or FLORES-200's own `dev/<code>.dev`, `devtest/<code>.devtest`). Listing and loading
read the folder through one function, so they can never disagree. The bundled corpus, given by
its path, is read by `flores.py` instead.
"""

from __future__ import annotations

import re
import unicodedata
from pathlib import Path
from typing import Iterable

from benchmark.corpora.corpus import ALL_SPLIT, SPLITS, Corpus, check_aligned, select
from benchmark.corpora.domains import DOMAINS_FILE, read_domain_labels
from benchmark.corpora.flores import BUNDLED_CORPUS_DIR, FLORES_LANGUAGES, bundled_languages, is_bundled, load_flores
from benchmark.corpora.lines import read_lines, sha256_file
from benchmark.corpora.sums import SUMS_FILE, read_sums
from benchmark.plumbing.errors import BenchmarkError
from benchmark.plumbing.fileio import check_regular_file

CORPORA_DIR = BUNDLED_CORPUS_DIR.parent  # the corpora carried in the repository, by name

# A language code names a file: letters (any script), digits, "_" and "-", starting with a letter or
# digit (eng, eng_Latn, pt-BR, français). A dot is refused: spa.bak.txt is a backup, not a language.
_LANGUAGE_CODE = re.compile(r"[^\W_][\w-]*")


def _is_text_file(path: Path, suffix: str) -> bool:
    """Whether `path` is named as a corpus file `<code><suffix>` (suffix in any case: RUS.TXT).
    Hidden files are not texts: editors leave them. Whether it is a regular file is checked when
    it is listed: a folder or a FIFO named spa.txt is an error, not a language left out."""
    return not path.name.startswith(".") and path.name.lower().endswith(suffix)


def _language_files(folder: Path, suffix: str) -> dict[str, Path]:
    """code -> file for the corpus files of `folder` (`_is_text_file`); each name must hold a valid
    code."""
    found: dict[str, Path] = {}
    for path in sorted(folder.iterdir()):
        if path.name.lower().endswith(f"{suffix}.xz") and not path.name.startswith("."):
            # Only the bundled corpus is read compressed (a copy of it is a user folder).
            raise BenchmarkError(f"{path}: a compressed corpus file; decompress it with `xz -dk {path}`, or "
                                 "leave out --corpus to read the bundled FLORES-200")
        if not _is_text_file(path, suffix):
            continue
        # NFC: a file system may hand back "és" decomposed (e + U+0301, a mark \w does not match).
        code = unicodedata.normalize("NFC", path.name[: -len(suffix)])
        check_regular_file(path, "corpus file", hint=f"a <code>.txt name is a language's text; rename or move it out of {folder}")
        if not _LANGUAGE_CODE.fullmatch(code):
            raise BenchmarkError(
                f"{path}: {code!r} is not a language code (letters, digits, '_' or '-', e.g. eng or hin_Deva); "
                f"rename the file <code>{suffix} or move it out of {folder}"
            )
        twin = next((other for other in found if other.lower() == code.lower()), None)
        if twin is not None:
            raise BenchmarkError(f"{path}: language {code!r} already has a file here, {found[twin].name} "
                                 "(codes that differ only in case are one language); keep one of them")
        found[code] = path
    return found


def _layout(root: Path) -> dict[str, dict[str, Path]]:
    """A corpus folder's files, {split: {code: path}}: dev/*.dev and devtest/*.devtest (the FLORES
    layout), dev/*.txt and devtest/*.txt, or <code>.txt files as the one split ALL_SPLIT. One
    place, so that listing a corpus's languages and loading them can never disagree."""
    if root.is_file():
        raise BenchmarkError(f"{root}: is a file; a corpus is a folder of <code>.txt files")
    if not root.is_dir():
        if root.is_symlink():
            try:
                root.resolve(strict=True)
                why = "a symbolic link to nothing that is a folder"
            except RuntimeError:  # Python 3.11 reports a loop so
                why = "a symbolic link that loops"
            except OSError as exc:
                why = ("a symbolic link that loops" if getattr(exc, "errno", None) == 40
                       else "a broken symbolic link")
            raise BenchmarkError(f"{root}: is {why}, not a corpus folder; point it at a folder of <code>.txt files")
        raise BenchmarkError(f"{root}: no such corpus folder; expected a folder of <code>.txt files")
    if not any((root / split).is_dir() for split in SPLITS):
        files = _language_files(root, ".txt")
        if not files:
            raise BenchmarkError(
                f"{root}: no <code>.txt files (nor dev/ and devtest/ subfolders); "
                "put one UTF-8 file per language in it, e.g. eng.txt, jpn.txt"
            )
        return {ALL_SPLIT: files}
    flores = (root / "dev").is_dir() and any(_is_text_file(p, ".dev") for p in (root / "dev").iterdir())
    per_split: dict[str, dict[str, Path]] = {}
    for split in SPLITS:
        folder = root / split
        if not folder.is_dir():
            raise BenchmarkError(f"{folder}: missing; a corpus with splits needs both dev/ and devtest/")
        suffix = f".{split}" if flores else ".txt"
        per_split[split] = _language_files(folder, suffix)
        if not per_split[split]:
            raise BenchmarkError(f"{folder}: no *{suffix} files; put one UTF-8 file per language in it")
    dev_codes, devtest_codes = set(per_split["dev"]), set(per_split["devtest"])
    if dev_codes != devtest_codes:
        odd = sorted(dev_codes ^ devtest_codes)[0]
        where = "dev" if odd in dev_codes else "devtest"
        other = "devtest" if where == "dev" else "dev"
        raise BenchmarkError(
            f"{per_split[where][odd]}: language {odd!r} has no file in {root / other}; "
            "every language needs both splits"
        )
    return per_split


def load_corpus(root: Path, languages: Iterable[str] | None = None) -> Corpus:
    """Load a corpus folder: the FLORES layout, or `<code>.txt` files with optional dev/ devtest/.
    `languages` are the corpus's codes exactly (`languages.resolve_codes` turns what a user typed
    into them); None: `default_languages(root)`.

    >>> load_corpus(Path("my_corpus"), ["eng", "hin_Deva"])   # my_corpus/eng.txt, my_corpus/hin_Deva.txt
    """
    root = Path(root)
    if is_bundled(root):
        return load_flores(root, languages)
    # The FLORES layout somewhere else (e.g. a FLORES-200 checkout) has no pinned sums.
    per_split = _layout(root)
    selected = select(_ordered(next(iter(per_split.values()))), languages, root)
    pinned = read_sums(root / SUMS_FILE) if (root / SUMS_FILE).is_file() else None
    splits, checksums, domains = {}, {}, {}
    for split, files in per_split.items():
        files = {code: files[code] for code in selected}
        for path in files.values():
            checksums[f"{split}/{path.name}"] = sha256_file(path)
            _check_sum(root, f"{split}/{path.name}", checksums, pinned)
        lines = {code: read_lines(path) for code, path in files.items()}
        check_aligned(files, lines)
        splits[split] = lines
        labels = (root if split == ALL_SPLIT else root / split) / DOMAINS_FILE
        if labels.exists() or labels.is_symlink():
            checksums[f"{split}/{DOMAINS_FILE}"] = sha256_file(labels)
            _check_sum(root, f"{split}/{DOMAINS_FILE}", checksums, pinned)
            domains[split] = read_domain_labels(labels, len(next(iter(lines.values()))))
    return Corpus(name=root.name, root=root, languages=selected, splits=splits, checksums=checksums,
                  domains=domains)


def _check_sum(root: Path, name: str, checksums: dict[str, str], pinned: dict[str, str] | None) -> None:
    """A file of a folder that carries a SHA256SUMS must be listed there with the same sum."""
    if pinned is None:
        return
    if name not in pinned:
        raise BenchmarkError(f"{root / name}: not listed in {root / SUMS_FILE}; a folder with a {SUMS_FILE} "
                             "lists every file it holds (rebuild it, or remove the file)")
    if pinned[name] != checksums[name]:
        raise BenchmarkError(f"{root / name}: SHA-256 {checksums[name]} does not match {pinned[name]} in "
                             f"{root / SUMS_FILE}; the file was modified: rebuild the corpus (its README says how)")


def named_corpus_dir(path: Path) -> Path:
    """A --corpus value as a folder: the path itself, or, for a bare name that is no folder here,
    the corpus of that name carried in the repository's corpora/ (`wmt24pp`, `flores200`)."""
    path = Path(path)
    if path.exists() or path.is_symlink() or len(path.parts) != 1 or path.name in (".", ".."):
        return path
    carried = CORPORA_DIR / path.name
    if not carried.is_dir():
        return path  # the folder's own error: no such corpus folder
    if not any((carried / split).is_dir() for split in SPLITS) and not any(carried.glob("*.txt")):
        raise BenchmarkError(f"{carried}: corpus {path.name!r} is not built in this checkout (its texts are not "
                             f"carried); {carried / 'README.md'} says where they come from and how to build them")
    return carried


def _ordered(files: dict[str, Path]) -> tuple[str, ...]:
    """Codes in the bundled corpus's order first, then the others sorted."""
    return tuple(c for c in FLORES_LANGUAGES if c in files) + tuple(sorted(set(files) - set(FLORES_LANGUAGES)))


def list_corpus_languages(root: Path = BUNDLED_CORPUS_DIR) -> tuple[str, ...]:
    """Every language code of a corpus folder, without reading the texts: the same files
    `load_corpus` would load; a folder it cannot load raises its error."""
    root = Path(root)
    if is_bundled(root):
        return bundled_languages(root)
    per_split = _layout(root)
    return _ordered(next(iter(per_split.values())))


def default_languages(root: Path = BUNDLED_CORPUS_DIR) -> tuple[str, ...]:
    """The languages a run measures when none are named: the six of the mission for the bundled
    corpus (`--languages all` takes its 204) and for another corpus carried in corpora/ (those of
    the six it has), every language of a user's folder."""
    if is_bundled(root):
        return FLORES_LANGUAGES
    languages = list_corpus_languages(root)
    if Path(root).resolve().parent == CORPORA_DIR:  # a corpus carried beside FLORES (wmt24pp): the same six
        return tuple(code for code in FLORES_LANGUAGES if code in languages) or languages
    return languages


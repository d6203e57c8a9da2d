"""Parallel corpora: discovery, validation, checksums.

A parallel corpus is one UTF-8 file per language in which line N is the same content in every
file. Two layouts are read:

- the bundled FLORES-200 subset (`corpora/flores200/{dev,devtest}/<code>.{dev,devtest}`), whose
  files are pinned by SHA-256 and checked when loaded;
- a user's folder of `<code>.txt` files, either directly in the folder (one split, called
  `all`) or in `dev/` and `devtest/` subfolders.

Every line is read as strict UTF-8 and must be non-empty; every language of a split must have the
same number of lines. Each failure is one `BenchmarkError` naming the file and the line.

This module knows nothing about tokenizers; the training/measuring protocol lives in measure.py.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable, Sequence

from benchmark.errors import BenchmarkError
from benchmark.fileio import check_regular_file

# The corpus shipped in the repository: corpora/flores200 beside the package.
BUNDLED_CORPUS_DIR = Path(__file__).resolve().parent.parent / "corpora" / "flores200"

FLORES_LANGUAGES = ("eng_Latn", "spa_Latn", "rus_Cyrl", "jpn_Jpan", "kor_Hang", "ces_Latn")

# Pinned like tiktoken pins its vocabulary files: a corpus that changed under us would silently
# change every number, so loading refuses it. Same sums as corpora/README.md.
FLORES_SHA256 = {
    "dev/ces_Latn.dev": "f7add857302b8224da3d7a39741043a91a1a5c286f5beac3362eab382c019eb0",
    "dev/eng_Latn.dev": "51a25f527fd81f428b6933d85a2f5e5544af92aa82042c7fbf0c4120327fba0a",
    "dev/jpn_Jpan.dev": "17a422e2729f2eaecf7bf98aea70e3e72b8cac8acd72547d6ec1ada07ff92f4f",
    "dev/kor_Hang.dev": "b309cfc95f11fcf5be423eb43c31cef9aef91c504ebd25d4ef6b11cb916c29c2",
    "dev/rus_Cyrl.dev": "3cad8426c208a2d5f5ccb1bbf5b5284129ffc30636cff4f4421f5f6f31d891a5",
    "dev/spa_Latn.dev": "9a99ddc459542da2d980b21cc049e799172545938cb02a5e7c92ebd8234b2121",
    "devtest/ces_Latn.devtest": "6914d87e4772e1c02e7c6a60c2550873d5660d859151c2b3f5d606a76d41a7d0",
    "devtest/eng_Latn.devtest": "612e9fbe87997617c0fa8fa8929654a4f49b728d96738112c2b86ef6a1d78d88",
    "devtest/jpn_Jpan.devtest": "36b8e392ae9404a20e8448c731d16d957ac1b94588d97fb691128ae706b63606",
    "devtest/kor_Hang.devtest": "540972696230a56e888f1fbd04b7000135c436351f5e467f99ce67fdccd8df0f",
    "devtest/rus_Cyrl.devtest": "cdc706ed862d1d35d8d67cfda0b396766646885434958b18291aa760ff1bb59e",
    "devtest/spa_Latn.devtest": "40fcb836b49b0a461a14c00b8bce1f03113f8d2668132af424e74b2421d18ce9",
}

# English names for the reports; a user's code that is not here is shown as itself.
LANGUAGE_NAMES = {
    "eng_Latn": "English", "eng": "English", "en": "English",
    "spa_Latn": "Spanish", "spa": "Spanish", "es": "Spanish",
    "rus_Cyrl": "Russian", "rus": "Russian", "ru": "Russian",
    "jpn_Jpan": "Japanese", "jpn": "Japanese", "ja": "Japanese",
    "kor_Hang": "Korean", "kor": "Korean", "ko": "Korean",
    "ces_Latn": "Czech", "ces": "Czech", "cs": "Czech",
    "deu_Latn": "German", "deu": "German", "de": "German",
    "fra_Latn": "French", "fra": "French", "fr": "French",
    "zho_Hans": "Chinese (Simplified)", "zho_Hant": "Chinese (Traditional)", "zh": "Chinese",
    "hin_Deva": "Hindi", "hin": "Hindi", "hi": "Hindi",
    "arb_Arab": "Arabic", "ara": "Arabic", "ar": "Arabic",
}

# Two-letter (ISO 639-1) codes of the languages named above -> their three-letter language part,
# so that a user's `ru.txt` finds FLORES's `rus_Cyrl` to train and warm up on.
ISO_639_1 = {"en": "eng", "es": "spa", "ru": "rus", "ja": "jpn", "ko": "kor", "cs": "ces", "de": "deu",
             "fr": "fra", "zh": "zho", "hi": "hin", "ar": "arb"}

# Codes tried, in order, when the user does not name the premium's reference language.
ENGLISH_CODES = ("eng_Latn", "eng", "en")


def english_code(codes: Sequence[str]) -> str | None:
    """The first of `codes` that is an English code (ENGLISH_CODES in that order, any case); two
    that differ only in case (en and EN) are an error, as either could be meant."""
    for english in ENGLISH_CODES:
        found = [code for code in codes if code.lower() == english.lower()]
        if len(found) > 1:
            raise BenchmarkError(
                f"{' and '.join(found)} are both English ({english}); pick the premium's reference with --reference CODE"
            )
        if found:
            return found[0]
    return None


SPLITS = ("dev", "devtest")
# A line is a sentence or a document; past this many characters it is rather a file without line
# breaks, and one encoder (bpe-openai) refuses such inputs outright.
MAX_LINE_CHARS = 1_000_000
ALL_SPLIT = "all"  # the one split of a user corpus without dev/ and devtest/ subfolders


def language_name(code: str) -> str:
    """'jpn_Jpan' -> 'Japanese'; an unknown code is returned as it is."""
    return LANGUAGE_NAMES.get(code, code)


@dataclass(frozen=True)
class Corpus:
    """A validated parallel corpus: split -> language -> lines (without newlines)."""

    name: str  # "flores200" or the user folder's name
    root: Path
    languages: tuple[str, ...]
    splits: dict[str, dict[str, tuple[str, ...]]]
    checksums: dict[str, str]  # "<split>/<file name>" -> sha256 of the file as read

    def lines(self, split: str, language: str) -> tuple[str, ...]:
        try:
            return self.splits[split][language]
        except KeyError:
            raise BenchmarkError(
                f"{self.root}: no split {split!r} for language {language!r}; "
                f"splits: {', '.join(self.splits)}; languages: {', '.join(self.languages)}"
            ) from None

    @property
    def measure_split(self) -> str:
        """Measurements use `devtest`, or the whole corpus when it has no split."""
        return "devtest" if "devtest" in self.splits else ALL_SPLIT

    @property
    def train_split(self) -> str:
        """Training uses `dev`, or the whole corpus when it has no split."""
        return "dev" if "dev" in self.splits else ALL_SPLIT

    def n_sentences(self, split: str) -> int:
        return len(next(iter(self.splits[split].values())))

    def default_reference(self) -> str:
        code = english_code(self.languages)
        if code is not None:
            return code
        raise BenchmarkError(
            f"{self.root}: no English file ({', '.join(ENGLISH_CODES)}, in any case) to measure the premium "
            f"against; pick one of {', '.join(self.languages)} with --reference CODE"
        )


def read_lines(path: Path) -> tuple[str, ...]:
    """Read one corpus file as strict UTF-8; an empty line or bad byte names its line number."""
    path = Path(path)
    check_regular_file(path, "corpus file", hint="give a UTF-8 text file, one sentence per line")
    return _decode_lines(path.read_bytes(), path)


def _decode_lines(data: bytes, path: Path) -> tuple[str, ...]:
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line_number = data.count(b"\n", 0, exc.start) + 1
        raise BenchmarkError(
            f"{path}:{line_number}: not valid UTF-8 (byte 0x{data[exc.start]:02x} at offset "
            f"{exc.start}); save the file as UTF-8"
        ) from None
    # A byte-order mark is an encoding artefact, not content.
    text = text.removeprefix("\ufeff")
    if not text.strip():
        raise BenchmarkError(f"{path}: file is empty; expected one sentence per line")
    raw_lines = text.split("\n")
    if raw_lines[-1] == "":  # the final newline ends the last line, it does not start a new one
        raw_lines.pop()
    lines = []
    for line_number, line in enumerate(raw_lines, start=1):
        line = line.removesuffix("\r")  # files saved with Windows line endings
        if "\r" in line:
            raise BenchmarkError(
                f"{path}:{line_number}: a carriage return inside the line (old Mac line endings, which "
                "put the whole file on one line?); save the file with \\n line endings"
            )
        if line.startswith("\ufeff"):
            raise BenchmarkError(
                f"{path}:{line_number}: starts with a byte-order mark (U+FEFF), an encoding artefact "
                "(files joined together?); remove it"
            )
        if not line.strip():
            raise BenchmarkError(
                f"{path}:{line_number}: empty line; every line must hold the sentence that "
                "is on the same line in the other languages"
            )
        if len(line) > MAX_LINE_CHARS:
            raise BenchmarkError(
                f"{path}:{line_number}: a line of {len(line):,} characters, over the limit of {MAX_LINE_CHARS:,}; "
                "a line holds one sentence or document: split it"
            )
        lines.append(line)
    return tuple(lines)


def sha256_file(path: Path) -> str:
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


def _check_aligned(files: dict[str, Path], lines: dict[str, tuple[str, ...]]) -> None:
    """Every language of a split must have the same number of lines."""
    first = next(iter(lines))
    n_first = len(lines[first])
    for language, language_lines in lines.items():
        if len(language_lines) != n_first:
            n = len(language_lines)
            where = min(n, n_first) + 1
            raise BenchmarkError(
                f"{files[language]}: {n} lines but {files[first]} has {n_first}; "
                f"parallel files must match line for line (first difference at line {where})"
            )


def _select(available: Sequence[str], languages: Iterable[str] | None, root: Path) -> tuple[str, ...]:
    if languages is None:
        return tuple(available)
    selected = []
    for code in languages:
        if code not in available:
            raise BenchmarkError(
                f"{root}: unknown language code {code!r}; this corpus has {', '.join(available)}"
            )
        if code not in selected:
            selected.append(code)
    if not selected:
        raise BenchmarkError(f"{root}: no language selected; this corpus has {', '.join(available)}")
    return tuple(selected)


def load_flores(root: Path = BUNDLED_CORPUS_DIR, languages: Iterable[str] | None = None, *,
                verify_checksums: bool = True) -> Corpus:
    """Load the bundled FLORES-200 subset, checking every file against its pinned SHA-256."""
    root = Path(root)
    selected = _select(FLORES_LANGUAGES, languages, root)
    splits: dict[str, dict[str, tuple[str, ...]]] = {}
    checksums: dict[str, str] = {}
    for split in SPLITS:
        files = {code: root / split / f"{code}.{split}" for code in selected}
        lines = {}
        for code, path in files.items():
            key = f"{split}/{path.name}"
            if not path.exists():
                raise BenchmarkError(f"{path}: bundled corpus file is missing; restore it with `git checkout corpora/`")
            check_regular_file(path, "corpus file", hint="restore it with `git checkout corpora/`")
            data = path.read_bytes()
            digest = hashlib.sha256(data).hexdigest()
            if verify_checksums and digest != FLORES_SHA256[key]:
                raise BenchmarkError(
                    f"{path}: SHA-256 {digest} does not match the pinned {FLORES_SHA256[key]}; "
                    "the bundled corpus was modified, restore it with `git checkout corpora/`"
                )
            checksums[key] = digest
            lines[code] = _decode_lines(data, path)
        _check_aligned(files, lines)
        splits[split] = lines
    return Corpus(name="flores200", root=root, languages=selected, splits=splits, checksums=checksums)


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
        if not _is_text_file(path, suffix):
            continue
        code = path.name[: -len(suffix)]
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

    >>> load_corpus(Path("my_corpus"), ["eng", "hin_Deva"])   # my_corpus/eng.txt, my_corpus/hin_Deva.txt
    """
    root = Path(root)
    if root.is_dir() and root.resolve() == BUNDLED_CORPUS_DIR.resolve():
        return load_flores(root, languages)
    # The FLORES layout somewhere else (e.g. a bigger FLORES-200 checkout) has no pinned sums.
    per_split = _layout(root)
    selected = _select(_ordered(next(iter(per_split.values()))), languages, root)
    splits, checksums = {}, {}
    for split, files in per_split.items():
        files = {code: files[code] for code in selected}
        lines = {code: read_lines(path) for code, path in files.items()}
        _check_aligned(files, lines)
        splits[split] = lines
        checksums.update({f"{split}/{p.name}": sha256_file(p) for p in files.values()})
    return Corpus(name=root.name, root=root, languages=selected, splits=splits, checksums=checksums)


def _ordered(files: dict[str, Path]) -> tuple[str, ...]:
    """Codes in the bundled corpus's order first, then the others sorted."""
    return tuple(c for c in FLORES_LANGUAGES if c in files) + tuple(sorted(set(files) - set(FLORES_LANGUAGES)))


def list_corpus_languages(root: Path = BUNDLED_CORPUS_DIR) -> tuple[str, ...]:
    """The language codes of a corpus folder, without reading the texts (for `list`): the same
    files `load_corpus` would load; a folder it cannot load raises its error."""
    root = Path(root)
    if root.is_dir() and root.resolve() == BUNDLED_CORPUS_DIR.resolve():
        return FLORES_LANGUAGES
    per_split = _layout(root)
    return _ordered(next(iter(per_split.values())))

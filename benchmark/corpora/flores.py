"""The bundled FLORES-200: all 204 language varieties, dev and devtest, each file pinned by SHA-256.

What is in `corpora/flores200/` (corpora/README.md says where it comes from and its licence):

- `dev/<code>.dev`, `devtest/<code>.devtest`: plain text for the six languages of the default
  run (`FLORES_LANGUAGES`), which tests and the speed tools read by path;
- `dev/<code>.dev.xz`, `devtest/<code>.devtest.xz` for the other 198: xz, one file each, so a
  run decompresses only the languages it uses (4 ms a file, 11 ms at most);
- `SHA256SUMS`: the SHA-256 of every file's text (after decompression, so recompressing changes
  no sum), the manifest of the FLORES-200 release;
- `language_names.csv`: the English name of each code.

The two small files are pinned here, like tiktoken pins its vocabulary files, and every corpus
file is checked against the manifest when it is read: a corpus that changed under us would
silently change every number, so loading refuses it.
"""

from __future__ import annotations

import functools
import hashlib
import lzma
from pathlib import Path
from typing import Iterable

from benchmark.corpora.corpus import SPLITS, Corpus, check_aligned, select
from benchmark.corpora.domains import read_metadata_domains
from benchmark.corpora.languages import language_part
from benchmark.corpora.lines import decode_lines
from benchmark.plumbing.errors import BenchmarkError
from benchmark.plumbing.fileio import check_regular_file

# The corpus shipped in the repository: corpora/flores200 beside the package.
BUNDLED_CORPUS_DIR = Path(__file__).resolve().parents[2] / "corpora" / "flores200"

# The six languages of the mission: the default selection, and the files kept as plain text.
FLORES_LANGUAGES = ("eng_Latn", "spa_Latn", "rus_Cyrl", "jpn_Jpan", "kor_Hang", "ces_Latn")

# Lines of every language's file of each split, held by the pinned sums (a test reads all 408).
BUNDLED_LINES = {"dev": 997, "devtest": 1012}

MANIFEST_FILE, MANIFEST_SHA256 = "SHA256SUMS", "6e20fac15118777caa85d2356bb85aa35f3ba97a16752f01b7a9938ee4703c7c"
NAMES_FILE, NAMES_SHA256 = "language_names.csv", "d32106771bedb7e37bf104238e984cd9293d3c60c14684f8f069332f5cf99cfc"
_NAMES_HEADER = "Language, FLORES-200 code"
_RESTORE = "restore it with `git checkout corpora/`"


def bundled_file(root: Path, split: str, code: str) -> Path:
    """Where a language's split is: plain for the six of `FLORES_LANGUAGES`, xz for the others."""
    name = f"{code}.{split}"
    return Path(root) / split / (name if code in FLORES_LANGUAGES else f"{name}.xz")


def manifest_key(split: str, code: str) -> str:
    """The file's name in SHA256SUMS and in a run record's checksums: 'dev/hin_Deva.dev'."""
    return f"{split}/{code}.{split}"


def read_manifest(root: Path = BUNDLED_CORPUS_DIR) -> dict[str, str]:
    """SHA256SUMS as {'dev/hin_Deva.dev': sha256 of its text}."""
    path = Path(root) / MANIFEST_FILE
    sums = {}
    for line in _read_pinned(path, MANIFEST_SHA256).decode("ascii").splitlines():
        digest, name = line.split("  ", 1)
        sums[name] = digest
    return sums


def read_language_names(root: Path = BUNDLED_CORPUS_DIR) -> dict[str, str]:
    """language_names.csv as {code: English name}, in the file's order (by name)."""
    path = Path(root) / NAMES_FILE
    header, *rows = _read_pinned(path, NAMES_SHA256).decode("utf-8").splitlines()
    assert header == _NAMES_HEADER, f"{path}: header {header!r}"  # pinned: cannot differ
    names = {}
    for row in rows:
        name, _, code = row.rpartition(", ")
        names[code.strip()] = name
    return names


@functools.cache
def bundled_names() -> dict[str, str]:
    """{code: English name} of the bundled corpus, read once."""
    return read_language_names(BUNDLED_CORPUS_DIR)


def bundled_languages(root: Path = BUNDLED_CORPUS_DIR) -> tuple[str, ...]:
    """Every bundled code: the six of the default run first, then the others by code."""
    names = bundled_names() if is_bundled(root) else read_language_names(root)
    return FLORES_LANGUAGES + tuple(sorted(set(names) - set(FLORES_LANGUAGES)))


def is_bundled(root: Path) -> bool:
    """Whether `root` is the bundled FLORES-200 folder (not a copy of it)."""
    root = Path(root)
    return root.is_dir() and root.resolve() == BUNDLED_CORPUS_DIR


def language_name(code: str) -> str:
    """'jpn_Jpan' -> 'Japanese'; a code without its script is its language, when the bundled
    corpus has it ('ces' -> 'Czech', 'zho' -> 'Chinese', from 'Chinese (Simplified)' and
    'Chinese (Traditional)'); any other code is returned as it is."""
    names = bundled_names()
    if code in names:
        return names[code]
    if "_" in code:
        return code
    varieties = {name.split(" (")[0] for other, name in names.items() if language_part(other) == language_part(code)}
    return varieties.pop() if len(varieties) == 1 else code


def load_flores(root: Path = BUNDLED_CORPUS_DIR, languages: Iterable[str] | None = None) -> Corpus:
    """Load bundled languages (exact codes; None: the six of `FLORES_LANGUAGES`), checking every
    file's text against its SHA-256 in the manifest."""
    root = Path(root)
    selected = select(bundled_languages(root), languages, root, default=FLORES_LANGUAGES)
    manifest = read_manifest(root)
    splits: dict[str, dict[str, tuple[str, ...]]] = {}
    checksums: dict[str, str] = {}
    for split in SPLITS:
        files = {code: bundled_file(root, split, code) for code in selected}
        lines = {}
        for code, path in files.items():
            lines[code] = decode_lines(read_bundled_text(split, code, root, manifest=manifest), path)
            checksums[manifest_key(split, code)] = manifest[manifest_key(split, code)]
        check_aligned(files, lines)
        splits[split] = lines
    # Where each English sentence was taken from (wikinews, wikibooks, wikivoyage): its domain.
    domains = {split: read_metadata_domains(root / f"metadata_{split}.tsv", BUNDLED_LINES[split]) for split in SPLITS}
    return Corpus(name="flores200", root=root, languages=selected, splits=splits, checksums=checksums,
                  domains=domains)


def read_bundled_text(split: str, code: str, root: Path = BUNDLED_CORPUS_DIR, *,
                      manifest: dict[str, str] | None = None) -> bytes:
    """One bundled file's text, as bytes (decompressed), checked against its SHA-256 in the
    manifest (`manifest`: SHA256SUMS already read, for a caller reading many files)."""
    manifest = read_manifest(root) if manifest is None else manifest
    path = bundled_file(root, split, code)
    key = manifest_key(split, code)
    if key not in manifest:
        raise BenchmarkError(f"{Path(root) / MANIFEST_FILE}: no {key}; {code!r} is not a bundled language")
    data = _read_text_bytes(path)
    digest = hashlib.sha256(data).hexdigest()
    if digest != manifest[key]:
        raise BenchmarkError(
            f"{path}: SHA-256 {digest} of its text does not match the pinned {manifest[key]}; "
            f"the bundled corpus was modified, {_RESTORE}"
        )
    return data


def _read_text_bytes(path: Path) -> bytes:
    """A bundled file's text as bytes, decompressed if it is xz."""
    data = _read_bundled_file(path)
    if path.suffix != ".xz":
        return data
    try:
        return lzma.decompress(data, format=lzma.FORMAT_XZ)
    except lzma.LZMAError as exc:
        raise BenchmarkError(f"{path}: not a valid xz file ({exc}); {_RESTORE}") from None


def _read_pinned(path: Path, pinned: str) -> bytes:
    data = _read_bundled_file(path)
    digest = hashlib.sha256(data).hexdigest()
    if digest != pinned:
        raise BenchmarkError(f"{path}: SHA-256 {digest} does not match the pinned {pinned}; "
                             f"the bundled corpus was modified, {_RESTORE}")
    return data


def _read_bundled_file(path: Path) -> bytes:
    if not path.exists():
        raise BenchmarkError(f"{path}: bundled corpus file is missing; {_RESTORE}")
    check_regular_file(path, "corpus file", hint=_RESTORE)
    return path.read_bytes()

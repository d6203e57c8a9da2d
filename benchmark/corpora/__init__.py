"""Parallel corpora: discovery, validation, checksums, and the language codes that name them.

A parallel corpus is one UTF-8 file per language in which line N is the same content in every
file. Two kinds are read:

- the bundled FLORES-200 (`flores.py`): 204 language varieties in `corpora/flores200/`, each file
  pinned by SHA-256 and checked when read; a run takes the six of the mission unless told
  otherwise;
- a user's folder of `<code>.txt` files (`folders.py`), either directly in the folder (one split,
  called `all`) or in `dev/` and `devtest/` subfolders.

Every line is read as strict UTF-8 and must be non-empty (`lines.py`); every language of a split
must have the same number of lines (`corpus.py`). Each failure is one `BenchmarkError` naming the
file and the line. What a user types (`hin`, `HIN`, `all`) becomes a corpus's code in
`languages.py`. `sums.py` reads a folder's SHA256SUMS, checked file by file when a folder carries one.
`domains.py` reads the per-line domain labels (what kind of text each line is) and
cuts a corpus to one domain's lines. `wmt24pp.py` builds the WMT24++ corpus folder from the released
jsonl files. `mixes.py` holds the training mixes: how much of each language's text trains our BPE.
`groups.py` reads each FLORES-200 variety's language family and resource class
(benchmark/corpora/language_groups/, with its sources).
`django_ui.py` is not read by a run: it builds the bundled UI-string corpora (corpora/django-ui/,
django-ui-wide/) from Django's gettext catalogs, offline (`python -m benchmark.corpora.django_ui`).
`code_sample.py` builds corpora/code/, a pinned sample of source code (Python, C, JavaScript) from
the stdlib and installed packages, offline; benchmark/measure/code_sample.py measures it.

This package knows nothing about tokenizers; the training/measuring protocol lives in
benchmark/measure/plan.py.
"""

from benchmark.corpora.corpus import ALL_SPLIT, SPLITS, Corpus
from benchmark.corpora.flores import (
    BUNDLED_CORPUS_DIR,
    BUNDLED_LINES,
    FLORES_LANGUAGES,
    bundled_languages,
    bundled_names,
    is_bundled,
    language_name,
    load_flores,
    read_bundled_text,
    read_manifest,
)
from benchmark.corpora.folders import default_languages, list_corpus_languages, load_corpus, named_corpus_dir
from benchmark.corpora.languages import (
    ENGLISH_CODES,
    ISO_639_1,
    english_code,
    is_right_to_left,
    language_part,
    one_per_script,
    resolve_code,
    resolve_codes,
    script_name,
    script_of,
)
from benchmark.corpora.lines import MAX_LINE_CHARS, read_lines, sha256_file

__all__ = [
    "ALL_SPLIT", "BUNDLED_CORPUS_DIR", "BUNDLED_LINES", "Corpus", "ENGLISH_CODES", "FLORES_LANGUAGES", "ISO_639_1",
    "MAX_LINE_CHARS", "SPLITS", "bundled_languages", "bundled_names", "default_languages", "english_code",
    "is_bundled", "is_right_to_left", "language_name", "language_part", "list_corpus_languages", "load_corpus",
    "load_flores", "named_corpus_dir", "one_per_script", "read_bundled_text", "read_lines", "read_manifest", "resolve_code", "resolve_codes",
    "script_name", "script_of", "sha256_file",
]

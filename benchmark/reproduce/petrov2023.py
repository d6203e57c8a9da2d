"""Petrov et al. 2023, "Language Model Tokenizers Introduce Unfairness Between Languages": their
token counts on FLORES-200, recomputed offline with their protocol.

Their protocol (compute/compute_tokenizations.py in their repository): per language, the dev and
then the devtest file, each read whole and split with `.split("\\n")`, so the empty string after
each final newline is kept, all the pieces joined with one space, and that one text encoded.
The pieces here come from the bundled corpus's text as pinned by SHA-256 (the same bytes as
theirs); they read in text mode, whose newline translation changes nothing: no file holds a CR.

What it leaves out: every published column that needs a file no runtime dependency ships (GPT-2,
r50k_base, p50k_base, p50k_edit and RoBERTa need GPT-2's ranks; LLAMA, XLM-RoBERTa, mT5, BLOOM and
the others need their models), listed in `NOT_COMPUTED` with the reason.
"""

from __future__ import annotations

import csv
import hashlib
import io
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from benchmark.corpora import BUNDLED_CORPUS_DIR, bundled_names, read_bundled_text
from benchmark.plumbing.errors import BenchmarkError

TITLE = ('Petrov, La Malfa, Torr and Bibi, "Language Model Tokenizers Introduce Unfairness Between '
         'Languages" (NeurIPS 2023)')
PROTOCOL = ('per language, dev then devtest, each file split with .split("\\n") (the empty string after '
            'the final newline kept), every piece joined with one space, encoded as one text')

DATA_DIR = Path(__file__).resolve().parents[2] / "data" / "published" / "petrov2023"
TABLE_FILE = "tokenization_lengths_validated.csv"
# Pinned: the published numbers are the yardstick, so a changed copy is refused, not compared.
TABLE_SHA256 = "756a77c38f575be00a70b07162b6fe62d74d1d86f4ce7c38b7a2d74462202247"
NO_VALUE = "–––"  # the table's mark for a tokenizer they did not count on a language

NOT_COMPUTED = {
    ("GPT-2", "r50k_base", "p50k_base", "p50k_edit", "RoBERTa"):
        "GPT-2's rank file, which no runtime dependency ships",
    ("Glot500", "SeamlessM4T", "NLLB", "LLAMA", "GottBERT", "CamemBERT", "PhoBERT", "RoCBert", "XLM-RoBERTa",
     "M2M100", "MBart50", "mT5", "FlanT5", "BLOOM", "ArabicBERT", "MuRIL", "BERT Japanese"):
        "their models' tokenizer files, a download",
}


@dataclass(frozen=True)
class Column:
    """A published column this suite computes: how, and a factory of the counting function (built
    when asked for: building an encoding reads its ranks, about a second)."""

    name: str
    method: str
    make_counter: Callable[[], Callable[[str], int]]


def _cl100k_counter() -> Callable[[str], int]:
    from benchmark.adapters.openai_tiktoken import load

    encode = load("cl100k_base").encoding.encode  # built as the run builds it: offline, hash-checked
    return lambda text: len(encode(text))


def _qwen_counter() -> Callable[[str], int]:
    from benchmark.adapters.alibaba_qwen import load

    # Qwen's tokenizer as the run builds it (QWenTokenizer: NFC first, which 33 languages count
    # otherwise without; then its ranks and PAT_STR on tiktoken, special tokens as text).
    encode = load("qwen").encode
    return lambda text: len(encode(text))


COLUMNS = {column.name: column for column in (
    Column("cl100k_base", "tiktoken cl100k_base (built offline as the run builds it), encode",
           _cl100k_counter),
    Column("Qwen", "Qwen's ranks (bpe-openai's voyage3_base = qwen.tiktoken) and PAT_STR in tiktoken, NFC, "
                   "encode_ordinary", _qwen_counter),
    Column("UTF-32", "characters (code points)", lambda: len),
    Column("CANINE", "characters (code points)", lambda: len),
    Column("ByT5", "UTF-8 bytes", lambda: lambda text: len(text.encode("utf-8"))),
)}


def protocol_text(code: str, root: Path = BUNDLED_CORPUS_DIR) -> str:
    """The one text a language is counted on: dev then devtest, split on "\\n", joined with a space."""
    pieces: list[str] = []
    for split in ("dev", "devtest"):
        pieces += read_bundled_text(split, code, root).decode("utf-8").split("\n")
    return " ".join(pieces)


def read_published(path: Path = DATA_DIR / TABLE_FILE) -> dict[str, dict[str, int | None]]:
    """{code: {column: published count, None where they counted nothing}}, rows keyed by the
    bundled corpus's code of each English name."""
    path = Path(path)
    if not path.is_file():
        raise BenchmarkError(f"{path}: the published table is missing; restore it with `git checkout data/`")
    data = path.read_bytes()
    digest = hashlib.sha256(data).hexdigest()
    if digest != TABLE_SHA256:
        raise BenchmarkError(f"{path}: SHA-256 {digest} does not match the pinned {TABLE_SHA256}; "
                             "restore it with `git checkout data/`")
    code_of = {name: code for code, name in bundled_names().items()}
    table = {}
    for row in csv.DictReader(io.StringIO(data.decode("utf-8"))):
        name = row.pop("Language")
        counts = {column: None if cell == NO_VALUE else int(cell) for column, cell in row.items()}
        table[code_of[name]] = counts  # pinned, so every name is one of the bundled corpus's
    return table

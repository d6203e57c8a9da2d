"""The code sample measured: each tokenizer's tokens on each programming language's file of
corpora/code/ (results/code.py holds them). Each file is encoded whole, as one plain text (the
adapters' `encode`, as every count): code is sent to a model as a file, its newlines and indents
part of what is charged. A run measures the production tokenizers and a user's files, not the
ones it trains: under a second for the 17 production tokenizers (150 kB of text each).

    costs = measure_code(adapters, read_sample())
"""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Sequence

from benchmark.adapters import Adapter
from benchmark.adapters.families import is_trained
from benchmark.corpora.code_sample import CODE_DIR, LANGUAGES  # the sample's files, <language>.txt, in report order
from benchmark.corpora.sums import SUMS_FILE, read_sums
from benchmark.plumbing.errors import BenchmarkError
from benchmark.results.code import CodeCost, CodeCosts



def read_sample(folder: Path = CODE_DIR) -> dict[str, tuple[str, str]]:
    """language -> (its file's text, its SHA-256), each checked against the folder's SHA256SUMS;
    {} when the folder is not there (a package installed without the repository's corpora)."""
    if not (folder / SUMS_FILE).is_file():
        return {}
    sums = read_sums(folder / SUMS_FILE)
    sample = {}
    for language in LANGUAGES:
        path = folder / f"{language}.txt"
        try:
            data = path.read_bytes()
            text = data.decode("utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            raise BenchmarkError(f"{path}: cannot be read as UTF-8 ({exc}); rebuild it with "
                                 "`python -m benchmark.corpora.code_sample`") from None
        digest = hashlib.sha256(data).hexdigest()
        if sums.get(path.name) != digest:
            raise BenchmarkError(f"{path}: SHA-256 {digest} is not the one in {folder / SUMS_FILE}; rebuild it "
                                 "with `python -m benchmark.corpora.code_sample` (or restore it from git)")
        sample[language] = (text, digest)
    return sample


def measure_code(tokenizers: Sequence[Adapter], sample: dict[str, tuple[str, str]]) -> CodeCosts:
    """Every tokenizer's tokens on every language of `sample`, in run order; a tokenizer that
    raises on a file has no entry for it (the FLORES rows say how it fails)."""
    if not sample:
        return CodeCosts()
    entries = []
    for tokenizer in tokenizers:
        for language, (text, _) in sample.items():
            try:
                n_tokens = len(tokenizer.encode(text))
            except Exception:  # a tokenizer's own failure: the run goes on without this cell
                continue
            if n_tokens:
                entries.append(CodeCost(tokenizer.id, language, len(text.encode("utf-8")), text.count("\n"), n_tokens))
    return CodeCosts({f"{language}.txt": digest for language, (_, digest) in sample.items()}, tuple(entries))


def code_costs(tokenizers: Sequence[Adapter]) -> CodeCosts:
    """The run's step: the bundled sample read and measured on `tokenizers` but the ones trained
    here (they learn from the run's prose, never from code, and HF's take 0.2-0.4 s each on it)."""
    return measure_code([t for t in tokenizers if not is_trained(t.family)], read_sample())

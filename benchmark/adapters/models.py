"""Which models use each production tokenizer: one data file, `models.csv` beside this module.

Each line (a `ModelInfo`, the type the run record keeps them in) names a model as its vendor's API or Hugging Face repository does (`gpt-4o`,
`llama-4-maverick-17b-128e-instruct`), its tokenizer id, a short label for tables ("GPT-4o"),
where the pairing comes from and when that was read, and a note where one is due. The pairings
come from the vendors' own code where it exists (tiktoken's MODEL_TO_ENCODING and
MODEL_PREFIX_TO_ENCODING, mistral-common's MODEL_NAME_TO_TOKENIZER_CLS, llama-models' registry,
Alibaba's dashscope, Google's MaxText; tests/test_models.py checks each line against that code),
otherwise from the vendor's documentation, named in `source`.

A name matches a model exactly, as a dated or sized variant of it (tiktoken's rule: `gpt-4o-2024-08-06`
is gpt-4o), or as the start of model names that all share one tokenizer (`llama-4-maverick`).

    >>> tokenizers_of(["gpt-5", "llama-4-maverick"])
    ['tiktoken/o200k_base', 'llama/llama4']
    >>> tokenizer_label("tiktoken/o200k_base")
    'o200k_base (GPT-4o, GPT-4.1, GPT-5, o3, gpt-oss ...)'
"""

from __future__ import annotations

import csv
import difflib
import io
from functools import lru_cache
from pathlib import Path
from typing import Iterable, Sequence

from benchmark.plumbing.errors import BenchmarkError
from benchmark.results.record import ModelInfo

MODELS_FILE = Path(__file__).with_name("models.csv")
FIELDS = ("model", "tokenizer", "label", "source", "read_on", "note")
LABELLED_MODELS = 5  # model labels a table shows after a tokenizer's name, before "..."


@lru_cache(maxsize=1)
def all_models() -> tuple[ModelInfo, ...]:
    """Every line of the models file, in its order (each tokenizer's models, best known first)."""
    text = MODELS_FILE.read_text(encoding="utf-8")
    reader = csv.DictReader(io.StringIO(text))
    if tuple(reader.fieldnames or ()) != FIELDS:
        raise BenchmarkError(f"{MODELS_FILE}: expected the columns {','.join(FIELDS)}; restore the file")
    return tuple(ModelInfo(**row) for row in reader)


def models_of(tokenizer_id: str) -> tuple[ModelInfo, ...]:
    """The models that use a tokenizer, in the file's order; () for a tokenizer no model lists."""
    return tuple(m for m in all_models() if m.tokenizer == tokenizer_id)


def find_models(name: str) -> tuple[ModelInfo, ...]:
    """The models `name` stands for: the model itself, the model a variant of it belongs to
    (`gpt-4o-2024-08-06`: the longest listed model it starts with, then "-"), or every model
    whose name starts with it and "-" (`llama-4-maverick`). () when none."""
    wanted = name.strip().lower()
    models = all_models()
    exact = tuple(m for m in models if m.model == wanted)
    if exact:
        return exact
    bases = [m for m in models if wanted.startswith(m.model + "-")]
    if bases:
        longest = max(len(m.model) for m in bases)
        return tuple(m for m in bases if len(m.model) == longest)
    return tuple(m for m in models if m.model.startswith(wanted + "-"))


def tokenizers_of(names: Iterable[str]) -> list[str]:
    """The production tokenizers the named models use, in the order first named, each once.

    An unknown name, or one that stands for models of two tokenizers, is one line naming the
    close matches."""
    found: list[str] = []
    for name in names:
        models = find_models(name)
        tokenizers = list(dict.fromkeys(m.tokenizer for m in models))
        if not tokenizers:
            close = difflib.get_close_matches(name.strip().lower(), [m.model for m in all_models()], n=5, cutoff=0.5)
            raise BenchmarkError(f"unknown model {name!r}; " + (f"close: {', '.join(close)}" if close else
                                 "`python -m benchmark list` names the tokenizers, models.csv their models"))
        if len(tokenizers) > 1:
            raise BenchmarkError(f"model {name!r} stands for models of {len(tokenizers)} tokenizers "
                                 f"({', '.join(tokenizers)}); name one of {', '.join(m.model for m in models[:6])}")
        if tokenizers[0] not in found:
            found.append(tokenizers[0])
    return found


def model_labels(models: Sequence[ModelInfo]) -> list[str]:
    """The models' labels, each once, in order: GPT-4o, GPT-4.1, ..."""
    return list(dict.fromkeys(m.label for m in models))


def tokenizer_label(tokenizer_id: str, models: Sequence[ModelInfo] | None = None, *, n_labels: int = LABELLED_MODELS,
                    name: str | None = None) -> str:
    """The tokenizer's name with its models, for a table: "o200k_base (GPT-4o, GPT-4.1, GPT-5, o3,
    gpt-oss ...)"; with the models' note where they carry one ("...; only accurate for older
    models such as claude-2.1, not today's Claude"). `models`: as a run record gives them (so a
    report re-renders from results.json), by default the models file's; `name`: how the tokenizer
    is named (default the id's last part)."""
    models = models_of(tokenizer_id) if models is None else tuple(models)
    name = tokenizer_id.rpartition("/")[2] if name is None else name
    labels = model_labels(models)
    notes = list(dict.fromkeys(m.note for m in models if m.note))
    if not labels:
        return name
    shown = ", ".join(labels[:n_labels]) + (" ..." if len(labels) > n_labels else "")
    return f"{name} ({shown}{''.join('; ' + note for note in notes)})"

"""Which models use each production tokenizer: one data file, `models.csv` beside this module.

Each line (a `ModelInfo`, the type the run record keeps them in) names a model as its vendor's API or Hugging Face repository does (`gpt-4o`,
`llama-4-maverick-17b-128e-instruct`), its tokenizer id, a short label for tables ("GPT-4o"),
where the pairing comes from and when that was read, and a note where one is due. The pairings
come from the vendors' own code where it exists (tiktoken's MODEL_TO_ENCODING and
MODEL_PREFIX_TO_ENCODING, mistral-common's MODEL_NAME_TO_TOKENIZER_CLS, llama-models' registry,
Alibaba's dashscope, Google's MaxText; tests/adapters/test_models.py checks each line against that code),
otherwise from the vendor's documentation, named in `source`.

A name matches a model exactly, as a dated or numbered snapshot of it (`gpt-4o-2024-08-06` is
gpt-4o, `gpt-4-0613` gpt-4), or as the start of model names that all share one tokenizer and
carry a version (`llama-4-maverick`, `gemini-2.5`). A brand without a version (`claude`, `grok`,
`gemini`) is not a model: it is refused with the models it would stand for, since the ones listed
may not be today's (Claude's listed tokenizer is only accurate for claude-2.1 and older). A model
whose tokenizer its vendor does not publish (Gemini 3.6) is listed with an empty tokenizer and
refused by name: no count is guessed for it.

    >>> tokenizers_of(["gpt-5", "llama-4-maverick"])
    ['tiktoken/o200k_base', 'llama/llama4']
    >>> tokenizer_label("tiktoken/o200k_base")
    'o200k_base (GPT-4o, GPT-4.1, GPT-5, o3, gpt-oss ...)'
"""

from __future__ import annotations

import csv
import difflib
import io
import re
from functools import lru_cache
from pathlib import Path
from typing import Iterable, Sequence

from benchmark.plumbing.errors import BenchmarkError
from benchmark.results.record import ModelInfo

MODELS_FILE = Path(__file__).with_name("models.csv")
FIELDS = ("model", "tokenizer", "label", "source", "read_on", "note")
LABELLED_MODELS = 5  # model labels a table shows after a tokenizer's name, before "..."
# What may follow a listed model's name in a snapshot of it: a date or a number (2024-08-06, 0613, 001).
SNAPSHOT = re.compile(r"\d+(?:-\d+)*")


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
    """The models `name` stands for: the model itself, the model a snapshot of it belongs to
    (`gpt-4o-2024-08-06`: the longest listed model it starts with, then "-" and numbers), or every
    model whose name starts with it and "-" (`llama-4-maverick`). () when none."""
    wanted = name.strip().lower()
    models = all_models()
    exact = tuple(m for m in models if m.model == wanted)
    if exact:
        return exact
    bases = [m for m in models if wanted.startswith(m.model + "-") and SNAPSHOT.fullmatch(wanted[len(m.model) + 1:])]
    if bases:
        longest = max(len(m.model) for m in bases)
        return tuple(m for m in bases if len(m.model) == longest)
    return tuple(m for m in models if m.model.startswith(wanted + "-"))


def models_named(name: str) -> tuple[ModelInfo, ...]:
    """`find_models`, checked: the models of one published tokenizer that `name` stands for, or one
    line saying why not (unknown, with close matches; a brand without a version; a tokenizer not
    published; models of several tokenizers)."""
    wanted = name.strip().lower()
    models = find_models(wanted)
    listed = [m.model for m in all_models()]
    if not models:
        close = difflib.get_close_matches(wanted, listed, n=5, cutoff=0.5)
        raise BenchmarkError(f"unknown model {name!r}; " + (f"close: {', '.join(close)}" if close else
                             "`python -m benchmark list` names the tokenizers, models.csv their models"))
    unpublished = [m for m in models if not m.tokenizer]
    if unpublished:
        if len(models) == 1:
            raise BenchmarkError(f"model {models[0].model!r}: tokenizer not published ({models[0].source}); "
                                 "no count is made for it, none is guessed")
        if len(unpublished) == len(models):
            raise BenchmarkError(f"{name!r} stands for models whose tokenizer is not published "
                                 f"({_some(m.model for m in models)}; {models[0].source}); no count is made for "
                                 "them, none is guessed")
        raise BenchmarkError(f"{name!r} stands for models whose tokenizer is not published "
                             f"({_some(m.model for m in unpublished)}); name one of the others: "
                             f"{_some(m.model for m in models if m.tokenizer)}")
    tokenizers = list(dict.fromkeys(m.tokenizer for m in models))
    if len(tokenizers) > 1:
        raise BenchmarkError(f"model {name!r} stands for models of {len(tokenizers)} tokenizers "
                             f"({', '.join(tokenizers)}); name one of {', '.join(m.model for m in models[:6])}")
    by_prefix = all(m.model.startswith(wanted + "-") for m in models)
    if by_prefix and not any(char.isdigit() for char in wanted):  # a brand: `claude`, `grok`
        notes = list(dict.fromkeys(m.note for m in models if m.note))
        what = "the listed model" if len(models) == 1 else f"{len(models)} listed models"
        raise BenchmarkError(f"{name!r} is not a model name but the start of {what}"
                             + (f" ({notes[0]})" if len(notes) == 1 else "")
                             + f"; name one: {_some(m.model for m in models)}")
    return models


def _some(names: Iterable[str], shown: int = 6) -> str:
    names = list(names)
    return ", ".join(names[:shown]) + (f" and {len(names) - shown} more" if len(names) > shown else "")


def tokenizers_of(names: Iterable[str]) -> list[str]:
    """The production tokenizers the named models use, in the order first named, each once; a name
    `models_named` refuses is one line naming why."""
    found: list[str] = []
    for name in names:
        tokenizer = models_named(name)[0].tokenizer
        if tokenizer not in found:
            found.append(tokenizer)
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

"""The default shortlist: each vendor's current flagship, one data file `flagships.csv` beside
this module (vendor, model, where it is named the flagship, when that was read).

A flagship is a model of the models file with a published tokenizer, so its tokens are measured,
not guessed; a vendor whose current models' tokenizer is not published (Anthropic: its SDK's
counter is only accurate for claude-2.1 and older; xAI: Grok-1's open weights only; Z.ai and MiniMax:
GLM-5.3's and MiniMax-M3's are not carried, their GLM-5 and M2 are) has no line.
The many-language report prices this shortlist per language (report/pages/by_language_section.py).

    >>> [f.vendor for f in flagships()][:2]
    ['OpenAI', 'Google']
"""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from benchmark.adapters.models import all_models
from benchmark.plumbing.errors import BenchmarkError

FLAGSHIPS_FILE = Path(__file__).with_name("flagships.csv")
FIELDS = ("vendor", "model", "source", "read_on")


@dataclass(frozen=True)
class Flagship:
    vendor: str  # "OpenAI"
    model: str  # "gpt-5", a model of models.csv
    tokenizer: str  # its tokenizer id, from models.csv
    source: str  # where the model is named the vendor's flagship
    read_on: str  # ISO date the source was read


@lru_cache(maxsize=1)
def flagships() -> tuple[Flagship, ...]:
    """Every line of flagships.csv with its model's tokenizer, in the file's order."""
    reader = csv.DictReader(io.StringIO(FLAGSHIPS_FILE.read_text(encoding="utf-8")))
    if tuple(reader.fieldnames or ()) != FIELDS:
        raise BenchmarkError(f"{FLAGSHIPS_FILE}: expected the columns {','.join(FIELDS)}; restore the file")
    tokenizer_of = {model.model: model.tokenizer for model in all_models()}
    found = []
    for number, row in enumerate(reader, start=2):
        tokenizer = tokenizer_of.get(row["model"])
        if not tokenizer:
            raise BenchmarkError(f"{FLAGSHIPS_FILE}, line {number}: {row['model']!r} is not a model of models.csv "
                                 "with a published tokenizer")
        found.append(Flagship(row["vendor"], row["model"], tokenizer, row["source"], row["read_on"]))
    return tuple(found)

"""Meta's Llama 3 and Llama 4 vocabularies: `llama/llama3`, `llama/llama4`.

Both are tiktoken rank files that Meta's `llama-models` package ships
(`llama_models/llama3/tokenizer.model`, `llama_models/llama4/tokenizer.model`), byte for byte the
files of Meta's GitHub repository meta-llama/llama-models (same git blob ids); each is pinned here
by SHA-256. They are counted as Meta's own `Tokenizer.encode(s, bos=False, eos=False)` counts them:
tiktoken on those ranks with Meta's pattern (Llama 3: its `pat_str`; Llama 4: o200k's pattern,
which Meta's code copies), special tokens not parsed. Meta's encoder also cuts a text into slices
of at most 400,000 characters (and runs of 25,000 spaces or non-spaces) before tiktoken sees it; a
FLORES sentence is far below both, so the ids are the same.

The package is never imported: its files are read from its folder.
"""

from __future__ import annotations

from benchmark.adapters.base import Adapter, Recipe
from benchmark.adapters.openai_tiktoken import RankVocabulary, vendor_rank_adapter
from benchmark.adapters.table import PRODUCTION, VENDOR_GITHUB, Family, pick_file, pretrained
from benchmark.plumbing.pinned import PinnedFile

FAMILY = Family("llama", "Meta Llama", PRODUCTION, order=30, byte_level=True)
PACKAGE, MODULE = "llama-models", "llama_models"

# llama_models/llama3/tokenizer.py, Tokenizer.pat_str (a test checks it against the package's).
LLAMA3_PATTERN = (
    r"(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n]*"
    r"|\s*[\r\n]+|\s+(?!\S)|\s+"
)

FILES: dict[str, PinnedFile] = {
    "llama3": PinnedFile(PACKAGE, MODULE, "llama3/tokenizer.model",
                         "82e9d31979e92ab929cd544440f129d9ecd797b69e327f80f17e1c50d5551b55", VENDOR_GITHUB),
    "llama4": PinnedFile(PACKAGE, MODULE, "llama4/tokenizer.model",
                         "d0bdbaf59b0762c8c807617e2d8ea51420eb1b1de266df2495be755c8e0ed6ed", VENDOR_GITHUB),
}
TOKENIZERS = pretrained(FAMILY, FILES)
# Meta's Tokenizer.num_reserved_special_tokens: the special ids after the ranks.
N_SPECIAL = {"llama3": 256, "llama4": 2048}


def vendor_file(name: str) -> PinnedFile:
    return pick_file(FILES, name, "Llama")


def rank_vocabulary(name: str) -> RankVocabulary:
    """The ranks and pattern of `name` ("llama3" or "llama4"), from the hash-checked file."""
    from benchmark.bpe.openai_ranks import pinned_ranks
    from benchmark.bpe.patterns import O200K_PATTERN

    file = vendor_file(name)
    ranks = pinned_ranks(file)
    n_ranks = len(ranks)
    return RankVocabulary(ranks=ranks, pattern=LLAMA3_PATTERN if name == "llama3" else O200K_PATTERN,
                          n_vocab=n_ranks + N_SPECIAL[name],
                          special_ids=f"{n_ranks}-{n_ranks + N_SPECIAL[name] - 1}")


def load(name: str) -> Adapter:
    """`llama/<name>`: tiktoken on Meta's ranks and pattern."""
    return vendor_rank_adapter(rank_vocabulary(name), vendor_file(name), id=f"{FAMILY.family}/{name}",
                               family=FAMILY.family,
                               recipe=Recipe(f"{__name__}:load", (name,)))

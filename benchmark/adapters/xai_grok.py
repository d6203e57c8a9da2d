"""xAI's Grok-1 vocabulary: `xai/grok1`.

No package on PyPI ships it, and Apache 2.0 allows carrying it: the file is
`benchmark/vocabularies/grok1/tokenizer.model.gz`, the bytes of `tokenizer.model` in the GitHub
repository xai-org/grok-1 at commit 7050ed2 (benchmark/vocabularies/README.md), pinned by SHA-256.

Counted with sentencepiece as xAI's own code counts (run.py of that repository builds a
`SentencePieceProcessor` on the file and calls `encode`; BOS, where it adds one, is the
caller's): a BPE model with byte fallback, identity normaliser and a dummy prefix space, as
Mistral's SentencePiece models (the model says so). Its 65 user-defined pieces (runs of line
breaks, tabs and spaces, each of the ten digits, `<|separator|>`, `<|mask|>` and
`<|control1|>`..`<|control20|>`) are matched inside text, as in xAI's encoder: no switch turns
that off (no tag occurs in the six default languages' FLORES-200 text).
"""

from __future__ import annotations

from benchmark.adapters.base import Adapter, Recipe
from benchmark.adapters.table import PRODUCTION, Family, pick_file, pretrained
from benchmark.plumbing.pinned import SUITE_MODULE, SUITE_PACKAGE, PinnedFile

FAMILY = Family("xai", "xAI Grok", PRODUCTION, order=80)
FILES: dict[str, PinnedFile] = {
    "grok1": PinnedFile(
        SUITE_PACKAGE, SUITE_MODULE, "vocabularies/grok1/tokenizer.model.gz",
        "5c69d7cbad192fa2c9d14e2a77fbfdc11597c68907b043ddb0260e3d28eddd7f",
        "carried in this package (Apache 2.0, vocabularies/grok1/LICENSE.txt): the bytes of tokenizer.model in "
        "xAI's GitHub repository xai-org/grok-1 at commit 7050ed2",
        licence="vocabularies/grok1/LICENSE.txt"),
}
TOKENIZERS = pretrained(FAMILY, FILES)


def vendor_file(name: str = "grok1") -> PinnedFile:
    return pick_file(FILES, name, "Grok")


def load(name: str = "grok1") -> Adapter:
    """`xai/<name>`: sentencepiece on the carried model, no BOS/EOS."""
    from benchmark.adapters.google_sentencepiece import vendor_sentencepiece

    return vendor_sentencepiece(vendor_file(name), id=f"{FAMILY.family}/{name}", family=FAMILY.family,
                                vocabulary="Grok-1's pieces", vendor="xAI", recipe=Recipe(f"{__name__}:load", (name,)))

"""Google's Gemma 4 vocabulary: `google/gemma4`.

No package installable on Python 3.11 ships it, and Apache 2.0 allows carrying it: the file is
`benchmark/vocabularies/gemma4/tokenizer.model.gz`, the bytes of MaxText 0.2.5's
`tokenizer_gemma4.model` (benchmark/vocabularies/README.md), pinned by SHA-256. Its ordinary
pieces, scores and normaliser are Gemma 3's; only 6,206 user-defined pieces differ (Gemma 3's
`<start_of_turn>` and other tags renamed, `<unusedN>` renumbered), so its plain-text counts are
Gemma 3's (the same ids on every dev and devtest line of the 204 FLORES-200 languages, against
MaxText's `tokenizer.gemma3`: docs/measurements/2026-12-02-gemini.md). Gemini is counted with it
too: Google's SDK names Gemma 3's tokenizer (a cleaned file in no package) or Gemma 4's for each
of its 19 Gemini models (models.csv, whose note on every Gemini row says which file was counted).

Counted with sentencepiece as Google's own code counts (MaxText's and gemma_pytorch's
`SentencePieceProcessor.encode`; BOS is added by the caller, which the plain-text contract
does not): a BPE model with byte fallback, identity normaliser and no dummy prefix (the model says so:
"Hello" is one piece without ▁; Mistral's and Grok's models add one). Its 6,410 user-defined
pieces (runs of line breaks and of spaces, HTML tags such as `<table>`, the chat and tool tags
`<|turn>`, `<|tool>`, ..., and `<unused0>`...) are matched inside plain text, as in Google's
encoder: no switch turns that off (no tag occurs in the six default languages' FLORES-200 text).
"""

from __future__ import annotations

from benchmark.adapters.base import Adapter, Recipe
from benchmark.adapters.table import PRODUCTION, Family, pick_file, pretrained
from benchmark.plumbing.pinned import SUITE_MODULE, SUITE_PACKAGE, PinnedFile

FAMILY = Family("google", "Google Gemma", PRODUCTION, order=70)
FILES: dict[str, PinnedFile] = {
    "gemma4": PinnedFile(
        SUITE_PACKAGE, SUITE_MODULE, "vocabularies/gemma4/tokenizer.model.gz",
        "9f318ac4dc02f8580e3f65ff0b37286e7c3d1e5d664737bb2c8ca812b5453162",
        "carried in this package (Apache 2.0, vocabularies/gemma4/LICENSE): the bytes of "
        "maxtext==0.2.5's maxtext/assets/tokenizers/tokenizer_gemma4.model (Google's MaxText on PyPI)",
        licence="vocabularies/gemma4/LICENSE"),
}
TOKENIZERS = pretrained(FAMILY, FILES)
NOTES = {"gemma4": "Gemma 4's pieces (its plain-text counts are Gemma 3's)"}


def vendor_file(name: str = "gemma4") -> PinnedFile:
    return pick_file(FILES, name, "Gemma")


def load(name: str = "gemma4") -> Adapter:
    """`google/<name>`: sentencepiece on the carried model, no BOS/EOS."""
    from benchmark.adapters.google_sentencepiece import vendor_sentencepiece

    return vendor_sentencepiece(vendor_file(name), id=f"{FAMILY.family}/{name}", family=FAMILY.family,
                                vocabulary=NOTES[name], vendor="Google", recipe=Recipe(f"{__name__}:load", (name,)))

"""Mistral AI's vocabularies: `mistral/tekken` (tiktoken) and `mistral/sp-v1`, `mistral/sp-v7`
(SentencePiece).

All three files ship in Mistral's `mistral-common` package (`mistral_common/data/`), byte for byte
the files of Mistral's GitHub repository mistralai/mistral-common (same git blob ids); each is
pinned here by SHA-256. The package is never imported (its import takes half a second and loads
pydantic, numpy and Pillow): its files are read from its folder.

- Tekken (`tekken_240718.json`, the NeMo/Nemo-era tokenizer): a JSON of 150,000 ranks and a config.
  Mistral's `Tekkenizer` uses the first default_vocab_size - default_num_special_tokens = 130,072
  ranks and shifts every id by the 1,000 special ids that come first; so do we, on tiktoken with
  the pattern the file's config gives. `tekken_240911.json` holds the same ranks (plus an image
  config), so it would be the same row.
- SentencePiece v1 (`tokenizer.model.v1`, Mistral 7B's 32,000 pieces) and v7
  (`mistral_instruct_tokenizer_241114.model.v7`, 32,768): BPE with byte fallback, identity
  normaliser, a dummy prefix space, counted with sentencepiece and no BOS, as Mistral's
  `SentencePieceTokenizer.encode(s, bos=False, eos=False)` counts. v2 and v3 hold v7's pieces
  (they differ only in the names of control ids below 771), so v7 stands for all three. v7's
  ordinary pieces are v1's, 768 ids higher: the two count the same on text without v7's
  user-defined pieces ([REF], [/REF], [REFERENCE_DOC_0]..[REFERENCE_DOC_19]), which sentencepiece
  matches inside plain text (no switch turns that off; none occurs in FLORES-200).
"""

from __future__ import annotations

import base64
import json

from benchmark.adapters.base import Adapter, Recipe
from benchmark.adapters.openai_tiktoken import RankVocabulary, vendor_rank_adapter
from benchmark.adapters.table import PRODUCTION, VENDOR_GITHUB, Family, pick_file, pretrained
from benchmark.plumbing.errors import BenchmarkError
from benchmark.plumbing.pinned import PinnedFile, read_pinned

FAMILY = Family("mistral", "Mistral", PRODUCTION, order=40)
PACKAGE, MODULE = "mistral-common", "mistral_common"

FILES: dict[str, PinnedFile] = {
    "tekken": PinnedFile(PACKAGE, MODULE, "data/tekken_240718.json",
                         "eccd1665d2e477697c33cb7f0daa6f6dfefc57a0a6bceb66d4be52952f827516", VENDOR_GITHUB),
    "sp-v1": PinnedFile(PACKAGE, MODULE, "data/tokenizer.model.v1",
                        "dadfd56d766715c61d2ef780a525ab43b8e6da4de6865bda3d95fdef5e134055", VENDOR_GITHUB),
    "sp-v7": PinnedFile(PACKAGE, MODULE, "data/mistral_instruct_tokenizer_241114.model.v7",
                        "1b968b8dc352f42192367337c78ccc61e1eaddc6d641a579372d4f20694beb7a", VENDOR_GITHUB),
}
TOKENIZERS = pretrained(FAMILY, FILES)
SENTENCEPIECE_NOTES = {
    "sp-v1": "Mistral 7B v0.1's pieces",
    "sp-v7": "the pieces of Mistral's v2, v3 and v7 SentencePiece tokenizers (identical but for control ids)",
}


def vendor_file(name: str) -> PinnedFile:
    return pick_file(FILES, name, "Mistral")


def rank_vocabulary(name: str = "tekken") -> RankVocabulary:
    """Tekken's ranks as Mistral's Tekkenizer builds them: the first 130,072, each id 1,000 up."""
    if name != "tekken":
        raise BenchmarkError(f"{name!r} is a SentencePiece vocabulary; only 'tekken' has ranks")
    file = vendor_file(name)
    document = json.loads(read_pinned(file))  # pinned bytes: the layout is known
    config = document["config"]
    n_special = config["default_num_special_tokens"]
    n_vocab = config["default_vocab_size"]
    entries = document["vocab"][: n_vocab - n_special]
    ranks = {base64.b64decode(entry["token_bytes"]): n_special + entry["rank"] for entry in entries}
    if len(ranks) != len(entries) or any(entry["rank"] != i for i, entry in enumerate(entries)):
        raise BenchmarkError(f"{file.file}: Tekken's ranks must be 0, 1, 2, ... with no token twice (Mistral's "
                             f"Tekkenizer refuses it too); reinstall it with `{file.install_hint}`")
    return RankVocabulary(ranks=ranks, pattern=config["pattern"], n_vocab=n_vocab,
                          special_ids=f"0-{n_special - 1}")


def load(name: str) -> Adapter:
    """`mistral/<name>`: Tekken on tiktoken, the SentencePiece models on sentencepiece."""
    recipe = Recipe(f"{__name__}:load", (name,))
    if name == "tekken":
        return vendor_rank_adapter(rank_vocabulary(name), vendor_file(name), id=f"{FAMILY.family}/{name}",
                                   family=FAMILY.family, recipe=recipe)
    from benchmark.adapters.google_sentencepiece import vendor_sentencepiece

    return vendor_sentencepiece(vendor_file(name), id=f"{FAMILY.family}/{name}", family=FAMILY.family,
                                vocabulary=SENTENCEPIECE_NOTES[name], vendor="Mistral", recipe=recipe)

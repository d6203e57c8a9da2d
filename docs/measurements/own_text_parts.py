"""What `cost --file` spends its time on, part by part, for each production tokenizer: reading the
pinned file (decompress, SHA-256), the vendor's native engine alone built from those bytes (the
floor: tiktoken's own rank parse and Encoding, SentencePieceProcessor, HF Tokenizer.from_str), our
adapter as `cost --file` loads it, and encoding the text. Medians of ROUNDS rounds, in one process.

    PYTHONPATH=. python docs/measurements/own_text_parts.py FILE [ROUNDS]
"""

from __future__ import annotations

import base64
import json
import statistics
import sys
import time
from pathlib import Path


def native_engine(tokenizer_id: str, data: bytes):
    """The vendor's engine from the pinned bytes, with no check or table of ours."""
    import tiktoken

    family, name = tokenizer_id.split("/")
    if family in ("tiktoken", "llama", "qwen") or name == "tekken":
        if name == "tekken":
            document = json.loads(data)
            config = document["config"]
            n_special = config["default_num_special_tokens"]
            entries = document["vocab"][: config["default_vocab_size"] - n_special]
            ranks = {base64.b64decode(e["token_bytes"]): n_special + e["rank"] for e in entries}
        else:
            ranks = {base64.b64decode(t): int(r) for t, r in (line.split() for line in data.splitlines() if line)}
        return tiktoken.Encoding(name=name, pat_str=r"\S+|\s+", mergeable_ranks=ranks, special_tokens={})
    if family in ("deepseek", "anthropic"):
        from tokenizers import Tokenizer

        return Tokenizer.from_str(data.decode("utf-8"))
    import sentencepiece as spm

    return spm.SentencePieceProcessor(model_proto=data)


def main(path: str, rounds: int = 3) -> None:
    t0 = time.perf_counter()
    from benchmark.adapters.families import VENDOR_VOCABULARIES
    from benchmark.adapters.registry import PRETRAINED, pretrained_file
    from benchmark.plumbing.pinned import read_pinned

    import_seconds = time.perf_counter() - t0
    text = Path(path).read_text(encoding="utf-8")
    parts: dict[str, dict[str, list[float]]] = {t: {"read": [], "native": [], "adapter": [], "encode": []}
                                                 for t in VENDOR_VOCABULARIES}
    for _ in range(rounds):
        for tokenizer_id in VENDOR_VOCABULARIES:
            mine = parts[tokenizer_id]
            start = time.perf_counter()
            data = read_pinned(pretrained_file(tokenizer_id))
            mine["read"].append(time.perf_counter() - start)
            start = time.perf_counter()
            native_engine(tokenizer_id, data)
            mine["native"].append(time.perf_counter() - start)
            start = time.perf_counter()
            adapter = PRETRAINED[tokenizer_id]()
            mine["adapter"].append(time.perf_counter() - start)
            start = time.perf_counter()
            adapter.encode(text)
            mine["encode"].append(time.perf_counter() - start)
    print(f"import of the table and registry: {import_seconds:.3f} s (once)")
    print(f"{'tokenizer':26} {'read':>7} {'native':>7} {'adapter':>8} {'encode':>7}   (medians of {rounds}, s)")
    totals = dict.fromkeys(("read", "native", "adapter", "encode"), 0.0)
    for tokenizer_id, mine in parts.items():
        medians = {part: statistics.median(values) for part, values in mine.items()}
        for part, value in medians.items():
            totals[part] += value
        print(f"{tokenizer_id:26} {medians['read']:7.3f} {medians['native']:7.3f} {medians['adapter']:8.3f} "
              f"{medians['encode']:7.3f}")
    print(f"{'total':26} {totals['read']:7.3f} {totals['native']:7.3f} {totals['adapter']:8.3f} {totals['encode']:7.3f}")
    print_answer_parts(path)


def print_answer_parts(path: str) -> None:
    """The answer's other parts, once each: reading the file, the price list, rendering."""
    import datetime as dt

    from benchmark.measure.own_text import OwnCount, read_own_texts
    from benchmark.pricing.prices.listings import listing_reasons
    from benchmark.pricing.file.answer import render_own_cost
    from benchmark.pricing.file.figures import price_list

    start = time.perf_counter()
    texts = read_own_texts([path])
    read_seconds = time.perf_counter() - start
    start = time.perf_counter()
    models, listings = price_list(dt.date(2026, 12, 2))
    price_seconds = time.perf_counter() - start
    counts = [OwnCount(t, (1000,), 0.0, 0.0) for t in models]  # rendering does not depend on the counts' values
    start = time.perf_counter()
    render_own_cost(texts, counts, models, listings, reasons=listing_reasons())
    render_seconds = time.perf_counter() - start
    print(f"read and check the file {read_seconds:.3f} s, price list {price_seconds:.3f} s, render {render_seconds:.3f} s")


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 3)

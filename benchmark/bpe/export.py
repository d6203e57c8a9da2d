"""Our models in other libraries: a `tiktoken.Encoding` and a HuggingFace `tokenizer.json` that
give our ids.

What this module adds: the translation of a model's content (pattern, merges or ranks, special
tokens) into what another engine runs, and the refusal, with the reason, of what that engine
cannot run exactly. tiktoken and tokenizers are imported only when asked for. What it leaves out:
our own model files (files.py) and encoding (tokenizer.py).

The HF translation, stage by stage (HF names the stages; `tokenizer.json` shows each):
- pre-tokenizer: our pattern as a `Split` with behavior "isolated" (matches and the text between
  them are pre-tokens; a named pattern matches every character), then `ByteLevel` without its own
  regex, which only maps each byte to the printable character GPT-2 chose for it;
- model: `BPE` with our merges in order (HF merges the pair of lowest rank, leftmost on ties, and
  only recorded pairs: our pair rule) and `ignore_merges` false: true would return a pre-token
  that is itself a token as that token, tiktoken's shortcut, which a hand-made merge list can
  contradict (merges (b, c), (a, b), (ab, c) encode "abc" as a + bc);
- special tokens: added tokens. HF finds them in any text it encodes, even with
  `add_special_tokens=False` (that flag is about BOS/EOS), so its ids equal ours with
  `allowed_special="all"`; on text without special tokens' strings, they equal `encode_ordinary`.
- decoder: `ByteLevel`, so HF's decode gives the text back.

HF's Split runs Oniguruma, whose syntax differs from the `regex` package's: `\\p{N}{1,3}+` is a
repeated interval there, not a possessive one, so cl100k is written `\\p{N}{1,3}` (the same
pre-tokens: patterns.py's EXECUTION_FORMS drop that `+` too). Its Unicode tables are its own:
text holding letters newer than they are may split otherwise.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path

import regex

from benchmark.bpe.patterns import CL100K_PATTERN, compile_pattern, execution_form, findall_of, resolve_pattern
from benchmark.bpe.tables import merged_bytes
from benchmark.plumbing.fileio import atomic_write_text

# Pattern texts as Oniguruma must read them to split as our `regex` does (tests/bpe/test_export.py).
HF_FORMS: dict[str, str] = {CL100K_PATTERN: CL100K_PATTERN.replace(r"\p{N}{1,3}+", r"\p{N}{1,3}")}


def tiktoken_encoding(*, name: str, pattern: str | None, ranks: dict[bytes, int], special_tokens: dict[str, int]):
    """A `tiktoken.Encoding` with our pattern, ranks and special tokens (tiktoken's byte rule:
    the same ids as ours for the ranks of a model we trained; see encode.py).

    A pattern that matches the empty string on a probe text is refused, as tiktoken panics on one
    (a pattern that does so only next to characters the probe lacks still gets through)."""
    import tiktoken

    pattern_name, pattern = resolve_pattern(pattern)
    if pattern is None:
        pat_str = r"(?s:.+)"
    elif pattern_name == "custom":
        pat_str = execution_form(pattern)
        # Every printable ASCII character after every other one, and some letters of other
        # scripts: a pattern that matches empty text only next to some character shows here.
        ascii_text = "".join(map(chr, range(32, 127))) + "\t\n\r"
        probe = "".join(a + b for a in ascii_text for b in ascii_text) + " éЖ日本한 "
        if "" in findall_of(compile_pattern(pattern))(probe) or regex.compile(pat_str).fullmatch(""):
            raise ValueError(
                f"pattern {pattern!r} can match the empty string, which tiktoken cannot run; "
                "make every match hold at least one character (+ rather than *)"
            )
    else:
        pat_str = pattern
    return tiktoken.Encoding(name=name, pat_str=pat_str, mergeable_ranks=dict(ranks),
                             special_tokens=dict(special_tokens))


def byte_alphabet() -> list[str]:
    """Byte value -> the character HF's (and GPT-2's) ByteLevel stands for it: the printable
    Latin-1 characters stand for themselves, the other bytes for U+0100 onwards, in order."""
    printable = {*range(0x21, 0x7F), *range(0xA1, 0xAD), *range(0xAE, 0x100)}
    alphabet, n_moved = [], 0
    for byte in range(256):
        if byte in printable:
            alphabet.append(chr(byte))
        else:
            alphabet.append(chr(0x100 + n_moved))
            n_moved += 1
    return alphabet


def hf_tokenizer_json(*, pattern: str | None, merges: Sequence[tuple[int, int]], special_tokens: dict[str, int],
                      first_id: int = 0) -> str:
    """The `tokenizer.json` text of a model we trained (see the module docstring); byte b has id
    `first_id + b` (4 in the specials-first layout)."""
    pattern_name, pattern = resolve_pattern(pattern)
    alphabet = byte_alphabet()
    vocab = ["".join(alphabet[byte] for byte in data) for data in merged_bytes(merges)]
    byte_level = {"type": "ByteLevel", "add_prefix_space": False, "trim_offsets": True, "use_regex": False}
    if pattern is None:
        pre_tokenizer = byte_level
    else:
        hf_pattern = execution_form(pattern) if pattern_name == "custom" else HF_FORMS.get(pattern, pattern)
        split = {"type": "Split", "pattern": {"Regex": hf_pattern}, "behavior": "Isolated", "invert": False}
        pre_tokenizer = {"type": "Sequence", "pretokenizers": [split, byte_level]}
    model_vocab = {token: first_id + token_id for token_id, token in enumerate(vocab)}
    if first_id:
        # subtle: HF gives an added token missing from the model's vocab the id after the model's
        # largest, whatever the file says; listed in the vocab too, the specials keep ids 0..n-1.
        model_vocab = {**{text: i for text, i in special_tokens.items() if i < first_id}, **model_vocab}
    document = {
        "version": "1.0",
        "truncation": None,
        "padding": None,
        "added_tokens": [
            {"id": token_id, "content": text, "single_word": False, "lstrip": False, "rstrip": False,
             "normalized": False, "special": True}
            for text, token_id in sorted(special_tokens.items(), key=lambda item: item[1])
        ],
        "normalizer": None,
        "pre_tokenizer": pre_tokenizer,
        "post_processor": None,
        "decoder": {"type": "ByteLevel", "add_prefix_space": True, "trim_offsets": True, "use_regex": True},
        "model": {
            "type": "BPE", "dropout": None, "unk_token": None, "continuing_subword_prefix": None,
            "end_of_word_suffix": None, "fuse_unk": False, "byte_fallback": False, "ignore_merges": False,
            "vocab": model_vocab,
            "merges": [[vocab[left], vocab[right]] for left, right in merges],
        },
    }
    return json.dumps(document, ensure_ascii=False, indent=1) + "\n"


def write_tokenizer_json(path: Path, *, pattern: str | None, merges: Sequence[tuple[int, int]],
                         special_tokens: dict[str, int], first_id: int = 0) -> None:
    """Write `hf_tokenizer_json` to `path` (temp file, then rename), once HF has read it back: a
    pattern its regex engine cannot compile is refused here, not at the user's first load."""
    from tokenizers import Tokenizer

    text = hf_tokenizer_json(pattern=pattern, merges=merges, special_tokens=special_tokens, first_id=first_id)
    try:
        Tokenizer.from_str(text)
    except Exception as exc:  # tokenizers raises its own exception types, from Rust
        raise ValueError(
            f"HuggingFace tokenizers cannot load this model ({str(exc).splitlines()[0][:200]}); with a custom "
            "pattern, write it in syntax that both the regex package and Oniguruma read alike"
        ) from None
    atomic_write_text(Path(path), text)

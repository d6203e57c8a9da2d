"""Our models in other libraries: a `tiktoken.Encoding` that gives our ids.

What this module adds: the translation of a model's content (pattern, ranks, special tokens) into
what another engine runs, and the refusal, with the reason, of what that engine cannot run
exactly. tiktoken is imported only when asked for. What it leaves out: our own model files
(files.py) and encoding (tokenizer.py).
"""

from __future__ import annotations

import regex

from benchmark.bpe.patterns import compile_pattern, execution_form, findall_of, resolve_pattern


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

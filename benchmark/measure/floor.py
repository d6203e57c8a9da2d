"""The information floor's compressor: how small a strong general-purpose compressor, one that
knows no tokenizer, makes each language's measured text.

The floor of a language is its compressed size over the reference's (metrics.information_floor):
what the same sentences seem to need in that language once the script's redundancy is squeezed
out. It is not an entropy: a compressor on about a thousand sentences learns little of a language
and leaves a per-script overhead; docs/methodology.md says what it is and is not.

lzma from the standard library at its strongest setting (preset 9 | PRESET_EXTREME), raw LZMA2
(no container header, so only the text's own bytes count): no dependency for a figure every row
carries; why lzma and not zstd is measured in docs/measurements/2026-12-01-information-floor.md.
"""

from __future__ import annotations

import lzma
from typing import Sequence

COMPRESSOR = "lzma"
LZMA_FILTERS = ({"id": lzma.FILTER_LZMA2, "preset": 9 | lzma.PRESET_EXTREME},)
DESCRIPTION = ("the measured sentences joined by newlines, as UTF-8, compressed by lzma (raw LZMA2, preset 9 | "
               "PRESET_EXTREME); information_floor is that size over the reference's")


def n_compressed_bytes(texts: Sequence[str]) -> int:
    """Bytes of the sentences joined by newlines, as UTF-8, once compressed (once per language).

    >>> n_compressed_bytes(["abc " * 100]) < len("abc " * 100)
    True
    """
    data = "\n".join(texts).encode("utf-8")
    # subtle: a dictionary at least as long as the text compresses it to the same bytes as preset
    # 9's 64 MiB one (no match reaches further back than the text's start), without setting up
    # 64 MiB for each language: half the CPU on FLORES-200's devtest, most of it on short texts.
    filters = [{**LZMA_FILTERS[0], "dict_size": max(4096, 1 << max(0, len(data) - 1).bit_length())}]
    return len(lzma.compress(data, format=lzma.FORMAT_RAW, filters=filters))

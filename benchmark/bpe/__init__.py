"""Our byte-level BPE: train, encode, decode, save and load; knows nothing of corpora or reports.

>>> from benchmark.bpe import ByteLevelBPE
>>> bpe = ByteLevelBPE.from_tiktoken("cl100k_base")
>>> bpe.encode("hello world")
[15339, 1917]
"""

from benchmark.bpe.patterns import PATTERNS
from benchmark.bpe.tokenizer import ByteLevelBPE, StreamingDecoder

__all__ = ["ByteLevelBPE", "StreamingDecoder", "PATTERNS"]

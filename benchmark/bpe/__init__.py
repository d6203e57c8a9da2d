"""Our byte-level BPE: train, encode, decode, save and load; knows nothing of corpora or reports.

>>> from benchmark.bpe import ByteLevelBPE
>>> bpe = ByteLevelBPE.from_tiktoken("cl100k_base")
>>> bpe.encode("hello world")
[15339, 1917]

The algorithm first: reference.py (the plain trainer and encoder), patterns.py (the pre-token
patterns), train.py, pairs.py, flat.py, parity.py and whole_chars.py (the fast trainers, parity-aware
and whole characters first; progress.py their progress line), encode.py and shortcuts.py (the fast
encoder); then the model (tokenizer.py, sweeps.py, tables.py) and its files (files.py, export.py,
openai_ranks.py). docs/bpe.md says more.
"""

from benchmark.bpe.patterns import PATTERNS
from benchmark.bpe.tokenizer import ByteLevelBPE, StreamingDecoder
from benchmark.bpe.train import count_pretokens

__all__ = ["ByteLevelBPE", "StreamingDecoder", "PATTERNS", "count_pretokens"]

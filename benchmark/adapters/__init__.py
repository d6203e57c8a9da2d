"""Every tokenizer behind one small interface (base.py), by id: the one table of tokenizers and
families (families.py, collected from what each module declares: table.py), the registry of
factories and trainers (registry.py), users' files (user_files.py), the training cache (cache.py)
and its cache-or-train loop (trained.py), the models each vendor's tokenizer serves (models.py,
from models.csv), each vendor's flagship, the report's default shortlist (flagships.py, from
flagships.csv).

One module per outside library (openai_tiktoken.py, openai_bpe.py, google_sentencepiece.py,
hf_tokenizers.py, hf_parity.py; hf_wordpiece.py is HF's WordPiece trainer redone with a fixed
order, for hf_tokenizers.py) and ours (inhouse.py); one per vendor, named after its owner
(meta_llama.py, mistral_ai.py, alibaba_qwen.py, deepseek_ai.py, zai_glm.py, google_gemma.py,
minimax_ai.py, xai_grok.py, anthropic_claude.py; OpenAI's are openai_tiktoken.py and openai_bpe.py),
each listed once in families.PRODUCTION_MODULES, its files pinned by SHA-256 and read by
benchmark/plumbing/pinned.py; a vendor's Hugging Face tokenizer.json is counted by vendor_json.py.

Library modules are imported inside the factories, so `import benchmark.adapters` stays light.
"""

from benchmark.adapters.base import Adapter, Failed, NotBuilt, Skipped
from benchmark.adapters.cache import TrainingCache, cache_root, default_cache_dir
from benchmark.adapters.families import is_production, is_trained, parse_trained_id
from benchmark.adapters.registry import (
    DEFAULT_VOCAB_SIZES,
    PRETRAINED,
    TrainingText,
    bpe_family,
    build_tokenizers,
    candidate_ids,
    run_train_task,
    select_ids,
    train_tasks,
    trained_families,
)
from benchmark.adapters.table import Family, TrainedId
from benchmark.adapters.user_files import check_tokenizer_files, file_id, load_tokenizer_file, tokenizer_file_kind

__all__ = [
    "Adapter", "Failed", "NotBuilt", "Skipped", "TrainingCache", "TrainingText", "DEFAULT_VOCAB_SIZES", "PRETRAINED",
    "Family", "TrainedId", "bpe_family", "trained_families", "candidate_ids", "parse_trained_id", "run_train_task",
    "select_ids", "train_tasks", "build_tokenizers", "load_tokenizer_file", "cache_root", "default_cache_dir",
    "is_production", "is_trained", "file_id", "check_tokenizer_files", "tokenizer_file_kind",
]

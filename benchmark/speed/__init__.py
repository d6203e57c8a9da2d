"""Encoder speed: our BPE as ratios to tiktoken, the committed baseline, the `speed` verb.

    ratios.py        the texts, the two engines, measure_ratios -> RatioRow (unseen, cold, repeat)
    baseline.py      the baseline file and the check against it (per ratio, per figure's mean)
    scaling_and_textbook.py  scaling on "a" * n, the factor over the textbook encoder
    training.py      training time against HuggingFace tokenizers
    instructions.py  the unseen ratio in CPU instructions, under callgrind
    parity.py        parity-aware training against standard training: time, memory, tokens
    hf_parity.py     our parity-aware trainer against HuggingFace's ParityBpeTrainer
    markdown.py      the tables
    command.py       SpeedOptions and run_speed: what `python -m benchmark speed` does

docs/speed.md says what each figure answers and how to use them. Importing the package loads no
third-party module: tiktoken and tokenizers are imported where a figure is measured.
"""

from benchmark.speed.baseline import Baseline, check_figures, check_ratios, load_baseline, save_baseline
from benchmark.speed.command import SpeedOptions, run_speed
from benchmark.speed.ratios import FIGURES, Engine, LanguageTexts, RatioRow, load_texts, measure_ratios

__all__ = [
    "Baseline",
    "Engine",
    "FIGURES",
    "LanguageTexts",
    "RatioRow",
    "SpeedOptions",
    "check_figures",
    "check_ratios",
    "load_baseline",
    "load_texts",
    "measure_ratios",
    "run_speed",
    "save_baseline",
]

"""Which text trains the trained tokenizers: a corpus with dev/ and devtest/ trains on its own dev/,
a flat one on the bundled FLORES-200 (and says so), --train-corpus on the folder it names. Each
case runs `run` on a small corpus of its own and reads the trained model's merges back."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from benchmark.bpe import ByteLevelBPE
from benchmark.cli.commands import cmd_run
from benchmark.measure.plan import RunConfig
from benchmark.corpora import load_flores
from benchmark.plumbing.errors import BenchmarkError

WORDS = {"eng": "the", "spa": "el", "deu": "der"}
NOUNS = ["apples", "rivers", "mountains", "teachers", "windows", "gardens", "letters", "engines"]


def write_corpus(root: Path, word: str, *, split: bool = True, n_lines: int = 30) -> Path:
    """eng/spa/deu, parallel; every dev line (every line of a flat corpus) repeats `word`, which
    no FLORES-200 sentence holds, so a model trained on it has merged it whole."""
    for code, article in WORDS.items():
        dev = [f"{article} {word} {i} met {NOUNS[i % len(NOUNS)]} and {NOUNS[i * 3 % len(NOUNS)]} {word}."
               for i in range(n_lines)]
        devtest = [f"{code} weather report number {i}: rain {i * 7} mm." for i in range(n_lines // 2)]
        files = {f"dev/{code}.txt": dev, f"devtest/{code}.txt": devtest} if split else {f"{code}.txt": dev}
        for name, lines in files.items():
            (root / name).parent.mkdir(parents=True, exist_ok=True)
            (root / name).write_text("\n".join(lines) + "\n", encoding="utf-8")
    return root


def run(tmp_path: Path, capsys, **options) -> tuple[dict, list[bytes], str]:
    """`run` of our balanced BPE at 300 tokens: the record's settings, the model's merged tokens
    (longest first), what `run` printed."""
    cache = tmp_path / "cache"
    config = RunConfig.from_options(tokenizers=["bpe/balanced-*"], vocab_sizes=[300], repeats=1, cache_dir=cache, **options)
    assert cmd_run(config, output=tmp_path / "out", plots=False, progress=False) == 0
    settings = json.loads((tmp_path / "out" / "results.json").read_text(encoding="utf-8"))["record"]["settings"]
    (model_file,) = (cache / "bpe").glob("*.bpe.json")
    ranks = ByteLevelBPE.load(model_file).mergeable_ranks()
    merged = sorted((token for token, rank in ranks.items() if rank >= 256), key=len, reverse=True)
    return settings, merged, capsys.readouterr().out


def test_a_corpus_with_dev_and_devtest_trains_on_its_own_dev(tmp_path, capsys):
    corpus = write_corpus(tmp_path / "mine", "zorblat")
    settings, merged, out = run(tmp_path, capsys, corpus=corpus)
    assert settings["train_corpus_dir"] == str(corpus) and settings["train_split"] == "dev"
    assert settings["train_languages"] == ["deu", "eng", "spa"]
    assert b" zorblat" in merged  # the user's word, merged whole
    first, second = out.splitlines()[:2]
    assert first == f"measuring 3 languages on the devtest split of {corpus} (15 lines each)"
    assert second == f"training 1 tokenizer on the dev split of {corpus} (3 languages, 30 lines each)"
    methods = (tmp_path / "out" / "README.md").read_text(encoding="utf-8")
    assert f"Trained tokenizers learn from the dev split of {corpus}" in methods


def test_a_flat_corpus_trains_on_the_bundled_flores_and_says_so(tmp_path, capsys):
    corpus = write_corpus(tmp_path / "flat", "zorblat", split=False)
    settings, merged, out = run(tmp_path, capsys, corpus=corpus)
    assert settings["train_corpus_dir"] == "corpora/flores200"
    assert settings["train_language_of"] == {"deu": "deu_Latn", "eng": "eng_Latn", "spa": "spa_Latn"}
    assert not any(b"orbl" in token for token in merged)  # nothing of the user's text
    codes = ("deu_Latn", "eng_Latn", "spa_Latn")
    flores = load_flores(languages=codes)
    flores_bytes = "\n".join("\n".join(flores.lines("dev", code)) for code in codes).encode()
    assert all(token in flores_bytes for token in merged)  # every merged token is FLORES text
    assert out.splitlines()[1] == (
        "training 1 tokenizer on the dev split of corpora/flores200 (3 languages, 997 lines each): "
        f"{corpus} has no dev/ and devtest/ subfolders to train on (add them, or name another corpus "
        "with --train-corpus DIR)")
    methods = (tmp_path / "out" / "README.md").read_text(encoding="utf-8")
    assert (f"Trained tokenizers learn from the dev split of corpora/flores200 ({corpus} has no dev/ split to "
            "train on: it is measured whole), in German (deu_Latn), English (eng_Latn) and Spanish") in methods


def test_train_corpus_names_the_text_that_trains(tmp_path, capsys):
    measured = write_corpus(tmp_path / "measured", "zorblat")
    training = write_corpus(tmp_path / "training", "quimbex")
    settings, merged, out = run(tmp_path, capsys, corpus=measured, train_corpus=training)
    assert settings["train_corpus_dir"] == str(training)
    assert b" quimbex" in merged and not any(b"orbl" in token for token in merged)
    assert out.splitlines()[1] == (f"training 1 tokenizer on the dev split of {training} "
                                   "(3 languages, 30 lines each) (--train-corpus)")


def test_a_flat_corpus_named_as_its_own_training_corpus_is_refused_without_asking_for_the_flag(tmp_path):
    corpus = write_corpus(tmp_path / "flat", "zorblat", split=False)
    config = RunConfig.from_options(corpus=corpus, train_corpus=corpus, tokenizers=["bpe/*"], vocab_sizes=[300],
                         cache_dir=tmp_path / "cache")
    with pytest.raises(BenchmarkError) as error:
        cmd_run(config, output=tmp_path / "out", plots=False, progress=False)
    message = str(error.value)
    assert message.startswith(f"{corpus}: has no dev/ and devtest/ subfolders")
    assert "leave --train-corpus out to train on the bundled FLORES-200" in message
    assert "with --train-corpus DIR" not in message  # the flag is given already

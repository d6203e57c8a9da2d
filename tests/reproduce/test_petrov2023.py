"""`reproduce petrov2023`: the published counts recomputed offline with the study's protocol."""

from __future__ import annotations

import csv
import shutil

import pytest

from benchmark.cli.parser import main
from benchmark.corpora import load_flores
from benchmark.plumbing.errors import BenchmarkError
from benchmark.reproduce import petrov2023, render, reproduce

# A sample for CI (the command checks all 204): the six, scripts of every kind, and languages whose
# Qwen count is reproduced only with Qwen's NFC step (asm_Beng, fon_Latn, kas_Deva).
SAMPLE = ("eng_Latn", "jpn_Jpan", "zho_Hant", "ydd_Hebr", "shn_Mymr", "amh_Ethi", "asm_Beng", "fon_Latn",
          "kas_Deva", "ckb_Arab", "cat_Latn")


def test_a_sample_of_the_published_counts_is_reproduced_exactly():
    reproduction = reproduce("petrov2023", languages=SAMPLE)
    assert [column.column for column in reproduction.columns] == ["cl100k_base", "Qwen", "UTF-32", "CANINE", "ByT5"]
    for column in reproduction.columns:
        assert column.mismatches == (), column.column
        assert column.n_exact == len(SAMPLE)
    assert reproduction.ok
    published = petrov2023.read_published()
    assert published["eng_Latn"]["cl100k_base"] == next(c for c in reproduction.columns[0].counts
                                                         if c.code == "eng_Latn").computed


def test_the_protocol_text_keeps_the_empty_piece_after_each_final_newline():
    corpus = load_flores(languages=["hin_Deva"])
    dev, devtest = corpus.lines("dev", "hin_Deva"), corpus.lines("devtest", "hin_Deva")
    # "a\nb\n".split("\n") is ["a", "b", ""]: two spaces between the splits, one at the end.
    assert petrov2023.protocol_text("hin_Deva") == " ".join(dev) + "  " + " ".join(devtest) + " "


def test_every_published_column_is_computed_or_said_why_not():
    with open(petrov2023.DATA_DIR / petrov2023.TABLE_FILE, encoding="utf-8", newline="") as table:
        header = next(csv.reader(table))
    left_out = [name for names in petrov2023.NOT_COMPUTED for name in names]
    assert sorted(header[1:]) == sorted([*petrov2023.COLUMNS, *left_out]) and len(set(left_out)) == len(left_out)
    assert len(petrov2023.read_published()) == 204
    with pytest.raises(BenchmarkError, match=r"cannot recompute column 'GPT-2' offline \(it needs GPT-2's rank file"):
        reproduce("petrov2023", columns=["GPT-2"], languages=["eng_Latn"])


def test_a_changed_table_is_refused(tmp_path):
    copy = tmp_path / petrov2023.TABLE_FILE
    shutil.copy(petrov2023.DATA_DIR / petrov2023.TABLE_FILE, copy)
    copy.write_bytes(copy.read_bytes().replace(b"108998", b"108999", 1))
    with pytest.raises(BenchmarkError, match=r"tokenization_lengths_validated\.csv: SHA-256 .* does not match the pinned"):
        petrov2023.read_published(copy)


def test_a_mismatch_exits_1_with_a_table_of_language_published_computed(monkeypatch, capsys):
    off_by_one = petrov2023.Column("ByT5", "UTF-8 bytes, plus one", lambda: lambda text: len(text.encode()) + 1)
    monkeypatch.setitem(petrov2023.COLUMNS, "ByT5", off_by_one)
    assert main(["reproduce", "petrov2023", "--columns", "ByT5,UTF-32", "--languages", "eng,hin"]) == 1
    out = capsys.readouterr().out
    assert "  ByT5    0/2 exact  (UTF-8 bytes, plus one)" in out and "  UTF-32  2/2 exact" in out
    published = petrov2023.read_published()
    table = out[out.index("ByT5: 2 counts differ"):].splitlines()
    assert table[1].split() == ["language", "published", "computed", "difference"]
    assert table[2].split() == ["eng_Latn", f"{published['eng_Latn']['ByT5']:,}",
                                f"{published['eng_Latn']['ByT5'] + 1:,}", "+1"]
    assert "2/4 counts exact (2 columns x 2 languages): 2 counts differ" in out


def test_the_verb_resolves_languages_and_refuses_an_ambiguous_one(capsys):
    assert main(["reproduce", "petrov2023", "--columns", "CANINE", "--languages", "YDD"]) == 0
    out = capsys.readouterr().out
    assert "CANINE  1/1 exact" in out and "every count matches" in out
    assert "1/1 counts exact (1 column x 1 language)" in out  # not "1 columns"
    assert main(["reproduce", "petrov2023", "--languages", "zho"]) == 2
    assert "'zho' is ambiguous, it is one of zho_Hans (Chinese (Simplified)), zho_Hant" in capsys.readouterr().err


def test_render_names_the_columns_left_out():
    text = render(reproduce("petrov2023", columns=["UTF-32"], languages=["eng_Latn"]))
    assert "not recomputed: GPT-2, r50k_base, p50k_base, p50k_edit, RoBERTa (they need GPT-2's rank file" in text


def test_help(capsys):
    with pytest.raises(SystemExit) as exit_info:
        main(["reproduce", "--help"])
    assert exit_info.value.code == 0 and "usage: python -m benchmark reproduce" in capsys.readouterr().out

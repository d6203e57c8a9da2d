"""The bundled FLORES-200: all 204 varieties, their pins, names and scripts, and the codes a user types."""

from __future__ import annotations

import lzma
import shutil
import unicodedata

import pytest

from benchmark.corpora import (
    BUNDLED_CORPUS_DIR,
    BUNDLED_LINES,
    FLORES_LANGUAGES,
    bundled_languages,
    bundled_names,
    is_right_to_left,
    language_name,
    load_corpus,
    load_flores,
    read_bundled_text,
    read_manifest,
    resolve_code,
    resolve_codes,
    script_name,
    script_of,
)
from benchmark.corpora.languages import SCRIPT_NAMES
from benchmark.plumbing.errors import BenchmarkError
from tests.support.paths import DATA


@pytest.mark.slow
def test_all_204_languages_load_checked_and_aligned():
    # Every file decompressed, checked against its pinned sum and read by the strict reader: ~3 s.
    corpus = load_flores(languages=bundled_languages())
    assert len(corpus.languages) == 204 and corpus.languages[:6] == FLORES_LANGUAGES
    assert corpus.checksums == read_manifest()  # every file of the manifest, each read once
    for split, n_lines in BUNDLED_LINES.items():
        assert {len(corpus.lines(split, code)) for code in corpus.languages} == {n_lines}
    # Curiosities of the release, kept: a line that is the word "nan", C1 controls in Catalan.
    assert corpus.lines("dev", "ckb_Arab")[244] == "nan"
    assert any("\x97" in line for line in corpus.lines("devtest", "cat_Latn"))


def test_the_folder_holds_exactly_the_manifest_files():
    # Six plain, 198 compressed, nothing else: a stray or a missing file would be a silent change.
    manifest = read_manifest()
    expected = {f"{split}/{code}.{split}" + ("" if code in FLORES_LANGUAGES else ".xz")
                for split in BUNDLED_LINES for code in bundled_languages()}
    present = {str(path.relative_to(BUNDLED_CORPUS_DIR)) for split in BUNDLED_LINES
               for path in (BUNDLED_CORPUS_DIR / split).iterdir()}
    assert present == expected
    assert {name.removesuffix(".xz") for name in expected} == set(manifest)
    assert len(bundled_names()) == len(set(bundled_names().values())) == 204


def test_a_recompressed_file_is_accepted_and_a_changed_text_refused(tmp_path):
    copy = tmp_path / "flores200"
    shutil.copytree(BUNDLED_CORPUS_DIR, copy)
    path = copy / "dev" / "hin_Deva.dev.xz"
    text = lzma.decompress(path.read_bytes())
    path.write_bytes(lzma.compress(text, preset=1))  # other bytes, same text: the pin is of the text
    assert load_flores(copy, ["hin_Deva"]).lines("dev", "hin_Deva") == load_flores(languages=["hin_Deva"]).lines(
        "dev", "hin_Deva")
    path.write_bytes(lzma.compress(text.replace("।".encode(), b".", 1), preset=9))
    with pytest.raises(BenchmarkError, match=r"hin_Deva\.dev\.xz: SHA-256 .* of its text does not match the pinned"):
        load_flores(copy, ["hin_Deva"])
    path.write_bytes(b"not xz")
    with pytest.raises(BenchmarkError, match=r"hin_Deva\.dev\.xz: not a valid xz file .*git checkout corpora/"):
        load_flores(copy, ["hin_Deva"])
    path.unlink()
    with pytest.raises(BenchmarkError, match=r"hin_Deva\.dev\.xz: bundled corpus file is missing"):
        load_flores(copy, ["hin_Deva"])


def test_a_copy_of_the_bundled_folder_is_a_user_folder_that_names_its_compressed_files(tmp_path):
    # Nothing skipped without a word: a copy is read as a user's folder, which takes no .xz.
    copy = tmp_path / "flores200"
    shutil.copytree(BUNDLED_CORPUS_DIR, copy)
    with pytest.raises(BenchmarkError, match=r"ace_Arab\.dev\.xz: a compressed corpus file; decompress it with "
                                             r"`xz -dk .*`, or leave out --corpus"):
        load_corpus(copy)


@pytest.mark.parametrize("name", ["SHA256SUMS", "language_names.csv"])
def test_the_manifest_and_the_names_are_pinned(tmp_path, name):
    copy = tmp_path / "flores200"
    shutil.copytree(BUNDLED_CORPUS_DIR, copy)
    path = copy / name
    path.write_bytes(path.read_bytes().replace(b"a", b"b", 1))
    with pytest.raises(BenchmarkError, match=f"{name}: SHA-256 .* does not match the pinned"):
        load_flores(copy, ["eng_Latn"])


def test_read_bundled_text_is_the_file_as_released():
    data = read_bundled_text("devtest", "amh_Ethi")
    assert data.endswith(b"\n") and data.count(b"\n") == 1012
    lines = load_flores(languages=["amh_Ethi"]).lines("devtest", "amh_Ethi")
    assert tuple(data.decode("utf-8").split("\n")[:-1]) == lines
    with pytest.raises(BenchmarkError, match=r"no devtest/xyz_Latn\.devtest; 'xyz_Latn' is not a bundled language"):
        read_bundled_text("devtest", "xyz_Latn")


def test_names_and_scripts_of_every_bundled_language():
    for code in bundled_languages():
        assert script_of(code) in SCRIPT_NAMES, code  # an English name for every script used
    assert language_name("acq_Arab") == "Ta’izzi-Adeni Arabic" and language_name("nob_Latn") == "Norwegian Bokmål"
    assert language_name("kbp_Latn") == "Kabiyè"
    assert script_name("amh_Ethi") == "Ethiopic" and script_name("eng") == ""
    # A code without its script names its language, when its varieties share a name.
    assert (language_name("zho"), language_name("zh"), language_name("kas")) == ("Chinese", "Chinese", "Kashmiri")
    assert (language_name("hin"), language_name("en")) == ("Hindi", "English")


def test_right_to_left_comes_from_the_script():
    right_to_left = [code for code in bundled_languages() if is_right_to_left(code)]
    # 22 in Arabic script and two in Hebrew script; the release's right_to_left.txt misses ydd_Hebr.
    assert len(right_to_left) == 24
    assert {code for code in right_to_left if not code.endswith("_Arab")} == {"heb_Hebr", "ydd_Hebr"}
    for code in right_to_left:  # the text agrees: its first letter is of a right-to-left class
        first = next(ch for ch in load_flores(languages=[code]).lines("dev", code)[0] if ch.isalpha())
        assert unicodedata.bidirectional(first) in ("R", "AL"), code
    assert not is_right_to_left("hin_Deva") and not is_right_to_left("eng")


def test_what_a_user_types_becomes_a_code():
    available = bundled_languages()
    assert resolve_codes(["hin", "HIN", "hin_deva", "hi", "AMH_ETHI"], available, where="x") == ("hin_Deva", "amh_Ethi")
    assert resolve_codes(["hin", "ALL"], available, where="x") == available
    assert resolve_code("eng", ["eng", "eng_Latn"], where="x") == "eng"  # the code itself first
    with pytest.raises(BenchmarkError, match=r"corpora/flores200: language code 'zho' is ambiguous, it is one of "
                                             r"zho_Hans \(Chinese \(Simplified\)\), zho_Hant \(Chinese \(Traditional\)\)"):
        resolve_code("zho", available, where="corpora/flores200", name_of=language_name)
    for code in ("ar", "arb", "ace", "taq", "kas"):  # each language in two scripts here
        with pytest.raises(BenchmarkError, match=f"'{code}' is ambiguous"):
            resolve_code(code, available, where="x")
    # A script given is a choice made: no other script of the language stands in for it.
    with pytest.raises(BenchmarkError, match=r"unknown language code 'eng_Latf'; closest: eng_Latn"):
        resolve_code("eng_Latf", available, where="x")
    with pytest.raises(BenchmarkError, match=r"unknown language code 'xx'; this corpus has eng, jpn, spa$"):
        resolve_code("xx", load_corpus(DATA / "tiny_corpus").languages, where="x")


# ---------------------------------------------------------------- a run's languages and training text


def test_a_run_takes_the_six_unless_told_and_resolves_what_it_is_told(tmp_path):
    from benchmark.measure.plan import RunConfig, plan_run

    def plan(**options):
        return plan_run(RunConfig(tokenizers=("tiktoken/cl100k_base",), cache_dir=tmp_path, max_sentences=3, **options))

    assert plan().languages == FLORES_LANGUAGES
    picked = plan(languages=("hin", "AMH_ETHI"))
    assert picked.languages == ("eng_Latn", "hin_Deva", "amh_Ethi") and picked.reference == "eng_Latn"
    # The reference given short is resolved too, and measured even when not among the six.
    assert plan(reference="hin").languages == ("hin_Deva", *FLORES_LANGUAGES)
    with pytest.raises(BenchmarkError, match=r"'zho' is ambiguous, it is one of zho_Hans .*zho_Hant"):
        plan(languages=("zho",))
    with pytest.raises(BenchmarkError, match=r"unknown reference language 'deu_Latf'; closest: deu_Latn"):
        plan(reference="deu_Latf")


@pytest.mark.slow
def test_all_languages_train_on_equal_capped_shares_and_the_plan_says_so(tmp_path):
    # One run of all 204 (its texts read, ~4 s); the cap leaves the default run's training whole.
    from benchmark.measure.plan import MAX_TRAINING_LINES, RunConfig, plan_run

    plan = plan_run(RunConfig(languages=("all",), tokenizers=("bpe/*",), vocab_sizes=(300,), cache_dir=tmp_path))
    assert plan.languages == plan.train_languages == bundled_languages()
    training = plan.training
    assert {len(lines) for lines in training.lines.values()} == {MAX_TRAINING_LINES // 204} == {147}
    assert len(training.texts) <= MAX_TRAINING_LINES
    # Each language gives its first lines: the share is a prefix of its dev split.
    assert training.lines["hin_Deva"] == plan.corpus.lines("dev", "hin_Deva")[:147]
    assert plan.train_share == ("equal number of lines per language (parallel lines: the same content in each); "
                                "capped at 30,000 training lines in all, so each of the 204 languages gives its "
                                "first 147 lines of 997")
    six = plan_run(RunConfig(tokenizers=("bpe/*",), vocab_sizes=(300,), cache_dir=tmp_path))
    assert {len(lines) for lines in six.training.lines.values()} == {997}
    assert six.train_share == "equal number of lines per language (parallel lines: the same content in each)"

"""WMT24++: the build from the release (its pinned sums, the dropped segments, the split by
document per domain), and the built folder read as a corpus with its labels and sums.

The release's texts are not carried in the repository: the build test reads them from
$WMT24PP_SOURCE, else from shared/corpora/wmt24pp/ beside the checkout, and is skipped, saying so,
where neither holds them. The rules of the build are tested on rows made here."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from benchmark.corpora import load_corpus
from benchmark.corpora.sums import read_sums
from benchmark.corpora.wmt24pp import CODES, N_SEGMENTS, SOURCE_CODE, WMT24PP_DIR, _kept_and_split, build
from benchmark.plumbing.errors import BenchmarkError
from tests.support.paths import REPO


def _source() -> Path | None:
    for folder in (os.environ.get("WMT24PP_SOURCE"), REPO.parent / "shared" / "corpora" / "wmt24pp"):
        if folder and (Path(folder) / "en-de_DE.jsonl").is_file():
            return Path(folder)
    return None


needs_release = pytest.mark.skipif(_source() is None, reason="the WMT24++ release files are not on this machine "
                                   "(set WMT24PP_SOURCE to the folder of its en-<xx_XX>.jsonl files)")


@needs_release
def test_the_build_writes_exactly_the_pinned_files(tmp_path):
    counts = build(_source(), tmp_path)
    assert counts == {"kept": 943, "dev": 512, "devtest": 431, "bad_source": 38, "line_break": 17}
    assert read_sums(tmp_path / "SHA256SUMS") == read_sums(WMT24PP_DIR / "SHA256SUMS")
    corpus = load_corpus(tmp_path)  # checked against its SHA256SUMS as it is read
    assert len(corpus.languages) == len(CODES) + 1 and SOURCE_CODE in corpus.languages
    assert corpus.n_sentences("devtest") == len(corpus.domains["devtest"]) == 431
    assert set(corpus.domains["devtest"]) == {"literary", "news", "social", "speech"}


@needs_release
def test_a_changed_release_file_is_refused_before_anything_is_written(tmp_path):
    source = tmp_path / "release"
    source.mkdir()
    for path in _source().glob("en-*.jsonl"):
        (source / path.name).write_bytes(path.read_bytes())
    with open(source / "en-ja_JP.jsonl", "ab") as file:
        file.write(b"\n")
    with pytest.raises(BenchmarkError, match=r"en-ja_JP.jsonl: SHA-256 [0-9a-f]{64} is not the release's"):
        build(source, tmp_path / "out")
    assert not (tmp_path / "out").exists()


def _rows(locales: list[str], targets: dict[int, str] | None = None) -> dict[str, list[dict]]:
    """A release of N_SEGMENTS rows per locale: documents of 4 segments, domains in turn, a
    literary work in two chunks, segment 0 a bad source."""
    rows = {}
    for locale in locales:
        found = []
        for i in range(N_SEGMENTS):
            domain = ("literary", "news", "social", "speech")[(i // 4) % 4]
            document = f"test-en-{domain}_{i // 8}_chunk_{i // 4 % 2 + 1}_words_900" if domain == "literary" else f"d{i // 4}"
            found.append({"lp": f"en-{locale}", "domain": domain, "document_id": document, "segment_id": i,
                          "is_bad_source": i == 0, "source": f"source {i}",
                          "target": (targets or {}).get(i, f"{locale} {i}"), "original_target": ""})
        rows[locale] = found
    return rows


def test_bad_sources_and_line_breaks_leave_every_language_alike():
    rows = _rows(["de_DE", "ja_JP"])
    rows["ja_JP"][5]["target"] = "two\nlines"
    rows["de_DE"][9]["target"] = "a\u2028separator"
    kept, split_of, n_bad, n_broken = _kept_and_split(rows)
    assert (n_bad, n_broken) == (1, 2) and 0 not in kept and 5 not in kept and 9 not in kept
    assert len(kept) == N_SEGMENTS - 3 and set(split_of) == set(kept)


def test_the_split_is_by_document_and_keeps_a_literary_work_whole_with_each_domain_held_out():
    rows = _rows(["de_DE"])
    kept, split_of, _, _ = _kept_and_split(rows)
    first = rows["de_DE"]
    by_document: dict[str, set[str]] = {}
    for i in kept:
        by_document.setdefault(first[i]["document_id"].split("_chunk_")[0], set()).add(split_of[i])
    assert all(len(splits) == 1 for splits in by_document.values())  # a document (a work) is never cut
    for domain in ("literary", "news", "social", "speech"):
        assert {split_of[i] for i in kept if first[i]["domain"] == domain} == {"dev", "devtest"}


def test_a_release_whose_files_disagree_is_refused():
    rows = _rows(["de_DE", "ja_JP"])
    rows["ja_JP"][3]["source"] = "another source"
    with pytest.raises(BenchmarkError, match=r"en-ja_JP.jsonl: not the same 998 segments as en-de_DE.jsonl"):
        _kept_and_split(rows)


def test_the_carried_sums_cover_every_release_file_and_every_built_file():
    source = read_sums(WMT24PP_DIR / "SOURCE_SHA256SUMS")
    assert set(source) == {f"en-{locale}.jsonl" for locale in CODES}
    built = read_sums(WMT24PP_DIR / "SHA256SUMS")
    codes = {SOURCE_CODE, *CODES.values()}
    assert set(built) == {f"{split}/{name}" for split in ("dev", "devtest")
                          for name in (*(f"{code}.txt" for code in codes), "domains.tsv")}
    assert len(set(CODES.values())) == len(CODES)  # one file per variety


def test_the_corpus_without_its_texts_says_how_to_build_them(tmp_path, monkeypatch):
    import benchmark.corpora.folders as folders
    from benchmark.corpora.folders import named_corpus_dir

    (tmp_path / "wmt24pp").mkdir()
    for name in ("README.md", "SHA256SUMS", "SOURCE_SHA256SUMS"):
        (tmp_path / "wmt24pp" / name).write_bytes((WMT24PP_DIR / name).read_bytes())
    monkeypatch.setattr(folders, "CORPORA_DIR", tmp_path)
    monkeypatch.chdir(tmp_path.parent)
    with pytest.raises(BenchmarkError, match=r"wmt24pp: corpus 'wmt24pp' is not built in this checkout"):
        named_corpus_dir(Path("wmt24pp"))

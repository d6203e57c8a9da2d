"""corpora/code/: built again from this interpreter's stdlib and the installed packages (the pinned
versions), it is the committed sample byte for byte; a package of another version is refused."""

from __future__ import annotations

import hashlib
import json

import pytest

from benchmark.corpora import code_sample
from tests.support.paths import REPO

COMMITTED = REPO / "corpora" / "code"


@pytest.fixture(scope="module")
def rebuilt(tmp_path_factory):
    pytest.importorskip("django")
    out = tmp_path_factory.mktemp("code")
    code_sample.build(out)
    return out / "code"


def test_the_committed_sample_is_what_the_build_writes(rebuilt):
    assert (rebuilt / "SHA256SUMS").read_bytes() == (COMMITTED / "SHA256SUMS").read_bytes()
    for line in (COMMITTED / "SHA256SUMS").read_text(encoding="utf-8").splitlines():
        digest, path = line.split("  ")
        assert hashlib.sha256((COMMITTED / path).read_bytes()).hexdigest() == digest, path
    assert (rebuilt / "provenance.json").read_bytes() == (COMMITTED / "provenance.json").read_bytes()


def test_each_source_is_in_its_language_file_after_its_separator_line():
    record = json.loads((COMMITTED / "provenance.json").read_text(encoding="utf-8"))
    texts = {language: (COMMITTED / f"{language}.txt").read_text(encoding="utf-8") for language in code_sample.LANGUAGES}
    for source, entry in zip(code_sample.SOURCES, record["sources"]):
        assert (entry["package"], entry["path"]) == (source.package, source.path)
        assert entry["version"] == (code_sample.PYTHON_VERSION if source.package == "cpython"
                                    else code_sample.VERSIONS[source.package])
        assert (COMMITTED / entry["licence_file"]).is_file()
        assert code_sample.separator(source) in texts[source.language]
    for language, entry in record["languages"].items():
        data = (COMMITTED / entry["file"]).read_bytes()
        assert (len(data), data.count(b"\n")) == (entry["n_bytes"], entry["n_lines"])
    assert sorted(p.name for p in (COMMITTED / "LICENSES").iterdir()) == sorted({s.licence for s in code_sample.SOURCES})


def test_another_installed_version_is_refused_in_one_line_naming_it(monkeypatch, tmp_path):
    monkeypatch.setitem(code_sample.VERSIONS, "markupsafe", "2.1.5")
    with pytest.raises(code_sample.BuildError, match=r"installed markupsafe is 3\.0\.4, not the pinned 2\.1\.5") as caught:
        code_sample.build(tmp_path)
    assert "\n" not in str(caught.value)
    assert not (tmp_path / "code").exists() and not list(tmp_path.iterdir())  # nothing half written


def test_a_stdlib_file_of_other_bytes_is_refused(monkeypatch):
    source = code_sample.Source("cpython", "bisect.py", "python", "CPython-PSF-2.0.txt", "0" * 64)
    with pytest.raises(code_sample.BuildError, match=r"bisect\.py: SHA-256 [0-9a-f]{64}, not CPython 3\.11\.7's"):
        code_sample.read_source(source)

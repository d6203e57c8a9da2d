"""corpora/django-ui/ and django-ui-wide/: built again from the installed Django (the pinned version),
they are the committed files byte for byte; the parsing rules on catalog text."""

from __future__ import annotations

import hashlib
import json
import re

import pytest

from benchmark.corpora import bundled_languages, load_corpus
from benchmark.corpora import django_ui
from tests.support.paths import REPO

CORPORA = REPO / "corpora"

# A catalog in Django's own form: a header, then the cases each rule decides.
PO = r'''msgid ""
msgstr ""
"Content-Type: text/plain; charset=UTF-8\n"
"Plural-Forms: nplurals=3; plural=(n==1 ? 0 : n>=2 && n<=4 ? 1 : 2);\n"

msgid "Enter a valid %(name)s value."
msgstr "Zadejte platnou hodnotu %(name)s."

msgid "Item {0} of {1}"
msgstr "Položka {0} z {1}"

#, fuzzy
msgid "Save and add another"
msgstr "Uložit a přidat"

msgid "Untranslated message"
msgstr ""

msgid "%s object"
msgid_plural "%s objects"
msgstr[0] "%s objekt"
msgstr[1] "%s objekty"
msgstr[2] "%s objektů"

msgid "No plural form given"
msgid_plural "No plural forms given"
msgstr[0] ""
msgstr[1] ""

msgctxt "month name"
msgid "May"
msgstr "Květen"

msgid "May"
msgstr "Květen "

msgid ""
"First line\n"
"second\tline with a \\ backslash"
msgstr ""
"První řádek\n"
"druhý\třádek se \\ zpětným lomítkem"

#~ msgid "Obsolete"
#~ msgstr "Zastaralé"
'''


def test_the_rules_on_a_catalog():
    kept = django_ui.entries_of(PO, "test.po")
    assert kept == {
        ("", "Enter a valid %(name)s value."): "Zadejte platnou hodnotu %(name)s.",
        ("", "Item {0} of {1}"): "Položka {0} z {1}",
        ("", "%s object"): "%s objekt",
        ("month name", "May"): "Květen",
        ("", "May"): "Květen ",
        ("", "First line\nsecond\tline with a \\ backslash"): "První řádek\ndruhý\třádek se \\ zpětným lomítkem",
    }


def test_one_message_is_one_line_with_the_po_escapes():
    line = django_ui.one_line("První řádek\ndruhý\třádek se \\ a\r")
    assert line == "První řádek\\ndruhý\\třádek se \\\\ a\\r"
    assert "\n" not in line and "\t" not in line


def test_the_first_catalog_in_path_order_wins_a_repeated_message():
    core = 'msgid "Yes"\nmsgstr "Ano"\n'
    app = 'msgid "Yes"\nmsgstr "Jo"\n\nmsgid "No"\nmsgstr "Ne"\n'
    merged = django_ui.translations_by_locale({
        "django/contrib/admin/locale/cs/LC_MESSAGES/django.po": app,
        "django/conf/locale/cs/LC_MESSAGES/django.po": core,
        "django/conf/locale/cs/LC_MESSAGES/djangojs.po": 'msgid "Maybe"\nmsgstr "Možná"\n',
    })
    assert merged == {"cs": {("", "Yes"): "Ano", ("", "No"): "Ne"}}


def test_only_messages_every_language_translates_are_kept():
    by_code = {"spa_Latn": {("", "Yes"): "Sí", ("", "No"): "No"}, "ces_Latn": {("", "Yes"): "Ano"}}
    splits = django_ui.parallel(by_code, ("eng_Latn", "spa_Latn", "ces_Latn"))
    split = django_ui.split_of(("", "Yes"))
    assert splits[split] == {"eng_Latn": ["Yes"], "spa_Latn": ["Sí"], "ces_Latn": ["Ano"]}


def test_every_mapped_locale_is_a_flores_code():
    assert set(django_ui.LOCALE_TO_FLORES.values()) <= set(bundled_languages())


def test_a_wheel_that_is_not_the_pinned_one_is_refused(tmp_path):
    fake = tmp_path / django_ui.WHEEL_NAME
    fake.write_bytes(b"PK\x05\x06" + bytes(18))
    with pytest.raises(django_ui.BuildError, match="not the pinned"):
        django_ui.read_wheel(fake)


@pytest.fixture(scope="module")
def rebuilt(tmp_path_factory):
    pytest.importorskip("django")
    out = tmp_path_factory.mktemp("ui")
    django_ui.build(django_ui.read_installed(), out)
    return out


@pytest.mark.parametrize("name", ["django-ui", "django-ui-wide"])
def test_the_committed_corpus_is_what_the_build_writes(rebuilt, name):
    committed, built = CORPORA / name, rebuilt / name
    assert (built / "SHA256SUMS").read_bytes() == (committed / "SHA256SUMS").read_bytes()
    for line in (committed / "SHA256SUMS").read_text(encoding="utf-8").splitlines():
        digest, path = line.split("  ")
        assert hashlib.sha256((committed / path).read_bytes()).hexdigest() == digest, path
    assert (built / "LICENSE").read_bytes() == (committed / "LICENSE").read_bytes()
    record = json.loads((committed / "provenance.json").read_text(encoding="utf-8"))
    assert record["source"].endswith(django_ui.WHEEL_SHA256)


def test_the_six_language_corpus_reads_as_a_corpus_with_placeholders_kept():
    corpus = load_corpus(CORPORA / "django-ui", list(django_ui.SIX))
    record = json.loads((CORPORA / "django-ui" / "provenance.json").read_text(encoding="utf-8"))
    english, japanese = corpus.lines("devtest", "eng_Latn"), corpus.lines("devtest", "jpn_Jpan")
    assert len(english) == len(japanese) == record["lines"]["devtest"]
    assert len(corpus.lines("dev", "kor_Hang")) == record["lines"]["dev"]
    named = 0
    for en, ja in zip(english, japanese):
        # A named placeholder in English is in the translation too, unchanged.
        for name in re.findall(r"%\(\w+\)[sd]", en):
            assert name in ja, (en, ja)
            named += 1
    assert named > 20

"""Every production tokenizer gives its vendor's own ids: on every devtest line of the six default
languages and on awkward plain text, each against the vendor's own encoder (tests/support/
vendor_code.py). The tokenizers are the table's (adapters/families.py), not a list of this file's,
so a vendor declared without an encoder to check it against fails here, naming what to add.
"""

from __future__ import annotations

import pytest

from benchmark.adapters import PRETRAINED
from tests.support.adversarial_texts import ADVERSARIAL
from tests.support.vendor_code import LANGUAGES, devtest_lines, vendor_encoder

# Awkward plain text: spaces, line ends, special tokens' text, characters not in NFC, a long text.
AWKWARD = [
    "", " ", "  two  spaces  ", "tabs\tand\nnewlines\r\n", "\n\n\n", "<|endoftext|> <|begin_of_text|> <s> </s> [INST]",
    "<｜begin▁of▁sentence｜> <|im_start|> <|extra_0|>", "Cafe\u0301 n\u0303 (decomposed)", "ﬁ ligature, Ω ohm",
    "digits 1234567890 3.14159", "🙂🚀 👩‍👩‍👧‍👦", "mixed Latin кириллица 漢字 한글 العربية",
    "Příliš žluťoučký kůň úpěl ďábelské ódy. " * 300,
]


def test_every_production_tokenizer_has_its_vendors_encoder_to_be_checked_against():
    missing = [tokenizer_id for tokenizer_id in PRETRAINED if vendor_encoder(tokenizer_id) is None]
    assert not missing, (f"no test of {', '.join(missing)}'s ids against its vendor's own encoder: add one to "
                         "VENDOR_ENCODERS in tests/support/vendor_code.py")


@pytest.fixture(scope="module", params=[i for i in PRETRAINED if vendor_encoder(i) is not None])
def pair(request):
    return PRETRAINED[request.param](), vendor_encoder(request.param)()


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_devtest_line_gets_the_vendors_ids(pair, language):
    adapter, vendor = pair
    lines = devtest_lines(language)
    mismatches = [n for n, line in enumerate(lines, start=1) if adapter.encode(line) != vendor(line)]
    assert mismatches == [], f"{adapter.id}, {language}: lines {mismatches[:5]}"


def test_awkward_plain_text_gets_the_vendors_ids(pair):
    adapter, vendor = pair
    assert [text[:40] for text in AWKWARD + ADVERSARIAL if adapter.encode(text) != vendor(text)] == [], adapter.id

"""Texts that break encoders: empty and whitespace-only text, control and zero-width characters,
combining marks, emoji sequences, mixed scripts, long runs, special-token look-alikes, and letters
of the newest Unicode versions. Shared by the tests that compare our BPE with tiktoken and with
HF `tokenizers` (the first 14 are short enough for the slowest checks)."""

ADVERSARIAL = [
    "",
    " ",
    "\n",
    "\r\n\r\n  \r\n",
    "\x00\x00 a\x00b",
    "👩‍👩‍👧‍👦 family, 🏳️‍🌈 flag, 👍🏽 thumbs",
    "e\u0301 combining: a\u0308\u0323 ñ n\u0303",
    "中文字符和日本語のひらがなとカタカナ、한국어 음절",
    "mixed Latin кириллица 漢字 한글 العربية עברית हिन्दी",
    "1234567890123456789012345678901234567890",
    "3.14159e-10 1,000,000 0x1F 007",
    "def f(x):\n    if x:\n        return x  # comment\n\treturn None\n",
    "    leading and trailing spaces    ",
    "x  \ny \n\n z\t \n",
    "it's they're we've I'd you'll IT'S THEY'RE",
    "a" * 10_000,
    " " * 5_000 + "x",
    "\ufeffBOM and \u200b zero width \u2028 line sep \u3000 ideographic space \xa0 nbsp",
    "x" + "\u0300" * 500,
    "🙂" * 300,
    "日本" * 2_000,
    # Letters of Unicode 16 and 17: the engines' tables must agree on them.
    "\U00018d80/A \ua7ce1 \u0558x \U0003d000 \U00010d4a",
    # Whitespace runs, a special token's text (ordinary text here), more invisible characters.
    "\t\t\t\n\n\n   \r\r",
    "<|endoftext|> is ordinary text here",
    "\ufeffBOM and \u200b zero width \u2028 line sep",
]

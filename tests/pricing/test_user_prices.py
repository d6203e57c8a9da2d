"""The user's prices file (benchmark/pricing/prices/user_prices.py): a number is read exactly as written
or refused in one line naming the file, line and column; a file that is not a small regular CSV
is refused at once (issue 38: items 2 and 9, a duplicated column, prices no vendor charges)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from contextlib import contextmanager
from pathlib import Path

import pytest

from benchmark.cli.parser import main
from benchmark.plumbing.errors import BenchmarkError
from benchmark.pricing.prices.book import price_book
from benchmark.pricing.prices.user_prices import MAX_PRICES_BYTES, read_user_prices
from benchmark.results.rows import load_results
from tests.support.paths import DATA, REPO

FIXTURE = DATA / "results_cost.json"
HEADER = "model,input_usd_per_mtok,context_window,tokenizer\n"


@pytest.fixture(autouse=True)
def own_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))


@pytest.fixture(scope="module")
def results():
    return load_results(FIXTURE)


@contextmanager
def within(seconds: int):
    """Fail, rather than hang, when the block has not returned after `seconds`."""
    def hung(*_):
        raise TimeoutError(f"still waiting after {seconds} s")

    previous = signal.signal(signal.SIGALRM, hung)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


def prices(tmp_path: Path, text: str, name: str = "mine.csv") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def refused(path: Path) -> str:
    with pytest.raises(BenchmarkError) as caught:
        read_user_prices(path)
    message = str(caught.value)
    assert message.startswith(str(path)) and "\n" not in message
    return message


@pytest.mark.parametrize("text, message", [
    ("", "empty; the first line must be a header"),
    ("model,price\n", "line 1: unknown column 'price'"),
    ("model,context_window\n", "line 1: no 'input_usd_per_mtok' column"),
    ("model,input_usd_per_mtok\n", "a header and no prices"),
    ("model,input_usd_per_mtok\ngpt-4o,1,2\n", "line 2: 3 fields, the header has 2"),
    ("model,input_usd_per_mtok\n,1\n", "line 2: no model name"),
    ("model,input_usd_per_mtok\r\ngpt-4o,1\rgpt-5,2\r\n", "line 2: a carriage return inside the line"),
    ('model,input_usd_per_mtok\n"gpt"4o,1\n', "line 2: text after a quoted cell's closing quote"),
])
def test_a_bad_prices_file_is_one_line_naming_file_and_line(tmp_path, text, message):
    assert message in refused(prices(tmp_path, text))


def test_a_prices_file_that_is_not_utf8_or_missing(tmp_path):
    path = tmp_path / "latin1.csv"
    path.write_bytes("model,input_usd_per_mtok\ncaf\xe9,1\n".encode("latin-1"))
    assert "not UTF-8 (byte 28)" in refused(path)
    assert "no such prices file" in refused(tmp_path / "absent.csv")


def test_a_european_decimal_comma_is_refused_not_read_a_hundred_times_too_high(tmp_path, capsys):
    # The reproduction: "0,05" was read as 5.00 (the comma dropped as a thousands separator).
    path = prices(tmp_path, 'model,input_usd_per_mtok\ndeepseek-v4-flash,"0,05"\ndeepseek-v4-pro,"0,05"\n', "e.csv")
    assert main(["cost", "hin", "--results", str(FIXTURE), "--prices", str(path)]) == 2
    captured = capsys.readouterr()
    assert "$5.00" not in captured.out and captured.out == ""
    error = captured.err.strip()
    assert error.count("\n") == 0
    assert error.startswith(f"error: {path}, line 2, input_usd_per_mtok: '0,05' has a comma"), error


@pytest.mark.parametrize("cell, why", [
    ("1,000", "has a comma"),
    ("1.000,50", "has a comma"),
    ("1 000", "has a thousands separator"),
    ("1'000", "has a thousands separator"),
    ("1\u202f000", "has a thousands separator"),
    ("$2.50", "has a currency sign or a unit"),
    ("€2.50", "has a currency sign or a unit"),
    ("2.50 USD", "has a currency sign or a unit"),
    ("2.50/M", "has a currency sign or a unit"),
    ("2.50/Mtok", "has a currency sign or a unit"),
    ("-1", "is negative"),
    ("inf", "is not a finite number"),
    ("nan", "is not a finite number"),
    ("1_000", "has a thousands separator"),  # Python's float() reads it as 1000
    ("٢.٥", "is not a number"),  # so are other scripts' digits
    ("abc", "is not a number"),
    ("", "empty"),
])
def test_a_price_not_written_as_a_plain_number_names_its_cell(tmp_path, cell, why):
    path = prices(tmp_path, f'{HEADER}gpt-4o,"{cell}",,\n')
    message = refused(path)
    assert message.startswith(f"{path}, line 2, input_usd_per_mtok: ")
    assert why in message and "e.g. 2.50" in message


@pytest.mark.parametrize("cell", ["1e308", "1e-320", "0.0000001", "1000001", "1e400"])
def test_a_price_no_vendor_charges_is_refused(tmp_path, cell):
    message = refused(prices(tmp_path, f"{HEADER}gpt-4o,{cell},,\n"))
    assert "line 2, input_usd_per_mtok" in message and "is no vendor's price" in message


@pytest.mark.parametrize("cell, why", [("128k", "a currency sign or a unit"), ("128,000", "has a comma"),
                                       ("1e30", "is no model's window"), ("0", "is no model's window"),
                                       ("12.5", "is no model's window"), ("1000000001", "is no model's window")])
def test_a_window_that_is_not_a_plain_whole_number_of_tokens_is_refused(tmp_path, cell, why):
    message = refused(prices(tmp_path, f'{HEADER}gpt-4o,2.50,"{cell}",\n'))
    assert "line 2, context_window" in message and why in message


def test_plain_numbers_are_read_exactly(tmp_path):
    path = prices(tmp_path, f"{HEADER}a,2.50,128000,\nb,.5,1e5,\nc,1e-3,,\nd,0,,\ne,1000000,1000000000,\n"
                            "f,0.000001,1,\n")
    read = {model: (user.listing.input_usd_per_mtok, user.listing.context_window, user.line)
            for model, user in read_user_prices(path).items()}
    assert read == {"a": (2.5, 128000, 2), "b": (0.5, 100000, 3), "c": (0.001, None, 4), "d": (0.0, None, 5),
                    "e": (1e6, 10**9, 6), "f": (1e-6, 1, 7)}


def test_a_duplicated_column_is_refused_not_the_last_one_winning(tmp_path):
    path = prices(tmp_path, "model,input_usd_per_mtok,input_usd_per_mtok\ngpt-4o,2.50,0.01\n")
    assert "line 1: column 'input_usd_per_mtok' appears twice (columns 2 and 3)" in refused(path)


def test_a_model_priced_twice_names_both_lines(tmp_path):
    assert "line 4: 'gpt-4o' is priced twice (line 2 too)" in refused(
        prices(tmp_path, "model,input_usd_per_mtok\ngpt-4o,1\n\ngpt-4o,2\n"))


def test_a_stray_quote_in_a_large_file_is_an_error_of_its_line(tmp_path):
    # Read whole, the quote swallowed the rest of a 209 kB file: "_csv.Error: field larger than field limit".
    rows = [f"model-{n},{n % 7 + 1}.25,,\n" for n in range(12000)]
    rows[100] = 'model-100,"1.25,,\n'
    path = prices(tmp_path, HEADER + "".join(rows))
    assert path.stat().st_size > 200_000
    message = refused(path)
    assert message == f"{path}, line 102: a quote (\") opens a cell the line never closes; close it or remove it"


def test_a_line_longer_than_a_csv_cell_may_be_is_one_line(tmp_path):
    message = refused(prices(tmp_path, f"{HEADER}{'m' * 200_000},1,,\n"))
    assert message.startswith(f"{tmp_path / 'mine.csv'}, line 2: not CSV (field larger than field limit")


def test_a_fifo_is_refused_without_waiting_for_a_writer(tmp_path):
    path = tmp_path / "prices.csv"
    os.mkfifo(path)
    with within(10):
        assert refused(path) == (f"{path}: is a FIFO (named pipe), not a prices file; give a CSV file with the "
                                 "header model,input_usd_per_mtok")


def test_a_device_is_refused_unread(tmp_path):
    with within(10):
        message = refused(Path("/dev/zero"))
    assert message.startswith("/dev/zero: is a character device, not a prices file")


def test_a_file_over_the_size_bound_is_refused_before_it_is_read(tmp_path):
    path = tmp_path / "huge.csv"
    with open(path, "wb") as handle:  # sparse: a hundred megabytes of nothing, never read
        handle.write(HEADER.encode())
        handle.truncate(100 * 1024 * 1024)
    assert refused(path) == (f"{path}: 104,857,600 bytes, more than a prices file holds (at most "
                             f"{MAX_PRICES_BYTES:,}); give a CSV file with the header model,input_usd_per_mtok")


def test_a_prices_file_at_the_size_bound_is_booked_in_one_pass(tmp_path, results):
    # Booking each user model against every earlier one made this quadratic (40k rows: 15 s, and
    # 100 MB was killed at 120 s); one pass books the largest file the bound allows. A subprocess
    # with a time limit, so a regression fails rather than running for minutes.
    lines, size = [HEADER], len(HEADER)
    while size < MAX_PRICES_BYTES - 64:
        line = f"model-{len(lines)},1.5,,tiktoken/o200k_base\n"
        lines.append(line)
        size += len(line)
    path = prices(tmp_path, "".join(lines))
    script = ("import sys; from benchmark.pricing.prices.book import price_book; from benchmark.results.rows import "
              "load_results; book = price_book(load_results(sys.argv[1]), prices=sys.argv[2]); "
              "print(len(book.models['tiktoken/o200k_base']))")
    done = subprocess.run([sys.executable, "-c", script, str(FIXTURE), str(path)], capture_output=True, text=True,
                          timeout=120, env={**os.environ, "PYTHONPATH": str(REPO)})
    assert done.returncode == 0, done.stderr
    assert int(done.stdout) >= len(lines) - 1


def test_a_user_price_replaces_the_models_file_tokenizer_of_its_model(tmp_path, results):
    path = prices(tmp_path, f"{HEADER}gpt-4o,2.50,,llama/llama3\n")
    book = price_book(results, prices=path)
    assert "gpt-4o" not in book.models["tiktoken/o200k_base"] and "gpt-4o" in book.models["llama/llama3"]

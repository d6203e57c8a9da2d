"""The one user-facing error type.

A `BenchmarkError` is something the user can fix (an unknown tokenizer, a misaligned corpus, a
model file that was edited by hand). Its message is one line that names the thing and the fix;
the CLI prints it without a traceback and exits with status 2.
"""


class BenchmarkError(Exception):
    """A problem the user can fix; the message names the file, line or value and the fix."""


def one_line(exc: BaseException, *, limit: int = 200) -> str:
    """An exception as one line for a status or a message: its type and its message's first line.

    >>> one_line(RuntimeError("Input too long to encode safely\\n(details)"))
    'RuntimeError: Input too long to encode safely'
    """
    text = str(exc).strip()
    message = text.splitlines()[0] if text else ""
    line = f"{type(exc).__name__}: {message}" if message else type(exc).__name__
    return line if len(line) <= limit else line[: limit - 1] + "\u2026"

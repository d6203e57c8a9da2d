"""The one user-facing error type.

A `BenchmarkError` is something the user can fix (an unknown tokenizer, a misaligned corpus, a
model file that was edited by hand). Its message is one line that names the thing and the fix;
the CLI prints it without a traceback and exits with status 2.
"""


class BenchmarkError(Exception):
    """A problem the user can fix; the message names the file, line or value and the fix."""

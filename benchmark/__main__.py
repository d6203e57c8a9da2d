"""`python -m benchmark ...` hands argv to the CLI."""

import sys

try:
    from benchmark.cli.parser import main

    status = main()
except KeyboardInterrupt:  # Ctrl-C before the CLI's own handler (while importing or parsing)
    print("interrupted", file=sys.stderr)
    status = 130
sys.exit(status)

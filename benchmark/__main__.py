"""`python -m benchmark ...` hands argv to the CLI."""

import sys

from benchmark.cli import main

sys.exit(main())

"""The command line: `parser.py` builds one subcommand per verb (`cost.py` the `cost` verb's, with its
handler), `commands.py` runs each verb as a plain typed function (`show.py` the two that only show, `encode`
and `list`), `argtypes.py` holds the argument types every verb shares."""

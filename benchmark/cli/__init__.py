"""The command line: `parser.py` builds one subcommand per verb, `commands.py` runs each verb as a
plain typed function, `argtypes.py` holds the argument types every verb shares."""

"""The plumbing every package uses, one job a module: `errors.py` the one user-facing error type,
`fileio.py` atomic writes and the one versioned-JSON reader, `pinned.py` the one reader of files
pinned by SHA-256, `escaping.py` outside text made inert in Markdown, CSV and the terminal,
`progress.py` progress on a terminal, `children.py` forked processes that die with the run,
`publish.py` an output folder replaced whole or not at all (one writer at a time, the atomic
swap, never a file this program did not write), `manifest.py` the list of files a report wrote,
which tells them from foreign ones, `sealed.py` cache entries sealed with a key kept beside them.

Nothing is imported here: each module is imported by name where it is used."""

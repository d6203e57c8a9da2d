"""Cache entries a reader can trust: data sealed with a secret key kept beside them.

A cache may be copied between machines or shared between people, so what it holds is read as
data (the caller parses bytes, never unpickles them) and is trusted only when sealed: an
HMAC-SHA256 under the folder's key, over the entry's name (its key: a digest of the code and the
inputs it was computed from) and its bytes. An entry edited by anyone without the key, even one
whose plain SHA-256 was recomputed, or an entry moved under another name, fails the seal and is a
miss: it is computed again, never a wrong figure.

The key is 32 random bytes, in hex, in `<folder>/.seal-key`, made on first use and readable by
its owner only. Whoever can read it can write entries the folder trusts: to use a cache on
another machine, copy the folder with its key; to share one between people, share the key only
with those whose entries you would take as your own. A key that is not a regular file of 64 hex
digits is replaced by a new one (every entry sealed with the old one is then a miss).
"""

from __future__ import annotations

import hashlib
import hmac
import os
import secrets
import stat
import tempfile
from pathlib import Path

KEY_NAME = ".seal-key"
_KEY_HEX = 64


class Seal:
    """Seals and checks the entries of one cache folder (`folder`, which need not exist yet)."""

    def __init__(self, folder: Path) -> None:
        self.folder = Path(folder)
        self._key: bytes | None = None

    def tag(self, name: str, body: bytes) -> str | None:
        """The seal of entry `name` holding `body` (hex); None when the folder has no key and cannot
        be given one (a read-only cache): such an entry is not kept."""
        key = self._get_key(make=True)
        return None if key is None else _mac(key, name, body)

    def opens(self, name: str, body: bytes, tag: str) -> bool:
        """Whether `tag` is the seal of `name` holding `body` under this folder's key."""
        key = self._get_key(make=False)
        return key is not None and hmac.compare_digest(_mac(key, name, body), tag)

    def _get_key(self, *, make: bool) -> bytes | None:
        if self._key is None:
            self._key = _read_key(self.folder / KEY_NAME)
        if self._key is None and make:
            self._key = _make_key(self.folder)
        return self._key


def _mac(key: bytes, name: str, body: bytes) -> str:
    return hmac.new(key, name.encode("utf-8") + b"\0" + body, hashlib.sha256).hexdigest()


def _read_key(path: Path) -> bytes | None:
    """The key at `path`: a regular file (not a link, not a FIFO) of 64 hex digits; else None."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0))
    except OSError:
        return None
    with os.fdopen(fd, "rb") as handle:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return None
        text = handle.read(_KEY_HEX + 2).strip()
    try:
        key = bytes.fromhex(text.decode("ascii"))
    except ValueError:
        return None
    return key if len(key) == _KEY_HEX // 2 else None


def _make_key(folder: Path) -> bytes | None:
    """A new key at `folder`/.seal-key, put there whole (written beside it, then linked in place);
    when another run made one first, that one. A malformed key is replaced."""
    path = folder / KEY_NAME
    try:
        folder.mkdir(parents=True, exist_ok=True)
        fd, temporary = tempfile.mkstemp(prefix=f"{KEY_NAME}.", dir=folder)  # owner-only, like the key
    except OSError:
        return None
    try:
        with os.fdopen(fd, "w", encoding="ascii") as handle:
            handle.write(secrets.token_hex(_KEY_HEX // 2) + "\n")
        try:
            os.link(temporary, path)
        except FileExistsError:
            if _read_key(path) is None:
                os.replace(temporary, path)
    except OSError:
        return None
    finally:
        Path(temporary).unlink(missing_ok=True)
    return _read_key(path)

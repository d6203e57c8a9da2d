"""Model files: versioned, human-readable JSON with a fingerprint; tiktoken's rank format.

What this module adds: reading and writing a model's content (`ModelContent`: the pattern, the
merges or ranks, the special tokens, the name) and its fingerprint. It knows nothing of the
tokenizer: `ByteLevelBPE.load` builds the model from the content read here, `ByteLevelBPE.save`
hands its content over. What it leaves out: the export to other libraries (export.py).

A trained model file looks like this (one merge per line, with the text it makes, for reading):

    {
     "format": "tokencost-bpe",
     "version": 1,
     "pattern_name": "cl100k",
     "pattern": "...",
     "special_tokens": {"<|endoftext|>": 4096},
     "fingerprint": "<sha256>",
     "merges": [
      [32, 116, " t"],
      ...
     ]
    }

A model built from a tiktoken rank table stores `"ranks": [["<base64 token>", id], ...]` instead of
merges. The fingerprint is SHA-256 over the canonical content (pattern, merges or ranks, special
tokens; not the readable texts, which are derived), so the same training gives the same
fingerprint, and a file edited by hand is refused on load: an edit to the content breaks the
fingerprint, an edit to a derived field (a merge's text, `pattern_name`) no longer matches what
the content gives. Every id and rank must be a JSON integer: `"256"`, `256.7` and `true` are
refused by name, not read as 256 or 1.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import json
from dataclasses import dataclass
from pathlib import Path

from benchmark.bpe.patterns import resolve_pattern
from benchmark.bpe.tables import ID_LAYOUTS, check_rank_table, merged_bytes
from benchmark.plumbing.errors import BenchmarkError
from benchmark.plumbing.fileio import atomic_write_text, read_versioned_json

FORMAT = "tokencost-bpe"
VERSION = 1
_HINT = "train and save the model again"


class ModelFileError(BenchmarkError, ValueError):
    """A model file that cannot be used as it is; the message names the file and the fix."""


@dataclass(frozen=True)
class ModelContent:
    """Everything a model is built from: exactly one of `merges` (ours) or `ranks` (tiktoken's)."""

    pattern: str | None  # the pattern's text (None: no split)
    special_tokens: dict[str, int]
    name: str | None = None
    merges: list[tuple[int, int]] | None = None  # in the bytes-first ids (byte b is id b)
    ranks: dict[bytes, int] | None = None
    id_layout: str = "bytes-first"  # specials-first: the file's ids are these plus the number of specials

    @property
    def first_byte_id(self) -> int:
        return 0 if self.id_layout == "bytes-first" else len(self.special_tokens)


def fingerprint_of(content: ModelContent) -> str:
    """SHA-256 over the canonical content: pattern, merges (or the ranks' digest), special tokens."""
    canonical: dict = {
        "format": FORMAT,
        "version": VERSION,
        "pattern": content.pattern,
        "special_tokens": dict(sorted(content.special_tokens.items())),
    }
    if content.id_layout != "bytes-first":  # absent for the default: its fingerprints stay as they were
        canonical["id_layout"] = content.id_layout
    if content.merges is not None:
        canonical["merges"] = [list(pair) for pair in content.merges]
    else:
        text = tiktoken_rank_text(content.ranks)
        canonical["ranks_sha256"] = hashlib.sha256(text.encode("ascii")).hexdigest()
    text = json.dumps(canonical, sort_keys=True, separators=(",", ":"), ensure_ascii=True)
    return hashlib.sha256(text.encode("ascii")).hexdigest()


def save_model(path: Path, content: ModelContent) -> None:
    """Write the model file (temp file, then rename)."""
    header = {
        "format": FORMAT,
        "version": VERSION,
        "pattern_name": resolve_pattern(content.pattern)[0],
        "pattern": content.pattern,
        "name": content.name,
        "special_tokens": dict(sorted(content.special_tokens.items())),
        "fingerprint": fingerprint_of(content),
    }
    if content.id_layout != "bytes-first":
        header["id_layout"] = content.id_layout
    first = content.first_byte_id  # merges are written in the model's own ids
    lines = ["{"]
    lines += [f" {json.dumps(key)}: {json.dumps(value, ensure_ascii=False)}," for key, value in header.items()]
    if content.merges is not None:
        lines.append(' "merges": [')
        made = merged_bytes(content.merges)
        body = [
            f"  [{left + first}, {right + first}, {json.dumps(_readable(made[256 + k]), ensure_ascii=False)}]"
            for k, (left, right) in enumerate(content.merges)
        ]
    else:
        lines.append(' "ranks": [')
        ranks = sorted(content.ranks.items(), key=lambda item: item[1])
        body = [f'  ["{base64.b64encode(data).decode("ascii")}", {rank}]' for data, rank in ranks]
    lines.append(",\n".join(body))
    lines += [" ]", "}", ""]
    atomic_write_text(path, "\n".join(lines))


def load_model(path: Path) -> ModelContent:
    """The content of a model file written by `save_model`, every field checked; ModelFileError
    (one line, naming the file) for anything else."""
    path = Path(path)
    _, raw = read_versioned_json(path, what="model file", format_name=FORMAT, versions=(VERSION,),
                                 hint=_HINT, error=ModelFileError)
    try:
        content = _content_of(raw)
    except (KeyError, TypeError, IndexError, ValueError, AttributeError) as exc:
        raise ModelFileError(f"{path}: malformed model file ({type(exc).__name__}: {exc})") from None
    found = fingerprint_of(content)
    if found != raw.get("fingerprint"):
        raise ModelFileError(
            f"{path}: fingerprint mismatch (file says {raw.get('fingerprint')!r}, content hashes to "
            f"{found}): the file was changed after it was saved; {_HINT}"
        )
    _check_derived_fields(raw, content, path)
    return content


def _content_of(raw: dict) -> ModelContent:
    """The content of a model file's JSON, with every type checked (errors become ModelFileError)."""
    _, pattern = resolve_pattern(raw["pattern"])
    special_tokens = {}
    for text, token_id in raw["special_tokens"].items():
        special_tokens[text] = _json_int(token_id, f"the id of special token {text!r}")
    name = raw.get("name")
    if name is not None and not isinstance(name, str):
        raise TypeError(f"'name' is {json.dumps(name)}, not a string")
    id_layout = raw.get("id_layout", "bytes-first")
    if id_layout not in ID_LAYOUTS:
        raise ValueError(f"'id_layout' is {json.dumps(id_layout)}, not one of {', '.join(ID_LAYOUTS)}")
    if "merges" in raw:
        first = 0 if id_layout == "bytes-first" else len(special_tokens)
        merges = []
        for k, entry in enumerate(raw["merges"]):
            if not isinstance(entry, list) or len(entry) not in (2, 3):
                raise TypeError(f"merge {k + 1} is {json.dumps(entry)[:60]}, not [left_id, right_id, text]")
            left = _json_int(entry[0], f"merge {k + 1}'s left id") - first
            right = _json_int(entry[1], f"merge {k + 1}'s right id") - first
            if min(left, right) < 0:
                raise ValueError(f"merge {k + 1} uses id {min(left, right) + first}, a special token's in this layout")
            merges.append((left, right))
        merged_bytes(merges)  # every id made before its merge, no bytes made twice
        return ModelContent(pattern, special_tokens, name, merges=merges, id_layout=id_layout)
    if id_layout != "bytes-first":
        raise ValueError("a rank table keeps its own ids: 'id_layout' must be bytes-first")
    ranks: dict[bytes, int] = {}
    for entry in raw["ranks"]:
        if not isinstance(entry, list) or len(entry) != 2 or not isinstance(entry[0], str):
            raise TypeError(f"a rank entry is {json.dumps(entry)[:60]}, not [\"<base64 token>\", rank]")
        try:
            token = base64.b64decode(entry[0], validate=True)
        except binascii.Error:
            raise ValueError(f"rank entry {entry[0]!r} is not base64") from None
        if token in ranks:
            raise ValueError(f"token {token!r} has two ranks")
        ranks[token] = _json_int(entry[1], f"the rank of {token!r}")
    check_rank_table(ranks)  # before anything is sized by the largest rank
    return ModelContent(pattern, special_tokens, name, ranks=ranks)


def _json_int(value: object, what: str) -> int:
    # subtle: JSON's true is Python's True, an int; 256.0 would compare equal to 256.
    if type(value) is not int:
        raise TypeError(f"{what} is {json.dumps(value)}, not an integer")
    return value


def _check_derived_fields(raw: dict, content: ModelContent, path: Path) -> None:
    """The readable fields outside the fingerprint must say what the content gives."""
    pattern_name = resolve_pattern(content.pattern)[0]
    if "pattern_name" in raw and raw["pattern_name"] != pattern_name:
        raise ModelFileError(
            f"{path}: 'pattern_name' is {raw['pattern_name']!r} but the pattern stored is "
            f"{pattern_name!r}: the file was changed after it was saved; {_HINT}"
        )
    if content.merges is None:
        return
    made = merged_bytes(content.merges)
    for k, entry in enumerate(raw["merges"]):
        if len(entry) > 2 and entry[2] != (text := _readable(made[256 + k])):
            raise ModelFileError(
                f"{path}: merge {k + 1} ({entry[0]}, {entry[1]}) is written as making {entry[2]!r}, but it "
                f"makes {text!r}: the file was changed after it was saved; {_HINT}"
            )


def save_tiktoken_ranks(path: Path, ranks: dict[bytes, int]) -> None:
    """Write tiktoken's rank format (`base64(token) rank` per line), e.g. for `load_tiktoken_bpe`."""
    atomic_write_text(path, tiktoken_rank_text(ranks))


def tiktoken_rank_text(ranks: dict[bytes, int]) -> str:
    """tiktoken's rank format, one `base64(token) rank` line per token, in rank order."""
    ordered = sorted(ranks.items(), key=lambda item: item[1])
    return "".join(f"{base64.b64encode(data).decode('ascii')} {rank}\n" for data, rank in ordered)


def _readable(data: bytes) -> str:
    # Token bytes shown as text where they are UTF-8, as \xNN escapes where a token ends mid-character.
    return data.decode("utf-8", errors="backslashreplace")

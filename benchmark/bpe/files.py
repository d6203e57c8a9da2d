"""Model files: versioned, human-readable JSON with a fingerprint; export to tiktoken's format.

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
the content gives.
"""

from __future__ import annotations

import base64
import hashlib
import json
from pathlib import Path
from typing import TYPE_CHECKING

from benchmark.errors import BenchmarkError
from benchmark.fileio import atomic_write_text

if TYPE_CHECKING:
    from benchmark.bpe.tokenizer import ByteLevelBPE

FORMAT = "tokencost-bpe"
VERSION = 1


class ModelFileError(BenchmarkError, ValueError):
    """A model file that cannot be used as it is; the message names the file and the fix."""


def canonical_content(model: ByteLevelBPE) -> dict:
    content: dict = {
        "format": FORMAT,
        "version": VERSION,
        "pattern": model.pattern,
        "special_tokens": dict(sorted(model.special_tokens.items())),
    }
    if model.is_trained:
        content["merges"] = [list(pair) for pair in model.merges]
    else:
        # Ranks sorted by id: a canonical order whatever the dict order was.
        ranks = sorted(model.mergeable_ranks().items(), key=lambda item: item[1])
        content["ranks_sha256"] = hashlib.sha256(_tiktoken_rank_text(ranks).encode("ascii")).hexdigest()
    return content


def fingerprint(model: ByteLevelBPE) -> str:
    text = json.dumps(canonical_content(model), sort_keys=True, separators=(",", ":"), ensure_ascii=True)
    return hashlib.sha256(text.encode("ascii")).hexdigest()


def save_model(model: ByteLevelBPE, path: Path) -> None:
    header = {
        "format": FORMAT,
        "version": VERSION,
        "pattern_name": model.pattern_name,
        "pattern": model.pattern,
        "name": model.name,
        "special_tokens": dict(sorted(model.special_tokens.items())),
        "fingerprint": model.fingerprint,
    }
    lines = ["{"]
    lines += [f" {json.dumps(key)}: {json.dumps(value, ensure_ascii=False)}," for key, value in header.items()]
    if model.is_trained:
        lines.append(' "merges": [')
        body = [
            f"  [{left}, {right}, {json.dumps(_readable(model.token_bytes(256 + k)), ensure_ascii=False)}]"
            for k, (left, right) in enumerate(model.merges)
        ]
    else:
        lines.append(' "ranks": [')
        ranks = sorted(model.mergeable_ranks().items(), key=lambda item: item[1])
        body = [f'  ["{base64.b64encode(data).decode("ascii")}", {rank}]' for data, rank in ranks]
    lines.append(",\n".join(body))
    lines += [" ]", "}", ""]
    atomic_write_text(path, "\n".join(lines))


def load_model(cls: type[ByteLevelBPE], path: Path) -> ByteLevelBPE:
    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise ModelFileError(f"{path}: no such model file") from None
    except IsADirectoryError:
        raise ModelFileError(f"{path}: is a folder, not a model file") from None
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise ModelFileError(f"{path}: not a JSON model file ({exc})") from None
    if not isinstance(raw, dict) or raw.get("format") != FORMAT:
        raise ModelFileError(f"{path}: not a {FORMAT} model file (its 'format' is {raw.get('format') if isinstance(raw, dict) else None!r})")
    if raw.get("version") != VERSION:
        raise ModelFileError(
            f"{path}: model file version {raw.get('version')!r}, this program reads version {VERSION!r}; "
            "train the model again with this version"
        )
    try:
        special_tokens = {str(k): int(v) for k, v in raw["special_tokens"].items()}
        common = dict(pattern=raw["pattern"], special_tokens=special_tokens, name=raw.get("name"))
        if "merges" in raw:
            merges = [(int(entry[0]), int(entry[1])) for entry in raw["merges"]]
            model = cls(merges=merges, **common)
        else:
            ranks = {base64.b64decode(token, validate=True): int(rank) for token, rank in raw["ranks"]}
            model = cls(ranks=ranks, **common)
    except (KeyError, TypeError, IndexError, ValueError, AttributeError) as exc:
        raise ModelFileError(f"{path}: malformed model file ({type(exc).__name__}: {exc})") from None
    if model.fingerprint != raw.get("fingerprint"):
        raise ModelFileError(
            f"{path}: fingerprint mismatch (file says {raw.get('fingerprint')!r}, content hashes to "
            f"{model.fingerprint}): the file was changed after it was saved; train and save it again"
        )
    _check_derived_fields(raw, model, path)
    return model


def _check_derived_fields(raw: dict, model: ByteLevelBPE, path: Path) -> None:
    """The readable fields outside the fingerprint must say what the content gives."""
    if "pattern_name" in raw and raw["pattern_name"] != model.pattern_name:
        raise ModelFileError(
            f"{path}: 'pattern_name' is {raw['pattern_name']!r} but the pattern stored is "
            f"{model.pattern_name!r}: the file was changed after it was saved; train and save it again"
        )
    for k, entry in enumerate(raw.get("merges", ())):
        if len(entry) > 2 and entry[2] != (made := _readable(model.token_bytes(256 + k))):
            raise ModelFileError(
                f"{path}: merge {k + 1} ({entry[0]}, {entry[1]}) is written as making {entry[2]!r}, but it "
                f"makes {made!r}: the file was changed after it was saved; train and save it again"
            )


def save_tiktoken_ranks(model: ByteLevelBPE, path: Path) -> None:
    """Write tiktoken's rank format (`base64(token) rank` per line), e.g. for `load_tiktoken_bpe`."""
    ranks = sorted(model.mergeable_ranks().items(), key=lambda item: item[1])
    atomic_write_text(path, _tiktoken_rank_text(ranks))


def _tiktoken_rank_text(ranks: list[tuple[bytes, int]]) -> str:
    return "".join(f"{base64.b64encode(data).decode('ascii')} {rank}\n" for data, rank in ranks)


def _readable(data: bytes) -> str:
    # Token bytes shown as text where they are UTF-8, as \xNN escapes where a token ends mid-character.
    return data.decode("utf-8", errors="backslashreplace")

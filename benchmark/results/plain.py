"""Typed values as JSON data and back, checked against their annotations.

`to_plain(value)` turns a dataclass (and the tuples, lists and arrays it holds) into
what json.dumps writes; `from_plain(hint, data, where)` reads such data back as the type `hint`
says, checking every field, and raises a RecordError naming `where` and what is wrong. The run
record (record.py), the summaries and the results cache's entries are read through it.
"""

from __future__ import annotations

import base64
import dataclasses
import functools
import math
import sys
import types
import typing
from array import array
from typing import Any, Union


class RecordError(ValueError):
    """A record whose fields do not have the types they are declared with."""


def from_plain(hint: Any, value: Any, where: str, *, strict: bool = True) -> Any:
    """`value` read from JSON as the type `hint` says (a dataclass, tuple, list, dict,
    array, scalar), checked field by field; a RecordError names `where` and what is wrong."""
    return _decode(hint, value, where, strict)


def to_plain(value: Any) -> Any:
    """A typed value as JSON data that `from_plain` reads back equal: a dataclass as an object of
    its fields, an array as its typecode and its bytes (little-endian, base64: a language's word
    spans are megabytes of numbers), tuples as lists."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: to_plain(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, array):
        little = array(value.typecode, value)
        if sys.byteorder == "big":
            little.byteswap()
        return {"typecode": value.typecode, "itemsize": value.itemsize,
                "base64": base64.b64encode(little.tobytes()).decode("ascii")}
    return _plain(value)


def _plain(value: Any) -> Any:
    """Tuples as lists, recursively: what json.dumps writes, and what reads back equal."""
    if isinstance(value, dict):
        return {key: to_plain(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        if set(map(type, value)) <= _SCALARS:  # a list of counts: as it is, without a call per item
            return list(value)
        return [to_plain(item) for item in value]
    return value


_SCALARS = {int, float, str, bool, type(None)}


@functools.lru_cache(maxsize=None)
def _hints(cls: type) -> dict[str, Any]:
    return typing.get_type_hints(cls)


def _decode(hint: Any, value: Any, where: str, strict: bool) -> Any:
    """`value` (from JSON) as `hint` says, or a RecordError naming `where` and what is wrong."""
    if hint is Any:
        return value
    origin = typing.get_origin(hint)
    if origin in (Union, types.UnionType):
        options = typing.get_args(hint)
        if value is None and type(None) in options:
            return None
        errors = []
        for option in options:
            if option is type(None):
                continue
            try:
                return _decode(option, value, where, strict)
            except RecordError as exc:
                errors.append(str(exc))
        raise RecordError(errors[0] if len(errors) == 1 else f"{where}: {value!r:.60} fits none of {hint}")
    if dataclasses.is_dataclass(hint):
        if not isinstance(value, dict):
            raise RecordError(f"{where}: expected an object, got {type(value).__name__}")
        hints = _hints(hint)
        unknown = set(value) - set(hints)
        if unknown and strict:
            raise RecordError(f"{where}: unknown field {sorted(unknown)[0]!r}")
        fields = {name: _decode(hints[name], item, f"{where}.{name}", strict)
                  for name, item in value.items() if name in hints}
        missing = [f.name for f in dataclasses.fields(hint) if f.name not in fields
                   and f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING]
        if missing:
            raise RecordError(f"{where}: missing field {missing[0]!r}")
        return hint(**fields)
    if origin is tuple:
        if not isinstance(value, (list, tuple)):
            raise RecordError(f"{where}: expected a list, got {type(value).__name__}")
        item_hint = typing.get_args(hint)[0]
        return tuple(_decode(item_hint, item, f"{where}[{i}]", strict) for i, item in enumerate(value))
    if origin is dict:
        if not isinstance(value, dict):
            raise RecordError(f"{where}: expected an object, got {type(value).__name__}")
        _, item_hint = typing.get_args(hint)
        return {str(key): _decode(item_hint, item, f"{where}.{key}", strict) for key, item in value.items()}
    if origin is list:
        if not isinstance(value, list):
            raise RecordError(f"{where}: expected a list, got {type(value).__name__}")
        return _items(typing.get_args(hint)[0], value, where, strict)
    if hint is array:
        return _array(value, where)
    return _scalar(hint, value, where)


def _items(hint: Any, values: list, where: str, strict: bool) -> list:
    """A list's items as `hint` says; whole numbers and strings checked in one pass."""
    if hint in (int, str):
        if not set(map(type, values)) <= {hint}:  # bool is not an int here
            raise RecordError(f"{where}: expected a list of {hint.__name__}")
        return values
    return [_decode(hint, item, f"{where}[{i}]", strict) for i, item in enumerate(values)]


def _array(value: Any, where: str) -> array:
    """An array from `to_plain`'s typecode, item size and little-endian bytes."""
    try:
        typecode, itemsize, data = value["typecode"], value["itemsize"], base64.b64decode(value["base64"], validate=True)
        if set(value) != {"typecode", "itemsize", "base64"} or typecode not in "bBhHiIlLqQ":
            raise ValueError(typecode)
        found = array(typecode)
        if found.itemsize != itemsize:
            raise ValueError(f"items of {itemsize} bytes, here {found.itemsize}")
        found.frombytes(data)
    except (TypeError, ValueError, KeyError) as exc:
        raise RecordError(f"{where}: not an array ({exc})") from None
    if sys.byteorder == "big":
        found.byteswap()
    return found


def _scalar(hint: type, value: Any, where: str) -> Any:
    # bool is an int in Python, and an int is fine where a float is meant; nothing else converts.
    if hint is bool:
        ok = isinstance(value, bool)
    elif hint is int:
        ok = isinstance(value, int) and not isinstance(value, bool)
    elif hint is float:
        ok = isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)
    else:
        ok = isinstance(value, hint)
    if not ok:
        raise RecordError(f"{where}: expected {hint.__name__}, got {value!r:.60}")
    return float(value) if hint is float else value

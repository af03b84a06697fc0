"""Input checks shared by the service's operations: each failure names its field."""

from __future__ import annotations

from typing import Sized

import logic
from logic import LFParseError

from .errors import InvalidField, MalformedLF


def text(value: str, field: str, limit: int, allow_empty: bool = False) -> str:
    """`value`, if it is non-empty (unless allowed) and at most `limit` characters."""
    if not value and not allow_empty:
        raise InvalidField(field, "must not be empty", reason="EMPTY")
    if len(value) > limit:
        raise InvalidField(field, f"{len(value)} characters; the limit is {limit}", reason="TOO_LONG")
    return value


def lf(value: str, fmt: str, field: str, limit: int) -> logic.Formula:
    """The parsed LF in `value`; MalformedLF (with the position) when it does not parse."""
    text(value, field, limit)
    try:
        return logic.parse(value, fmt)
    except LFParseError as e:
        raise MalformedLF(field, e) from None


def batch_size(items: Sized, limit: int) -> None:
    """A batch has at least one item and at most `limit`."""
    if not len(items):
        raise InvalidField("items", "at least one item is needed", reason="EMPTY")
    if len(items) > limit:
        raise InvalidField("items", f"{len(items)} items; the limit is {limit}", reason="TOO_MANY")

"""What the conversions share: the AmP-style RPCs' formats, enum values (unknown: UNKNOWN_ENUM),
and batch items read and answered one by one (a bad item is that item's error)."""

from __future__ import annotations

from typing import Any, Callable, Sequence

from ambit.proto.v1 import ambit_pb2 as pb

from ambit.logic.syntax.dialect import FOL, Dialect, dialects

from ambit.server.service import InvalidField, ServiceError
from ambit.server.status import item_status, ok_status


def formats(keep: Callable[[Dialect], bool], unspecified: str | None = FOL) -> dict[int, str]:
    """The dialects `keep` admits by LFFormat value, LF_FORMAT_UNSPECIFIED read as `unspecified`
    (None: refused as unknown); every map of the wire's enum to dialects is derived here."""
    table = {pb.LFFormat.Value(d.wire): d.name for d in dialects() if keep(d)}
    return table if unspecified is None else {pb.LF_FORMAT_UNSPECIFIED: unspecified, **table}


FORMATS = formats(lambda d: d.amp)  # the AmP-style RPCs: AmP's formats, UNSPECIFIED = fol


def enum(table: dict, value: int, field: str, enum_name: str) -> Any:
    """The domain value of a proto enum value; InvalidField for a value the table lacks."""
    try:
        return table[value]
    except KeyError:
        raise InvalidField(field, f"unknown {enum_name} value {value}", reason="UNKNOWN_ENUM") from None


def read_items(items: Sequence[Any], read: Callable[[Any, str], Any]) -> list[Any]:
    """Each batch item as `read(item, "items[i].")`, or the ServiceError that kept it from being read."""
    out: list[Any] = []
    for i, item in enumerate(items):
        try:
            out.append(read(item, f"items[{i}]."))
        except ServiceError as e:
            out.append(e)
    return out


def batch_result(result_type: Any, index: int, outcome: Any, respond: Callable[[Any], Any]) -> Any:
    """One streamed batch result: the item's error status, or OK with `respond(outcome)`."""
    if isinstance(outcome, BaseException):
        return result_type(index=index, status=item_status(outcome))
    return result_type(index=index, status=ok_status(), response=respond(outcome))

"""RPC faults as values: servicers raise `RpcFault`; the RPC wrapper turns it into a rich gRPC
status (`grpc-status-details-bin`), and batch RPCs put it, as a `google.rpc.Status`, on the item.

Codes (documented in ambit.proto): malformed LF, empty/oversized field, unknown enum or
format -> INVALID_ARGUMENT with a `google.rpc.BadRequest` field violation (for an LF also an
`ErrorInfo` with the parse position); queue full -> RESOURCE_EXHAUSTED; deadline ->
DEADLINE_EXCEEDED; model not loaded -> FAILED_PRECONDITION; anything else -> INTERNAL.
"""

from __future__ import annotations

import grpc
from google.protobuf import any_pb2
from google.rpc import code_pb2, error_details_pb2, status_pb2

from logic import LFParseError

DOMAIN = "ambit.v1"


class RpcFault(Exception):
    """A failed request: gRPC code, message, and `google.rpc` detail messages."""

    def __init__(self, code: grpc.StatusCode, message: str, details: tuple = ()) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.details = tuple(details)

    def to_status(self) -> status_pb2.Status:
        packed = []
        for d in self.details:
            a = any_pb2.Any()
            a.Pack(d)
            packed.append(a)
        return status_pb2.Status(code=self.code.value[0], message=self.message, details=packed)


def invalid(field: str, description: str, reason: str = "INVALID_FIELD") -> RpcFault:
    """INVALID_ARGUMENT naming the offending field."""
    violation = error_details_pb2.BadRequest.FieldViolation(field=field, description=description, reason=reason)
    return RpcFault(
        grpc.StatusCode.INVALID_ARGUMENT,
        f"{field}: {description}",
        (error_details_pb2.BadRequest(field_violations=[violation]),),
    )


def bad_lf(field: str, err: LFParseError) -> RpcFault:
    """INVALID_ARGUMENT for an LF that does not parse: field, character position, what was expected."""
    description = f"{err.reason} at character {err.column} (0-based position {err.pos})"
    if err.token:
        description += f", found {err.token!r}"
    if err.expected:
        description += f"; expected one of: {', '.join(err.expected[:12])}"
    fault = invalid(field, description, reason="LF_PARSE_ERROR")
    info = error_details_pb2.ErrorInfo(
        reason="LF_PARSE_ERROR",
        domain=DOMAIN,
        metadata={
            "field": field,
            "kind": err.kind,
            "position": str(err.pos),
            "column": str(err.column),
            "token": err.token,
            "expected": " ".join(err.expected),
            "format": err.fmt,
        },
    )
    fault.details += (info,)
    return fault


def ok_status() -> status_pb2.Status:
    return status_pb2.Status(code=code_pb2.OK)


def internal(message: str = "internal error; see the server log") -> RpcFault:
    return RpcFault(grpc.StatusCode.INTERNAL, message)

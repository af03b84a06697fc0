"""Service errors as gRPC statuses (codes documented in ambit.proto), with `google.rpc` details
(a field violation, an LF's parse position, a Prolog limit's reason); anything unknown is INTERNAL,
whose message says nothing about the cause (the server log has it)."""

from __future__ import annotations

import logging

import grpc
from google.protobuf import any_pb2
from google.protobuf.message import Message
from google.rpc import code_pb2, error_details_pb2, status_pb2

from concurrent.futures import CancelledError as FutureCancelled

from ambit._scrub import scrub
from ambit.logic import LFParseError
from ambit.logic.runtime.pool import WorkerDied
from ambit.logic.runtime.worker import PrologError

from ambit.server.service.errors import (
    Cancelled, DeadlineExceeded, InvalidField, MalformedLF, ModelUnavailable, Overloaded, PrologExhausted,
    ServiceError, WorkerLost)

log = logging.getLogger("ambit.server")

DOMAIN = "ambit.v1"
INTERNAL_MESSAGE = "internal error; see the server log"

_CODES: dict[type, grpc.StatusCode] = {
    InvalidField: grpc.StatusCode.INVALID_ARGUMENT,
    Overloaded: grpc.StatusCode.RESOURCE_EXHAUSTED,
    PrologExhausted: grpc.StatusCode.RESOURCE_EXHAUSTED,
    DeadlineExceeded: grpc.StatusCode.DEADLINE_EXCEEDED,
    Cancelled: grpc.StatusCode.CANCELLED,
    ModelUnavailable: grpc.StatusCode.FAILED_PRECONDITION,
    WorkerLost: grpc.StatusCode.UNAVAILABLE,
}


def normalise(exc: BaseException) -> BaseException:
    """Errors from below that are no server fault as the ServiceError they mean; others as is."""
    if isinstance(exc, RecursionError):
        return InvalidField("request", "nested too deeply to read (a formula, term or JSON value)",
                            reason="TOO_DEEP")
    if isinstance(exc, LFParseError):
        return MalformedLF("lf", exc)
    if isinstance(exc, WorkerDied):
        return WorkerLost(str(exc))
    if isinstance(exc, FutureCancelled) or (isinstance(exc, PrologError)
                                            and exc.reason == "cancelled"):
        return Cancelled("request cancelled: its Prolog work was stopped")
    if isinstance(exc, PrologError):
        if exc.timed_out:
            return DeadlineExceeded("Prolog budget exhausted")
        if exc.reason in ("inference_limit", "memory"):
            return PrologExhausted(f"stopped by a Prolog resource limit ({exc.reason})", exc.reason)
    return exc


def code_of(exc: BaseException) -> grpc.StatusCode:
    """The status code for an exception (INTERNAL for anything but a known ServiceError)."""
    known = (_CODES[k] for k in type(normalise(exc)).__mro__ if k in _CODES)
    return next(known, grpc.StatusCode.INTERNAL)


def _details(exc: BaseException) -> list[Message]:
    if isinstance(exc, PrologExhausted):
        return [error_details_pb2.ErrorInfo(reason=f"PROLOG_{exc.reason.upper()}", domain=DOMAIN,
                                            metadata={"reason": exc.reason})]
    if not isinstance(exc, InvalidField):
        return []
    violation = error_details_pb2.BadRequest.FieldViolation(
        field=exc.field, description=exc.description, reason=exc.reason)
    details: list[Message] = [error_details_pb2.BadRequest(field_violations=[violation])]
    if isinstance(exc, MalformedLF):
        err = exc.error
        meta = {"field": exc.field, "kind": err.kind, "position": str(err.pos),
                "column": str(err.column), "token": err.token, "expected": " ".join(err.expected),
                "format": err.fmt}
        details.append(error_details_pb2.ErrorInfo(reason="LF_PARSE_ERROR", domain=DOMAIN,
                                                   metadata=meta))
    return details


def to_status(exc: BaseException) -> status_pb2.Status:
    """The `google.rpc.Status` for an exception, with its error details packed."""
    exc = normalise(exc)
    code = code_of(exc)
    message = exc.message if isinstance(exc, ServiceError) and code is not grpc.StatusCode.INTERNAL else INTERNAL_MESSAGE
    message = scrub(message)  # no secret an upstream echoed reaches a caller (ambit._scrub)
    details = _details(exc)
    packed = [any_pb2.Any() for _ in details]
    for a, d in zip(packed, details):
        a.Pack(d)
    return status_pb2.Status(code=code.value[0], message=message, details=packed)


def item_status(exc: BaseException) -> status_pb2.Status:
    """The status of one failed batch item; an unexpected error is logged with its traceback."""
    if code_of(exc) is grpc.StatusCode.INTERNAL:
        log.error("internal error in a batch item", exc_info=exc)
    return to_status(exc)


def ok_status() -> status_pb2.Status:
    return status_pb2.Status(code=code_pb2.OK)

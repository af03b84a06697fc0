"""Errors of the typed client: :class:`AmbitError`, built from a failed call or batch item."""

from __future__ import annotations

from collections.abc import Sequence

import grpc


class AmbitError(RuntimeError):
    """A failed call: ``code`` is the gRPC status name (e.g. ``INVALID_ARGUMENT``)."""

    def __init__(self, code: str, message: str, violations: Sequence[dict] = ()):
        super().__init__(f"{code}: {message}")
        self.code, self.message, self.violations = code, message, list(violations)


def _violations(err: grpc.RpcError) -> list[dict]:
    try:
        from google.rpc import error_details_pb2
        from grpc_status import rpc_status
        status = rpc_status.from_call(err)
    except Exception:
        return []
    return _bad_request(getattr(status, "details", []) if status else [])


def _bad_request(details) -> list[dict]:
    """The field violations of a status's ``google.rpc.BadRequest`` details."""
    from google.rpc import error_details_pb2
    out = []
    for detail in details:
        if detail.Is(error_details_pb2.BadRequest.DESCRIPTOR):
            br = error_details_pb2.BadRequest()
            detail.Unpack(br)
            out += [{"field": v.field, "description": v.description} for v in br.field_violations]
    return out


def _item_error(status) -> AmbitError:
    """The error of one failed batch item (a `google.rpc.Status`), with its field violations."""
    return AmbitError(_code_name(status.code), status.message, _bad_request(status.details))


def _wrap(err: grpc.RpcError) -> AmbitError:
    code = err.code().name if err.code() is not None else "UNKNOWN"
    return AmbitError(code, err.details() or "", _violations(err))


def _code_name(code: int) -> str:
    """The gRPC status name for an integer code (``3`` → ``INVALID_ARGUMENT``)."""
    for sc in grpc.StatusCode:
        if sc.value[0] == code:
            return sc.name
    return str(code)

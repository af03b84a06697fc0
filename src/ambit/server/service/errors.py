"""Why the service could not answer a request, as plain exceptions (`server.status` maps them)."""

from __future__ import annotations

from ambit.logic import LFParseError


class ServiceError(Exception):
    """A request the service cannot answer; the subclass says why."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class InvalidField(ServiceError):
    """Bad input in one field (a path such as `items[3].prompt`), with a machine-readable reason."""

    def __init__(self, field: str, description: str, reason: str = "INVALID_FIELD") -> None:
        super().__init__(f"{field}: {description}")
        self.field = field
        self.description = description
        self.reason = reason


class MalformedLF(InvalidField):
    """An LF that does not parse: where and why, with the hint of `logic.cli.common.parse_hint`."""

    def __init__(self, field: str, error: LFParseError, text: str | None = None, fmt: str | None = None) -> None:
        description = f"{error.reason} at character {error.column} (0-based position {error.pos})"
        if error.token:
            description += f", found {error.token!r}"
        if error.expected:
            description += f"; expected one of: {', '.join(error.expected[:12])}"
        if hint := _hint(text, fmt):
            description += f"; {hint}"
        super().__init__(field, description, reason="LF_PARSE_ERROR")
        self.error = error


def _hint(text: str | None, fmt: str | None) -> str | None:
    """The parse hint for `text` in `fmt` (None without both)."""
    if text is None or not fmt:
        return None
    from ambit.logic.cli.common import parse_hint

    try:
        return parse_hint(text, fmt, "--format")
    except (ValueError, RecursionError):  # an unknown format, a text too deep for another reader
        return None


class ModelUnavailable(ServiceError):
    """A model RPC on a server without a loaded model."""


class Overloaded(ServiceError):
    """The model queue is full."""


class PrologExhausted(ServiceError):
    """A Prolog resource limit (`reason`) stopped the work: too big for its budget, not a fault."""

    def __init__(self, message: str, reason: str) -> None:
        super().__init__(message)
        self.reason = reason


class DeadlineExceeded(ServiceError):
    """The request's deadline (or its Prolog budget) ran out."""


class Cancelled(ServiceError):
    """The client went away, or the request was cancelled."""


class WorkerLost(ServiceError):
    """The Prolog processes running this work died (after one retry): UNAVAILABLE, retryable."""

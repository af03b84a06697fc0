"""Why a remote call failed, as the service's error kinds: a refusal is FAILED_PRECONDITION, an
endpoint failing after its retries RESOURCE_EXHAUSTED (the eval runner retries); never INTERNAL."""

from __future__ import annotations

from ambit.server.service.errors import ModelUnavailable, Overloaded


class RemoteError(ModelUnavailable):
    """The endpoint refused a request for good (HTTP 4xx other than 429); the message says why."""

    def __init__(self, message: str, status: int = 0) -> None:
        super().__init__(message)
        self.status = status


class RemoteAuthError(RemoteError):
    """HTTP 401/403: the API key is missing or wrong."""


class RemoteNotFound(RemoteError):
    """HTTP 404: an unknown model or path."""


class RemoteRedirect(RemoteError):
    """HTTP 3xx: ambit follows no redirect (the key would leave its origin, or a POST turn into a GET)."""


class RemoteUnavailable(Overloaded):
    """429, 5xx, timeouts or dropped connections, still failing after every retry."""


class InvalidResponse(RemoteUnavailable):
    """Answers that failed validation (or --max-response-bytes) on every attempt; none was used."""


class CapabilityMissing(ModelUnavailable):
    """A request needs something the endpoint does not offer; the message names what provides it."""

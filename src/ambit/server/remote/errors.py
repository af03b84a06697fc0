"""Why a remote call failed, as the service's own error kinds (so gRPC statuses follow):
a refused request, a refused redirect or a missing capability is FAILED_PRECONDITION; an endpoint
still failing after its retries (429, 5xx, timeouts, dropped connections, answers that fail
validation or exceed --max-response-bytes) is RESOURCE_EXHAUSTED (the eval runner retries it, then
logs the item for a rerun). Never INTERNAL: the server goes on serving."""

from __future__ import annotations

from ambit.server.service.errors import ModelUnavailable, Overloaded


class RemoteError(ModelUnavailable):
    """The endpoint refused a request for good (HTTP 4xx other than 429): the message says why
    (FAILED_PRECONDITION, with the message, when it happens inside an RPC)."""

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
    """Answers that failed validation (or exceeded --max-response-bytes) on every attempt: the
    message names the endpoint, the field and the value. Nothing of them was used or cached."""


class CapabilityMissing(ModelUnavailable):
    """A request needs something the endpoint does not offer; the message is one line naming
    the capability and what provides it."""

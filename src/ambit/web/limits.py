"""The web port's own bounds (`ambit serve --http-...` options), beside the service core's limits
that every request meets whichever edge it came through (`server.guard.limits.Limits`, the
admission of `server.service.deadline.Admission`). Why these numbers is in docs/web.md#bounds."""

from __future__ import annotations

from dataclasses import dataclass

MiB = 1024 * 1024


@dataclass(frozen=True)
class WebLimits:
    """The web port's bounds."""

    max_connections: int = 256  # open at once: one more is closed as soon as accepted
    request_timeout_s: float = 10.0  # to send a request's headers and body
    keepalive_s: float = 5.0  # an idle keep-alive connection stays open
    max_body_bytes_in_flight: int = 64 * MiB  # of bodies being read or checked (beyond: 503)
    body_parsers: int = 2  # threads that parse bodies off the event loop
    max_body_values: int = 1_000_000  # JSON values (commas and colons) in one body, before parsing
    max_int_digits: int = 100  # the longest integer in a body (checked before conversion)
    log_every_s: float = 10.0  # between two log lines of the same repeated error

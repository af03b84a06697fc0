"""The web port's own bounds (`ambit serve --http-...` options), beside the service core's limits
that every request meets whichever edge it came through (`server.guard.limits.Limits`, the
admission of `server.service.deadline.Admission`). Why these numbers is in docs/web.md#bounds."""

from __future__ import annotations

from dataclasses import dataclass

MiB = 1024 * 1024


@dataclass(frozen=True)
class WebLimits:
    # connections open at once; one more is closed as soon as it is accepted (its descriptor
    # freed at once), so a flood of connections holds at most this many descriptors
    max_connections: int = 256
    # seconds a request may take to send its headers and body; past them the connection is closed
    request_timeout_s: float = 10.0
    # seconds an idle keep-alive connection stays open
    keepalive_s: float = 5.0
    # bytes of request bodies being read or checked at once (beyond them: 503 with Retry-After)
    max_body_bytes_in_flight: int = 64 * MiB
    # threads that check bodies (JSON parsing), off the event loop: at most this many bodies are
    # parsed at once, each under the gRPC message limit and `max_body_values`
    body_parsers: int = 2
    # JSON values (commas and colons, counted before parsing) in one body: the parsed objects of
    # a body stay within a few hundred bytes a value
    max_body_values: int = 1_000_000
    # the longest integer a body may hold, in digits (checked before conversion)
    max_int_digits: int = 100
    # seconds between two log lines of the same repeated error (the repeats counted in the next)
    log_every_s: float = 10.0

"""uvicorn's HTTP/1.1 protocol (h11), bounded: a connection past `max_connections` is closed as
soon as accepted, and one whose request is not all in within `request_timeout_s` is closed, so a
flood holds at most `max_connections` descriptors, each for at most `request_timeout_s`."""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol

from ambit.web.limits import WebLimits

log = logging.getLogger("ambit.web")

BACKLOG = 100  # connections waiting to be accepted (the kernel's queue), and accepted in one go


def bounded_protocol(limits: WebLimits) -> type:
    """The protocol class for uvicorn's `http=` option, with `limits`' connection bounds."""

    class BoundedH11(H11Protocol):
        max_connections = limits.max_connections
        request_timeout_s = limits.request_timeout_s

        def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
            self._refused = len(self.connections) >= self.max_connections
            self._timer: asyncio.TimerHandle | None = None
            if self._refused:
                log.warning("connection refused: %d connections open (--http-max-connections)", len(self.connections))
                transport.abort()  # closed at once: no descriptor held
                return
            super().connection_made(transport)
            self._arm()

        def connection_lost(self, exc: Exception | None) -> None:
            if not self._refused:
                self._disarm()
                super().connection_lost(exc)

        def data_received(self, data: bytes) -> None:
            if self._refused:
                return
            if self._timer is None and self.conn.their_state is not h11.DONE:
                self._arm()  # a new request began on a kept-alive connection
            super().data_received(data)
            if self.conn.their_state in (h11.DONE, h11.MUST_CLOSE, h11.CLOSED, h11.ERROR):
                self._disarm()  # the whole request is in: its deadline is the application's

        def _arm(self) -> None:
            self._disarm()
            self._timer = self.loop.call_later(self.request_timeout_s, self._too_slow)

        def _disarm(self) -> None:
            if self._timer is not None:
                self._timer.cancel()
                self._timer = None

        def _too_slow(self) -> None:
            self._timer = None
            if self.conn.their_state is h11.DONE:
                return
            log.warning("request not received within %g s (--http-timeout): connection closed", self.request_timeout_s)
            self.transport.close()

        def on_response_complete(self) -> None:
            super().on_response_complete()
            self._disarm()  # the keep-alive timer (uvicorn's) takes over

    return BoundedH11


def uvicorn_options(limits: WebLimits) -> dict[str, Any]:
    """uvicorn.Config options for `limits`."""
    # `backlog` is also how many connections are accepted in one go: a flood holds at most about
    # max_connections + 2 x BACKLOG descriptors
    return {"http": bounded_protocol(limits), "timeout_keep_alive": max(1, round(limits.keepalive_s)),
            "limit_concurrency": None, "h11_max_incomplete_event_size": 64 * 1024, "backlog": BACKLOG}

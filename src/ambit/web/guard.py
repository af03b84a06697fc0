"""What every request passes before a handler runs, and what every response carries: on a loopback
bind only its own addresses as `Host` (no DNS rebinding), same origin for the API (no CORS; a POST
must be JSON, which another site's form cannot send), the token when the server has one, a body
within the message limit, and a strict Content-Security-Policy with no framing.
"""

from __future__ import annotations

import json
from typing import Any, Awaitable, Callable, Protocol

from ambit.web.errors import error_body

Scope = dict[str, Any]
Receive = Callable[[], Awaitable[dict]]
Send = Callable[[dict], Awaitable[None]]

CSP = ("default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' blob:; connect-src 'self'; "
       "base-uri 'none'; form-action 'self'; frame-ancestors 'none'")
SECURITY_HEADERS = (
    (b"content-security-policy", CSP.encode()),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
    (b"x-frame-options", b"DENY"),
    (b"cache-control", b"no-store"),
)
API_PREFIX = "/api/"


class TokenCheck(Protocol):
    """What the server's token store offers (`server.guard.auth.TokenStore.check`)."""

    def check(self, authorization: str | None) -> bool: ...


class Guard:
    """ASGI middleware: refuses what may not reach the application, adds the security headers
    (`hosts` None: any Host, behind TLS and a token; `tokens` None: no token needed)."""

    def __init__(self, app: Callable, hosts: frozenset[str] | None, tokens: TokenCheck | None, max_body: int) -> None:
        self.app = app
        self.hosts = hosts
        self.tokens = tokens
        self.max_body = max_body

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        if (refusal := self.refusal(scope)) is not None:
            await _refuse(send, *refusal)
            return
        await self.app(scope, _bounded(receive, self.max_body), _with_headers(send))

    def refusal(self, scope: Scope) -> tuple[int, str, str] | None:
        """(status, code, message) when the request may not go on; None when it may."""
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope.get("headers", [])}
        host = headers.get("host", "")
        if self.hosts is not None and host.lower() not in self.hosts:
            return 421, "WRONG_HOST", f"Host {host!r} is not an address this server answers on"
        if not scope["path"].startswith(API_PREFIX):
            return None
        origin = headers.get("origin")
        scheme = "https" if scope.get("scheme") == "https" else "http"
        if origin is not None and origin.lower() != f"{scheme}://{host}".lower():
            return 403, "CROSS_ORIGIN", "cross-origin requests are refused: the API answers pages of this server only"
        if headers.get("sec-fetch-site", "same-origin") not in ("same-origin", "none"):
            return 403, "CROSS_ORIGIN", "cross-site requests are refused: the API answers pages of this server only"
        if scope["method"] == "POST" and headers.get("content-type", "").split(";")[0].strip() != "application/json":
            return 415, "NOT_JSON", "send the request body as application/json"
        if self.tokens is not None and not self.tokens.check(headers.get("authorization")):
            return 401, "UNAUTHENTICATED", "a valid token is needed: Authorization: Bearer <token>"
        length = headers.get("content-length")
        if length is not None and (not length.isdigit() or len(length) > 15 or int(length) > self.max_body):
            return 413, "TOO_LARGE", f"request body over {self.max_body} bytes"
        return None


class BodyTooLarge(Exception):
    """A body without a Content-Length ran past the limit while being read."""


def _bounded(receive: Receive, limit: int) -> Receive:
    seen = 0

    async def wrapped() -> dict:
        nonlocal seen
        message = await receive()
        seen += len(message.get("body", b""))
        if seen > limit:
            raise BodyTooLarge(f"request body over {limit} bytes")
        return message

    return wrapped


def _with_headers(send: Send) -> Send:
    async def wrapped(message: dict) -> None:
        if message["type"] == "http.response.start":
            names = {k.lower() for k, _ in message.get("headers", [])}
            message = {**message, "headers": [*message.get("headers", []),
                                              *(h for h in SECURITY_HEADERS if h[0] not in names)]}
        await send(message)

    return wrapped


async def _refuse(send: Send, status: int, code: str, text: str) -> None:
    body = json.dumps(error_body(code, text)).encode()
    headers = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode()),
               *SECURITY_HEADERS]
    if status == 401:
        headers.append((b"www-authenticate", b'Bearer realm="ambit"'))
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})


def loopback_hosts(port: int, extra: str | None = None) -> frozenset[str]:
    """The `Host` values of a loopback server on `port` (and `extra`, the --host as given)."""
    names = {"127.0.0.1", "localhost", "[::1]"} | ({extra.lower()} if extra else set())
    return frozenset(f"{n}:{port}" for n in names)

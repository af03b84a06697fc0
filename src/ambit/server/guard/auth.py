"""Bearer-token authentication: the token file (one token a line, re-read on SIGHUP) and the
interceptor that answers UNAUTHENTICATED before any handler runs. Every token is compared in
constant time, so the time taken says nothing of which came close; health stays open for probes;
tokens never reach the log, only their count."""

from __future__ import annotations

import hmac
import logging
import threading
from pathlib import Path
from typing import Any, Callable

import grpc

from ambit import _files
from ambit.server.guard.interceptor import refusal

log = logging.getLogger("ambit.server")

HEALTH_PREFIX = "/grpc.health.v1.Health/"
SCHEME = "bearer "
TOKENS_LIMIT = 2**20  # bytes of the token file (some thousand tokens)


class TokenFileError(ValueError):
    """The token file is missing, unreadable or holds no token."""


def read_tokens(path: str | Path) -> tuple[bytes, ...]:
    """The tokens in `path`, one per line; TokenFileError when there is none."""
    try:  # a regular file, no link followed, at most TOKENS_LIMIT bytes (never /dev/zero)
        text = _files.read_text(path, TOKENS_LIMIT)
    except (OSError, ValueError) as e:
        raise TokenFileError(f"cannot read token file {path}: {type(e).__name__}: "
                             f"{e if isinstance(e, _files.FileError) else 'not UTF-8 text'}") from None
    tokens = [t for t in map(str.strip, text.splitlines()) if t and not t.startswith("#")]
    if any(c.isspace() for t in tokens for c in t):
        raise TokenFileError(f"token file {path}: a token must not contain spaces")
    if not tokens:
        raise TokenFileError(f"token file {path} holds no token (one per line)")
    return tuple(t.encode("utf-8") for t in tokens)


class TokenStore:
    """The accepted tokens, read from a file; thread-safe `check` and `reload`."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self._tokens = read_tokens(self.path)
        self._lock = threading.Lock()

    def __len__(self) -> int:
        return len(self._tokens)

    def reload(self) -> int:
        """Re-read the file; on failure keep the current tokens and raise TokenFileError."""
        tokens = read_tokens(self.path)
        with self._lock:
            self._tokens = tokens
        return len(tokens)

    def reload_logged(self, logger: logging.Logger = log, prefix: str = "") -> None:
        """`reload` on SIGHUP, its outcome logged; a bad file keeps the current tokens."""
        try:
            logger.info("%stoken file reloaded: %d token(s)", prefix, self.reload())
        except ValueError as e:
            logger.error("%stoken file not reloaded, current tokens kept: %s", prefix, e)

    def check(self, authorization: str | None) -> bool:
        """Whether an `authorization` header value carries an accepted bearer token."""
        if not authorization or authorization[: len(SCHEME)].lower() != SCHEME:
            return False
        offered = authorization[len(SCHEME):].strip().encode("utf-8", "surrogatepass")
        with self._lock:
            tokens = self._tokens
        return any([hmac.compare_digest(offered, t) for t in tokens])  # a list: no early exit


def _authorization(handler_call_details: Any) -> str | None:
    for key, value in handler_call_details.invocation_metadata or ():
        if key == "authorization":
            return value if isinstance(value, str) else None
    return None


class AuthInterceptor(grpc.aio.ServerInterceptor):
    """UNAUTHENTICATED, from the metadata alone, for a call but a health check without a token."""

    def __init__(self, tokens: TokenStore) -> None:
        self.tokens = tokens

    async def intercept_service(self, continuation: Callable, handler_call_details: Any) -> Any:
        method = handler_call_details.method
        if method.startswith(HEALTH_PREFIX) or self.tokens.check(_authorization(handler_call_details)):
            return await continuation(handler_call_details)
        log.warning("unauthenticated call to %s refused", method)
        return refusal(grpc.StatusCode.UNAUTHENTICATED, "missing or invalid bearer token (authorization metadata)")

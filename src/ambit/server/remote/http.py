"""One OpenAI-compatible endpoint: JSON over HTTP with bounded concurrency, retries and the
response cache, and the counters run.json reports (requests sent, cache hits, tokens).

Retried (up to `retries` more attempts): HTTP 429 and 5xx, timeouts, refused or dropped
connections. The wait doubles from `backoff_s`; a `Retry-After` header (seconds or an HTTP date)
replaces it; no wait exceeds `max_wait_s`. Not retried: 401/403 (`RemoteAuthError`), 404
(`RemoteNotFound`), other 4xx (`RemoteError` with the endpoint's own message). The API key goes
only into the Authorization header: never into logs, errors or the cache.

Work run for a caller (`stopping.stop_when`) is dropped once the caller leaves: no new attempt, no
backoff wait, no wait for a slot, and the attempt in flight has its connection shut down
(`stopping.Abandoned`).
"""

from __future__ import annotations

import email.utils
import http.client
import json
import logging
import socket
import threading
import time
import urllib.error
import urllib.request
from dataclasses import dataclass
from typing import Any, Callable

from .cache import ResponseCache, request_key
from . import stopping
from .errors import RemoteAuthError, RemoteError, RemoteNotFound, RemoteUnavailable
from .spec import RemoteOptions, RemoteSpec

log = logging.getLogger("ambit.server.remote")

_DROPPED = (urllib.error.URLError, http.client.HTTPException, ConnectionError, socket.timeout, TimeoutError)


@dataclass
class Counters:
    """What the endpoint cost: HTTP requests sent (retries included), retries, cache hits, the
    tokens the endpoint reported in `usage`, and the seconds spent waiting for its answers."""

    requests: int = 0
    retries: int = 0
    cache_hits: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    http_seconds: float = 0.0

    def as_dict(self) -> dict[str, float]:
        return dict(self.__dict__)


class _Retry(Exception):
    def __init__(self, reason: str, wait_s: float | None = None) -> None:
        super().__init__(reason)
        self.wait_s = wait_s


def retry_after(value: str | None, now: float | None = None) -> float | None:
    """Seconds to wait from a Retry-After header (delta-seconds or an HTTP date); None if absent."""
    if not value:
        return None
    value = value.strip()
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    try:
        when = email.utils.parsedate_to_datetime(value).timestamp()
    except (TypeError, ValueError):
        return None
    return max(0.0, when - (time.time() if now is None else now))


class Endpoint:
    """`post(path, body)` / `get(path)` against `spec.base_url`, at most `max_concurrency` at once."""

    def __init__(self, spec: RemoteSpec, options: RemoteOptions,
                 sleep: Callable[[float], None] = time.sleep) -> None:
        self.spec = spec
        self.options = options
        self._key = options.api_key
        self._slots = threading.BoundedSemaphore(options.max_concurrency)
        self._lock = threading.Lock()
        self.counters = Counters()
        self.cache = ResponseCache(options.cache_dir) if options.cache_dir is not None else None
        self._sleep = sleep
        self._watcher = stopping.Watcher()

    def __repr__(self) -> str:
        return f"Endpoint({self.spec.base_url!r}, model={self.spec.model!r})"

    def snapshot(self) -> dict[str, float]:
        with self._lock:
            return self.counters.as_dict()

    def _count(self, **inc: float) -> None:
        with self._lock:
            for k, v in inc.items():
                setattr(self.counters, k, getattr(self.counters, k) + v)

    # -- requests ------------------------------------------------------------------------
    def get(self, path: str, retries: int | None = None) -> dict:
        return self._send("GET", path, None, retries)

    def post(self, path: str, body: dict[str, Any], cached: bool = True, retries: int | None = None) -> dict:
        """The JSON response to `body` (with "model" filled in); from the cache when it has it."""
        body = {"model": self.spec.model, **body}
        key = request_key(self.spec.base_url, self.spec.model, path, body) if cached and self.cache else None
        if key is not None:
            hit = self.cache.get(key)
            if hit is not None:
                self._count(cache_hits=1)
                return hit
        out = self._send("POST", path, body, retries)
        usage = out.get("usage") or {}
        self._count(prompt_tokens=int(usage.get("prompt_tokens") or 0),
                    completion_tokens=int(usage.get("completion_tokens") or 0))
        if key is not None:
            self.cache.put(key, out)
        return out

    def _send(self, method: str, path: str, body: dict | None, retries: int | None) -> dict:
        retries = self.options.retries if retries is None else retries
        should_stop = stopping.current()
        attempt = 0
        while True:
            self._check(should_stop, path)
            try:
                self._acquire(should_stop, path)
                try:
                    return self._once(method, path, body, should_stop)
                finally:
                    self._slots.release()
            except _Retry as r:
                if attempt >= retries:
                    raise RemoteUnavailable(f"{self.spec.base_url}{path}: {r} (gave up after {attempt + 1} "
                                            f"attempt{'s' if attempt else ''})") from None
                wait = r.wait_s if r.wait_s is not None else self.options.backoff_s * 2 ** attempt
                wait = min(wait, self.options.max_wait_s)
                log.warning("%s%s: %s; retry %d/%d in %.1f s", self.spec.base_url, path, r, attempt + 1, retries, wait)
                self._count(retries=1)
                self._wait(wait, should_stop, path)
                attempt += 1

    def _check(self, should_stop: Callable[[], bool] | None, path: str) -> None:
        if should_stop is not None and should_stop():
            raise stopping.Abandoned(f"{self.spec.base_url}{path}: request dropped, its caller left")

    def _acquire(self, should_stop: Callable[[], bool] | None, path: str) -> None:
        """A concurrency slot; given up when the caller leaves while waiting for one."""
        while not self._slots.acquire(timeout=None if should_stop is None else stopping.POLL_S):
            self._check(should_stop, path)

    def _wait(self, seconds: float, should_stop: Callable[[], bool] | None, path: str) -> None:
        """The backoff wait, cut short (and the retry dropped) when the caller leaves."""
        if should_stop is None:
            self._sleep(seconds)
            return
        end = time.monotonic() + seconds
        while (left := end - time.monotonic()) > 0:
            self._check(should_stop, path)
            self._sleep(min(left, stopping.POLL_S))
        self._check(should_stop, path)

    def _open(self, req: urllib.request.Request, should_stop: Callable[[], bool] | None) -> bytes:
        """The response body; with `should_stop`, the connection is shut down once it turns true."""
        if should_stop is None:
            with urllib.request.urlopen(req, timeout=self.options.timeout_s) as resp:
                return resp.read()
        call = stopping.InFlight(should_stop)
        opener = urllib.request.build_opener(_tracked(urllib.request.HTTPHandler, call),
                                             _tracked(urllib.request.HTTPSHandler, call))
        self._watcher.add(call)
        try:
            with opener.open(req, timeout=self.options.timeout_s) as resp:
                return resp.read()
        except (*_DROPPED, OSError):
            if call.stopped:
                raise stopping.Abandoned(f"{req.full_url}: request abandoned, its caller left") from None
            raise
        finally:
            self._watcher.discard(call)

    def _once(self, method: str, path: str, body: dict | None,
              should_stop: Callable[[], bool] | None = None) -> dict:
        headers = {"Content-Type": "application/json", "Accept": "application/json"}
        if self._key:
            headers["Authorization"] = f"Bearer {self._key}"
        data = None if body is None else json.dumps(body).encode("utf-8")
        req = urllib.request.Request(self.spec.base_url + path, data=data, headers=headers, method=method)
        self._count(requests=1)
        t0 = time.perf_counter()
        try:
            raw = self._open(req, should_stop)
        except urllib.error.HTTPError as e:
            self._raise_http(e, path)
        except _DROPPED as e:
            raise _Retry(f"{type(e).__name__}: {getattr(e, 'reason', e)}") from None
        finally:
            self._count(http_seconds=time.perf_counter() - t0)
        try:
            return json.loads(raw)
        except ValueError:
            raise _Retry(f"response is not JSON ({raw[:80]!r})") from None

    def _raise_http(self, e: urllib.error.HTTPError, path: str) -> None:
        try:
            detail = _message(e.read())
        except (OSError, http.client.HTTPException):
            detail = ""
        where = f"{self.spec.base_url}{path}"
        if e.code == 429 or e.code >= 500:
            raise _Retry(f"HTTP {e.code}{': ' + detail if detail else ''}", retry_after(e.headers.get("Retry-After")))
        if e.code in (401, 403):
            raise RemoteAuthError(f"{where}: HTTP {e.code}, the endpoint refused the API key "
                                  "(set --api-key-file or $OPENAI_API_KEY)", e.code) from None
        if e.code == 404:
            raise RemoteNotFound(f"{where}: HTTP 404, unknown model {self.spec.model!r} or path"
                                 f"{': ' + detail if detail else ''}", e.code) from None
        raise RemoteError(f"{where}: HTTP {e.code}{': ' + detail if detail else ''}", e.code) from None


def _tracked(handler: type, call: stopping.InFlight) -> urllib.request.BaseHandler:
    """An instance of urllib's HTTP(S) handler whose connections `call` can shut down."""
    class Tracked(handler):  # type: ignore[misc, valid-type]
        def do_open(self, http_class, req, **kwargs):
            return super().do_open(call.track(http_class), req, **kwargs)
    return Tracked()


def _message(raw: bytes) -> str:
    """The error message of an OpenAI-style error body, else the body's first 200 characters."""
    text = raw.decode("utf-8", "replace")
    try:
        err = json.loads(text)
        err = err.get("error", err) if isinstance(err, dict) else err
        if isinstance(err, dict) and err.get("message"):
            return str(err["message"])[:300]
        if isinstance(err, str):
            return err[:300]
    except ValueError:
        pass
    return text.strip()[:200]

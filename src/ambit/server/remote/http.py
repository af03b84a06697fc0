"""One OpenAI-compatible endpoint: JSON over httpx, bounded concurrency, retries with backoff, a
total deadline and size cap per answer, validation, cache, counters. Attempts are cancelled once
the caller leaves; no redirect is followed, so the API key never leaves its origin."""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import email.utils
import itertools
import json
import logging
import threading
import time
from dataclasses import dataclass
from typing import Any, Callable, Coroutine
from urllib.parse import urljoin, urlsplit

import httpx

from ambit import _scrub
from ambit.server.remote import stopping
from ambit.server.remote.cache import ResponseCache, request_key
from ambit.server.remote.errors import InvalidResponse, RemoteAuthError, RemoteError, RemoteNotFound, RemoteRedirect, RemoteUnavailable
from ambit.server.remote.spec import RemoteOptions, RemoteSpec, redact
from ambit.server.remote.validate import Check, ResponseInvalid, any_object

log = logging.getLogger("ambit.server.remote")
# every line these log is scrubbed of secrets (httpcore's DEBUG traces show the request's headers)
_scrub.install("ambit.server.remote", "httpx", "httpcore", "httpcore.http11", "httpcore.http2", "httpcore.connection",
               "httpcore.proxy")
if logging.getLogger("httpx").level == logging.NOTSET:
    logging.getLogger("httpx").setLevel(logging.WARNING)  # not a line per request at INFO (--log-level)


@dataclass
class Counters:
    """What the endpoint cost: requests (retries included), cache hits, tokens, seconds waited."""

    requests: int = 0
    retries: int = 0
    cache_hits: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    invalid_responses: int = 0
    http_seconds: float = 0.0


class _Retry(Exception):
    def __init__(self, reason: str, wait_s: float | None = None, invalid: bool = False) -> None:
        super().__init__(reason)
        self.wait_s, self.invalid = wait_s, invalid


class _AttemptTimedOut(Exception):
    """The attempt's total deadline passed before its answer was read."""


@dataclass
class _Answer:
    status: int
    body: bytes
    location: str | None = None
    retry_after: str | None = None


def retry_after(value: str | None, now: float | None = None) -> float | None:
    """Seconds to wait from a Retry-After header (delta-seconds or an HTTP date); None if absent."""
    if not value:
        return None
    value = value.strip()
    with contextlib.suppress(ValueError):
        return max(0.0, float(value))
    try:
        when = email.utils.parsedate_to_datetime(value).timestamp()
    except (TypeError, ValueError):
        return None
    return max(0.0, when - (time.time() if now is None else now))


def _origin(url: str) -> tuple[str, str, int | None]:
    p = urlsplit(url)
    return p.scheme, (p.hostname or "").lower(), p.port or {"http": 80, "https": 443}.get(p.scheme)


class _Loop:
    def __init__(self) -> None:
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, name="ambit-remote-http", daemon=True)
        self.thread.start()

    def submit(self, coro: Coroutine) -> Any:
        return asyncio.run_coroutine_threadsafe(coro, self.loop)

    def stop(self) -> None:
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(2.0)


class Endpoint:
    """`post` / `get` against `spec.base_url`, at most `max_concurrency` at once."""

    def __init__(self, spec: RemoteSpec, options: RemoteOptions,
                 sleep: Callable[[float], None] = time.sleep, transport: Any = None) -> None:
        self.spec, self.options = spec, options
        self._key = options.api_key
        _scrub.remember(options.api_key)  # masked wherever an endpoint echoes it (logs, errors, run.json)
        if spec.auth is not None:
            _scrub.remember(":".join(spec.auth))
        self._slots = threading.BoundedSemaphore(options.max_concurrency)
        self._lock = threading.Lock()
        self.counters = Counters()
        self.cache = (ResponseCache(options.cache_dir, options.cache_max_bytes)
                      if options.cache_dir is not None else None)
        self._sleep, self._transport = sleep, transport
        self._io: tuple[_Loop, httpx.AsyncClient] | None = None
        self._io_lock = threading.Lock()

    def __repr__(self) -> str:
        return f"Endpoint({self.spec.shown_url!r}, model={self.spec.model!r})"

    def snapshot(self) -> dict[str, float]:
        with self._lock:
            return dataclasses.asdict(self.counters)

    def _count(self, **inc: float) -> None:
        with self._lock:
            for k, v in inc.items():
                setattr(self.counters, k, getattr(self.counters, k) + v)

    def close(self) -> None:
        """Close the connections, the loop and the cache (a later request opens them again)."""
        with self._io_lock:
            io, self._io = self._io, None
        if io is not None:
            loop, client = io
            with contextlib.suppress(Exception):  # closing what may already be broken
                loop.submit(client.aclose()).result(2.0)
            loop.stop()
        if self.cache is not None:
            self.cache.close()

    def get(self, path: str, check: Check = any_object, retries: int | None = None, quiet: bool = False) -> dict:
        return self._send("GET", path, None, retries, check, quiet)

    def post(self, path: str, body: dict[str, Any], check: Check = any_object, cached: bool = True,
             retries: int | None = None, quiet: bool = False) -> dict:
        """The JSON response to `body` (with "model" filled in) that passes `check`, from the cache
        when it holds one (a cached answer that fails is dropped)."""
        body = {"model": self.spec.model, **body}
        key = request_key(self.spec.base_url, self.spec.model, path, body) if cached and self.cache is not None else None
        if key is not None:
            hit = self.cache.get(key)
            if hit is not None:
                try:
                    check(hit)
                except ResponseInvalid as e:
                    log.warning("%s%s: cached answer dropped (%s)", self.spec.shown_url, path, e)
                    self.cache.discard(key)
                else:
                    self._count(cache_hits=1)
                    return hit
        out = self._send("POST", path, body, retries, check, quiet)
        usage = out.get("usage") or {}
        self._count(prompt_tokens=int(usage.get("prompt_tokens") or 0),
                    completion_tokens=int(usage.get("completion_tokens") or 0))
        if key is not None:
            self.cache.put(key, out)
        return out

    def _send(self, method: str, path: str, body: dict | None, retries: int | None, check: Check,
              quiet: bool = False) -> dict:
        retries = self.options.retries if retries is None else retries
        should_stop = stopping.current()
        for attempt in itertools.count():
            self._check(should_stop, path)
            try:
                self._acquire(should_stop, path)
                try:
                    return self._once(method, path, body, should_stop, check)
                finally:
                    self._slots.release()
            except _Retry as r:
                if attempt >= retries:
                    kind = InvalidResponse if r.invalid else RemoteUnavailable
                    raise kind(f"{self.spec.shown_url}{path}: {r} (gave up after {attempt + 1} "
                               f"attempt{'s' if attempt else ''})") from None
                wait = r.wait_s if r.wait_s is not None else self.options.backoff_s * 2 ** attempt
                wait = min(wait, self.options.max_wait_s)
                (log.debug if quiet else log.warning)("%s%s: %s; retry %d/%d in %.1f s", self.spec.shown_url, path,
                                                      r, attempt + 1, retries, wait)
                self._count(retries=1)
                self._wait(wait, should_stop, path)

    def _check(self, should_stop: Callable[[], bool] | None, path: str) -> None:
        if should_stop is not None and should_stop():
            raise stopping.Abandoned(f"{self.spec.shown_url}{path}: request dropped, its caller left")

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

    def _client(self) -> tuple[_Loop, httpx.AsyncClient]:
        with self._io_lock:
            if self._io is None:
                loop = _Loop()
                self._io = (loop, loop.submit(self._make_client()).result())
            return self._io

    async def _make_client(self) -> httpx.AsyncClient:
        o = self.options
        auth = httpx.BasicAuth(*self.spec.auth) if self.spec.auth is not None and not self._key else None
        return httpx.AsyncClient(
            timeout=httpx.Timeout(connect=min(o.connect_timeout_s, o.timeout_s), read=o.timeout_s,
                                  write=o.timeout_s, pool=o.timeout_s),
            # our semaphore bounds requests in flight; a cancelled attempt's connection closes on the loop
            limits=httpx.Limits(max_connections=None, max_keepalive_connections=o.max_concurrency),
            follow_redirects=False, auth=auth, transport=self._transport)

    async def _attempt(self, client: httpx.AsyncClient, method: str, url: str, data: bytes | None,
                       headers: dict[str, str]) -> _Answer:
        """The status and whole body of one request, within the deadline and the size cap."""
        cap = self.options.max_response_bytes
        too_large = f"the answer is larger than --max-response-bytes {cap} ({cap / 1e6:.1f} MB; %s)"
        try:
            async with asyncio.timeout(self.options.timeout_s):
                async with client.stream(method, url, content=data, headers=headers) as resp:
                    if 300 <= resp.status_code < 400:  # never followed: its body is not read
                        return _Answer(resp.status_code, b"", location=resp.headers.get("location"))
                    declared = resp.headers.get("content-length", "")
                    if declared.isdigit() and int(declared) > cap:
                        raise _Retry(too_large % f"Content-Length {int(declared)}", invalid=True)
                    chunks, size = [], 0
                    async for chunk in resp.aiter_bytes():
                        size += len(chunk)
                        if size > cap:
                            raise _Retry(too_large % f"more than {cap} bytes read", invalid=True)
                        chunks.append(chunk)
                    return _Answer(resp.status_code, b"".join(chunks), retry_after=resp.headers.get("retry-after"))
        except TimeoutError:
            raise _AttemptTimedOut() from None

    def _run(self, coro: Coroutine, loop: _Loop, should_stop: Callable[[], bool] | None, path: str) -> _Answer:
        """Wait for `coro` on the loop; once `should_stop()`, cancel it (`stopping.Abandoned`)."""
        fut = loop.submit(coro)
        while True:
            try:
                return fut.result(timeout=stopping.POLL_S)
            except TimeoutError:
                if fut.done():  # done between the wait's end and here: its own outcome, not the wait's
                    return fut.result(timeout=0)
                if not loop.thread.is_alive():  # closed (`close`) under the request
                    fut.cancel()
                    raise stopping.Abandoned(f"{self.spec.shown_url}{path}: request dropped, the endpoint was closed")
                try:
                    stop = should_stop is not None and should_stop()
                except Exception:  # noqa: BLE001 - a failing should_stop means nobody waits any more
                    stop = True
                if stop:
                    fut.cancel()
                    raise stopping.Abandoned(f"{self.spec.shown_url}{path}: request abandoned, its caller left") from None

    def _once(self, method: str, path: str, body: dict | None, should_stop: Callable[[], bool] | None,
              check: Check) -> dict:
        headers = {"Content-Type": "application/json", "Accept": "application/json"}
        if self._key:
            headers["Authorization"] = f"Bearer {self._key}"
        data = None if body is None else json.dumps(body).encode("utf-8")
        loop, client = self._client()
        self._count(requests=1)
        t0 = time.perf_counter()
        try:
            ans = self._run(self._attempt(client, method, self.spec.base_url + path, data, headers), loop,
                            should_stop, path)
        except _AttemptTimedOut:
            raise _Retry(f"no complete answer within the {self.options.timeout_s:g} s deadline") from None
        except httpx.ConnectError as e:
            raise _Retry(f"cannot connect ({redact(str(e)) or type(e).__name__}): is the endpoint running at "
                         f"{_shown_origin(self.spec.shown_url)}?") from None
        except httpx.TimeoutException as e:
            raise _Retry(f"{type(e).__name__} (a phase took longer than its timeout)") from None
        except httpx.RequestError as e:
            raise _Retry(f"{type(e).__name__}: {redact(str(e)) or 'connection failed'}") from None
        finally:
            self._count(http_seconds=time.perf_counter() - t0)
        if ans.status >= 300:
            self._raise_http(ans, path)
        try:
            out = json.loads(ans.body)
        except (ValueError, RecursionError):
            self._count(invalid_responses=1)
            raise _Retry(f"the answer is not JSON ({redact(repr(ans.body[:80]))})", invalid=True) from None
        try:
            check(out)
        except (ResponseInvalid, RecursionError) as e:
            self._count(invalid_responses=1)
            raise _Retry(f"invalid answer: {redact(str(e))}", invalid=True) from None
        return out

    def _raise_http(self, ans: _Answer, path: str) -> None:
        where = f"{self.spec.shown_url}{path}"
        code = ans.status
        if code < 400:
            self._refuse_redirect(where, ans)
        detail = f": {said}" if (said := redact(_message(ans.body))) else ""
        if code == 429 or code >= 500:
            raise _Retry(f"HTTP {code}{detail}", retry_after(ans.retry_after))
        if code in (401, 403):
            raise RemoteAuthError(f"{where}: HTTP {code}, the endpoint refused the API key "
                                  "(set --api-key-file or $OPENAI_API_KEY)", code)
        if code == 404:
            raise RemoteNotFound(f"{where}: HTTP 404, unknown model {self.spec.model!r} or path"
                                 f"{detail}", code)
        raise RemoteError(f"{where}: HTTP {code}{detail}", code)

    def _refuse_redirect(self, where: str, ans: _Answer) -> None:
        target = urljoin(self.spec.base_url + "/", ans.location) if ans.location else ""
        shown = redact(target) or "nowhere (no Location)"
        if target and _origin(target) != _origin(self.spec.base_url):
            why = f"it leads to another origin, and the API key stays with {_shown_origin(self.spec.shown_url)}"
        else:
            why = "a redirected POST may be resent as a GET"
        raise RemoteRedirect(f"{where}: HTTP {ans.status} redirect to {shown} not followed ({why}); "
                             "put the final URL into --model", ans.status)


def _shown_origin(url: str) -> str:
    scheme, _, rest = url.partition("://")
    return f"{scheme}://{rest.split('/', 1)[0]}"


def _message(raw: bytes) -> str:
    """The error message of an OpenAI-style error body, else the body's first 200 characters."""
    text = raw.decode("utf-8", "replace")
    try:
        err = json.loads(text)
    except (ValueError, RecursionError):
        err = None
    err = err.get("error", err) if isinstance(err, dict) else err
    if isinstance(err, dict) and err.get("message"):
        err = str(err["message"])
    return " ".join(err.split())[:300] if isinstance(err, str) else " ".join(text.split())[:200]

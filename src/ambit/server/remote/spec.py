"""`openai:<MODEL>@<BASE_URL>` model specs and a remote backend's options. The API key lives only
in `RemoteOptions.api_key` (not in `repr`); URL credentials go to `RemoteSpec.auth` (`***@`)."""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

from ambit import _files, _scrub

PREFIX = "openai:"
EXAMPLE = "openai:smollm2@http://127.0.0.1:8000/v1"
_SPEC = re.compile(r"^openai:(?P<model>[^@\s][^\s]*?)@(?P<url>https?://[^\s]+)$")
_USERINFO = re.compile(r"(?<=://)[^/@\s]*@")
_UNITS = {"": 1, "b": 1, "k": 1000, "kb": 1000, "m": 1000**2, "mb": 1000**2, "g": 1000**3, "gb": 1000**3,
          "kib": 1024, "mib": 1024**2, "gib": 1024**3, "ki": 1024, "mi": 1024**2, "gi": 1024**3}
DEFAULT_MAX_RESPONSE_BYTES = 8 * 1024**2  # an answer of 64 candidates × 1,000 echoed tokens is ~6 MB of JSON
DEFAULT_CACHE_MAX_BYTES = 512 * 1024**2


class SpecError(ValueError):
    """A malformed `openai:` model spec, option value or an unreadable API key file."""


def redact(text: str) -> str:
    """`text` scrubbed of URL credentials (→ `***@`) and secrets (`ambit._scrub.scrub`)."""
    return _scrub.scrub(_USERINFO.sub("***@", str(text)))


@dataclass(frozen=True)
class RemoteSpec:
    """Model name and base URL; `auth`: the URL's credentials, for that origin only, never shown."""

    model: str
    base_url: str
    auth: tuple[str, str] | None = field(default=None, repr=False, compare=False)

    @property
    def shown_url(self) -> str:
        """The base URL as errors, logs and run.json show it (`***@` where it had credentials)."""
        if self.auth is None:
            return self.base_url
        scheme, _, rest = self.base_url.partition("://")
        return f"{scheme}://***@{rest}"

    @property
    def spec(self) -> str:
        return f"{PREFIX}{self.model}@{self.shown_url}"


def is_remote(spec: str | None) -> bool:
    return bool(spec) and str(spec).startswith(PREFIX)


def parse_spec(spec: str) -> RemoteSpec:
    """`openai:<MODEL>@<BASE_URL>` → RemoteSpec; SpecError names what is wrong (never the credentials)."""
    m = _SPEC.match(spec.strip())
    if not m:
        raise SpecError(f"--model {redact(spec)!r}: expected openai:<MODEL>@<BASE_URL> with an http(s) URL, "
                        f"for example {EXAMPLE}")
    try:
        parts = urlsplit(m["url"].rstrip("/"))
        parts.port  # noqa: B018 - raises ValueError on a port that is not a number
    except ValueError as e:
        raise SpecError(f"--model {redact(spec)!r}: the URL is malformed ({redact(str(e))})") from None
    if not parts.hostname:
        raise SpecError(f"--model {redact(spec)!r}: the URL names no host, for example {EXAMPLE}")
    auth = None
    if parts.username is not None or parts.password is not None:
        auth = (parts.username or "", parts.password or "")
    netloc = parts.netloc.rpartition("@")[2]
    return RemoteSpec(m["model"], urlunsplit((parts.scheme, netloc, parts.path, parts.query, "")), auth)


def parse_bytes(value: str | int | None, option: str) -> int | None:
    """`8MB`, `512MiB`, `1G`, `1048576` → bytes (None stays None); SpecError naming `option`."""
    if value is None or isinstance(value, int):
        return value
    m = re.fullmatch(r"\s*(\d+(?:\.\d+)?)\s*([A-Za-z]*)\s*", value)
    unit = m and _UNITS.get(m[2].lower())
    if not m or unit is None:
        raise SpecError(f"{option} {value!r}: expected a size such as 8MB, 512MiB or 1048576 (bytes)")
    n = int(float(m[1]) * unit)
    if n < 1:
        raise SpecError(f"{option} {value!r}: must be at least 1 byte")
    return n


def read_api_key(path: str | os.PathLike | None) -> str | None:
    """The first non-empty line of `path`, else $OPENAI_API_KEY, else None (never in an error)."""
    if not path:
        key = os.environ.get("OPENAI_API_KEY") or None
    else:
        try:
            key = _files.read_secret(path, what="API key")  # a regular file of at most 64 KiB
        except FileNotFoundError as e:
            raise SpecError(f"--api-key-file {e} (cannot read it)") from None
        except OSError as e:
            raise SpecError(f"--api-key-file {e}") from None
    _scrub.remember(key)
    return key


def default_cache_dir() -> Path:
    """`$AMBIT_CACHE/remote-responses` (AMBIT_CACHE defaults to ~/.cache/ambit)."""
    return Path(os.environ.get("AMBIT_CACHE") or Path.home() / ".cache" / "ambit") / "remote-responses"


@dataclass(frozen=True)
class RemoteOptions:
    """How to talk to the endpoint. `cache_dir` None: no cache; `timeout_s`: one attempt's total
    deadline, the whole body included; `retries`: further attempts, waiting `backoff_s` doubled."""

    api_key: str | None = field(default=None, repr=False)
    max_concurrency: int = 16
    cache_dir: Path | None = field(default_factory=default_cache_dir)
    cache_max_bytes: int = DEFAULT_CACHE_MAX_BYTES
    timeout_s: float = 300.0
    connect_timeout_s: float = 10.0
    max_response_bytes: int = DEFAULT_MAX_RESPONSE_BYTES
    retries: int = 6
    backoff_s: float = 0.5
    max_wait_s: float = 60.0

    @classmethod
    def from_args(cls, api_key_file: str | None = None, max_concurrency: int | None = None,
                  cache: str | None = None, max_response_bytes: str | int | None = None,
                  cache_max_bytes: str | int | None = None, **kw) -> "RemoteOptions":
        """From command-line values: `cache` "none" turns the cache off; None keeps the default."""
        if max_concurrency is not None and max_concurrency < 1:
            raise SpecError(f"--max-concurrency {max_concurrency}: must be at least 1")
        opts = dict(api_key=read_api_key(api_key_file), **kw)
        if cache is not None:
            opts["cache_dir"] = None if cache.lower() == "none" else Path(cache)
        given = {"max_concurrency": max_concurrency,
                 "max_response_bytes": parse_bytes(max_response_bytes, "--max-response-bytes"),
                 "cache_max_bytes": parse_bytes(cache_max_bytes, "--remote-cache-max-bytes")}
        return cls(**{**opts, **{k: v for k, v in given.items() if v is not None}})

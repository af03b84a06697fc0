"""`openai:<MODEL>@<BASE_URL>` model specs and the options of a remote backend (API key, concurrency,
cache, retries). The API key lives only in `RemoteOptions.api_key`, which `repr` never shows."""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from pathlib import Path

PREFIX = "openai:"
EXAMPLE = "openai:smollm2@http://127.0.0.1:8000/v1"
_SPEC = re.compile(r"^openai:(?P<model>[^@\s][^\s]*?)@(?P<url>https?://[^\s]+)$")


class SpecError(ValueError):
    """A malformed `openai:` model spec or an unreadable API key file."""


@dataclass(frozen=True)
class RemoteSpec:
    """The model name the endpoint knows, and the endpoint's base URL (ending in /v1 as a rule)."""

    model: str
    base_url: str

    @property
    def spec(self) -> str:
        return f"{PREFIX}{self.model}@{self.base_url}"


def is_remote(spec: str | None) -> bool:
    return bool(spec) and str(spec).startswith(PREFIX)


def parse_spec(spec: str) -> RemoteSpec:
    """`openai:<MODEL>@<BASE_URL>` → RemoteSpec; SpecError names what is wrong."""
    m = _SPEC.match(spec.strip())
    if not m:
        raise SpecError(f"--model {spec!r}: expected openai:<MODEL>@<BASE_URL> with an http(s) URL, "
                        f"for example {EXAMPLE}")
    return RemoteSpec(m["model"], m["url"].rstrip("/"))


def read_api_key(path: str | os.PathLike | None) -> str | None:
    """The key: the first non-empty line of `path`, else $OPENAI_API_KEY, else None (a local
    server without auth). The key itself never appears in an error message."""
    if path:
        try:
            lines = [ln.strip() for ln in Path(path).read_text(encoding="utf-8").splitlines()]
        except OSError as e:
            raise SpecError(f"--api-key-file {path}: cannot read it ({e.strerror or e})") from None
        key = next((ln for ln in lines if ln), "")
        if not key:
            raise SpecError(f"--api-key-file {path}: the file is empty")
        return key
    return os.environ.get("OPENAI_API_KEY") or None


def default_cache_dir() -> Path:
    """`$AMBIT_CACHE/remote-responses` (AMBIT_CACHE defaults to ~/.cache/ambit)."""
    return Path(os.environ.get("AMBIT_CACHE") or Path.home() / ".cache" / "ambit") / "remote-responses"


@dataclass(frozen=True)
class RemoteOptions:
    """How to talk to the endpoint. `cache_dir` None: no response cache. `timeout_s`: one HTTP
    attempt; `retries`: further attempts on 429, 5xx, timeouts and dropped connections, waiting
    `backoff_s` doubled each time (or the server's Retry-After), never more than `max_wait_s`."""

    api_key: str | None = field(default=None, repr=False)
    max_concurrency: int = 16
    cache_dir: Path | None = field(default_factory=default_cache_dir)
    timeout_s: float = 300.0
    retries: int = 6
    backoff_s: float = 0.5
    max_wait_s: float = 60.0

    @classmethod
    def from_args(cls, api_key_file: str | None = None, max_concurrency: int | None = None,
                  cache: str | None = None, **kw) -> "RemoteOptions":
        """From command-line values: `cache` "none" turns the cache off; None keeps the default."""
        if max_concurrency is not None and max_concurrency < 1:
            raise SpecError(f"--max-concurrency {max_concurrency}: must be at least 1")
        opts = dict(api_key=read_api_key(api_key_file), **kw)
        if max_concurrency is not None:
            opts["max_concurrency"] = max_concurrency
        if cache is not None:
            opts["cache_dir"] = None if cache.lower() == "none" else Path(cache)
        return cls(**opts)

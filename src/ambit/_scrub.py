"""One scrubber for secrets: every text from upstream passes `scrub` before it reaches a log line,
a gRPC status, run.json, results or the cache (OWASP: never log a credential). It masks the
secrets this process was given (`remember`), bearer and basic values, credential headers, URL
credentials, key and token parameters or JSON fields, and `sk-` keys."""

from __future__ import annotations

import base64
import logging
import re
import threading

MASK = "***"
_MIN_SECRET = 4  # shorter strings are not masked by value (they would mask ordinary words)
_known: set[str] = set()
_lock = threading.Lock()

_PATTERNS: list[tuple[re.Pattern[str], str]] = [
    (re.compile(r"(?<=://)[^/@\s\"'<>]*@"), MASK + "@"),  # URL credentials
    (re.compile(r"(?i)\b(bearer)(\s+)[A-Za-z0-9._~+/=:-]{6,}"), r"\1\2" + MASK),  # "Bearer" is no word of prose
    (re.compile(r"\b(Basic)(\s+)[A-Za-z0-9+/]{8,}={0,2}"), r"\1\2" + MASK),  # base64 user:password
    (re.compile(r"(?i)\b((?:proxy-)?authorization|x-api-key|api-key|openai-api-key)(\"?'?\s*[:=]\s*\"?'?)"
                r"(?!(?:bearer|basic|token)\s)[^\s\"',}]+"), r"\1\2" + MASK),
    (re.compile(r"(?i)([?&;](?:api[_-]?key|key|token|access[_-]?token|auth|password|passwd|secret)=)[^&\s\"'#]+"),
     r"\1" + MASK),
    (re.compile(r"(?i)(\"(?:api[_-]?key|access[_-]?token|auth[_-]?token|token|password|secret|authorization)\""
                r"\s*:\s*\")[^\"]*(\")"), r"\1" + MASK + r"\2"),
    (re.compile(r"\bsk-[A-Za-z0-9_-]{6,}"), "sk-" + MASK),
]


def remember(secret: str | None) -> None:
    """Mask ``secret`` (and its forms in an HTTP header) wherever `scrub` sees it from now on."""
    if not secret or len(secret) < _MIN_SECRET:
        return
    forms = {secret}
    if ":" in secret:  # user:password, as HTTP basic auth sends it
        forms.add(base64.b64encode(secret.encode("utf-8")).decode("ascii"))
        user, _, password = secret.partition(":")
        if len(password) >= _MIN_SECRET:
            forms.add(password)
    with _lock:
        _known.update(forms)


def scrub(text: object) -> str:
    """``text`` (made a str) with every secret above replaced by ``***``."""
    out = str(text)
    with _lock:
        known = sorted(_known, key=len, reverse=True)
    for secret in known:
        out = out.replace(secret, MASK)
    for pattern, replacement in _PATTERNS:
        out = pattern.sub(replacement, out)
    return out


class ScrubFilter(logging.Filter):
    """A logging filter that scrubs each record's formatted message and exception text."""

    def filter(self, record: logging.LogRecord) -> bool:
        try:
            message = record.getMessage()
        except Exception:  # noqa: BLE001 - a bad format string: keep the raw text, scrubbed
            message = str(record.msg)
        record.msg, record.args = scrub(message), None
        if record.exc_info and record.exc_info[1] is not None:
            record.exc_text = scrub(logging.Formatter().formatException(record.exc_info))
            record.exc_info = None
        return True


def install(*loggers: str) -> None:
    """Attach one `ScrubFilter` to each named logger (a child is covered only by naming it)."""
    for name in loggers:
        logger = logging.getLogger(name)
        if not any(isinstance(f, ScrubFilter) for f in logger.filters):
            logger.addFilter(ScrubFilter())

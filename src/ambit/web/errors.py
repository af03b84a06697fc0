"""The one shape of every error the web JSON API answers, with its HTTP status:
`{"error": {"code", "message", "field", "position", "hint"}}`, built by `error_body` (the logic
layer's `error_object`, which every JSONL output uses too); docs/web.md lists the codes.
"""

from __future__ import annotations

from starlette.responses import JSONResponse

from ambit.logic.error_json import error_object as error_body  # the one builder of the shape, every layer's


def error_response(status: int, code: str, message: str, field: str | None = None, position: int | None = None,
                   hint: str | None = None, retry_after_s: float | None = None,
                   headers: dict | None = None) -> JSONResponse:
    """The JSON response of an error (with `Retry-After` when a retry may succeed)."""
    headers = dict(headers or {})
    if retry_after_s is not None:
        headers["retry-after"] = str(max(1, round(retry_after_s)))
    return JSONResponse(error_body(code, message, field, position, hint), status_code=status, headers=headers or None)

"""The one shape of every error the web JSON API answers, with its HTTP status:

    {"error": {"code": "LF_PARSE_ERROR", "message": "...", "field": "a", "position": 12, "hint": "..."}}

`code` is a stable upper-case name (an input's reason such as `OUT_OF_RANGE`, or what went wrong:
`DEADLINE_EXCEEDED`, `OVERLOADED`, ...), `message` one line for a person, `field` the request
field at fault (null when none), `position` (a 0-based character offset into that field) and
`hint` (what to do) only where there are some. `error_body` is the logic layer's `error_object`, the
one builder of the shape for every JSONL output too; every refusal and failure of the API goes
through it (docs/web.md lists the codes).
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

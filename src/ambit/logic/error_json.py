"""The one error shape of every JSON-lines output (`ambit logic ... --jsonl`, `ambit eval`'s
`errors.jsonl`, the web API), built here in the logic layer for every layer above it:

    {"error": {"code": "...", "message": "...", "field": "...", "position": 17, "hint": "..."}}

`code` is one word a program can branch on (`CODES`), `message` one line (never the input echoed
whole), `position` a 0-based offset in `field`; extra keys may follow.
"""

from __future__ import annotations

import json
from typing import Any

# code -> when it is given (docs/logic.md, "One error shape")
CODES: dict[str, str] = {
    "invalid_json": "the line is not JSON",
    "invalid_request": "the line is JSON but not the object the command reads (a field missing or of the wrong type)",
    "unknown_dialect": "a format/dialect name ambit does not read",
    "too_long": "a formula over --max-chars characters (refused before it is read)",
    "too_deep": "a formula nested deeper than ambit reads",
    "syntax": "a formula that does not parse in its dialect",
    "empty": "an empty formula",
    "dangling_operator": "a formula that ends with an operator",
    "quantified_constant": "a quantifier over a constant",
    "unbound_variable": "a free variable where the dialect's reading refuses one",
    "mixed_arity": "a predicate or function used with two arities in one problem",
    "symbol_kind": "a name used as a predicate and as a function or constant in one problem",
    "tptp_problem": "a TPTP statement ambit does not read, or one in the wrong role",
    "engine_error": "the checks themselves failed (every line of the batch gets it)",
}


def error_object(code: str, message: str, field: str = "", position: int | None = None,
                 hint: str | None = None, **extra: Any) -> dict:
    """`{"error": {...}}` in the one shape; `position` and `hint` only when known, `extra` after them."""
    body: dict[str, Any] = {"code": code, "message": message, "field": field}
    if position is not None:
        body["position"] = position
    if hint:
        body["hint"] = hint
    body.update({k: v for k, v in extra.items() if k not in body})
    return {"error": body}


def error_line(code: str, message: str, field: str = "", position: int | None = None, hint: str | None = None,
               **extra: Any) -> str:
    """`error_object` as one JSON line (no newline)."""
    return json.dumps(error_object(code, message, field, position, hint, **extra), ensure_ascii=False)


def from_exception(err: BaseException, field: str = "", *, hint: str | None = None,
                   index: int | None = None) -> dict:
    """The error object of an exception (`hint`: the surface's own words for the fix; None: the
    error's own); anything unknown as `invalid_request` (a ValueError) or `engine_error`."""
    from ambit.logic.errors import LFParseError, UnknownDialect
    from ambit.logic.syntax.reading import ArityError
    from ambit.logic.syntax.tptp_include import TPTPProblemError

    at = {} if index is None else {"index": index}
    if isinstance(err, LFParseError):
        return error_object(err.kind, err.describe().partition("\n")[0], field, err.pos,
                            hint if hint is not None else err.hint, **at, expected=list(err.expected))
    if isinstance(err, ArityError):
        return error_object(err.problem, str(err), field, err.second[2], **at, uses=err.to_dict()["uses"])
    if isinstance(err, json.JSONDecodeError):
        return error_object("invalid_json", f"not JSON: {err.msg} at column {err.colno}", field, err.pos, **at)
    if isinstance(err, UnknownDialect):
        return error_object("unknown_dialect", str(err), field or "format", **at)
    if isinstance(err, TPTPProblemError):
        return error_object("tptp_problem", str(err), field, **at)
    if isinstance(err, ValueError):
        return error_object("invalid_request", str(err), field, **at)
    return error_object("engine_error", f"{type(err).__name__}: {err}", field, **at)


__all__ = ["CODES", "error_line", "error_object", "from_exception"]

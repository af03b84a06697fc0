"""Input checks shared by the service's operations: each failure names its field."""

from __future__ import annotations

import contextlib
import dataclasses
import re
from typing import Any, Iterator, Sized

from ambit import logic
from ambit.logic import LFParseError
from ambit.logic.errors import RenderError
from ambit.logic.syntax.dialect import Dialect
from ambit.logic.syntax.reading import ArityError, ProblemError, ReadingTimeLimit, read_pair, read_story

from ambit.server.service.errors import DeadlineExceeded, InvalidField, MalformedLF


def text(value: str, field: str, limit: int, allow_empty: bool = False) -> str:
    """`value`, if it is non-empty (unless allowed) and at most `limit` characters."""
    if not value and not allow_empty:
        raise InvalidField(field, "must not be empty", reason="EMPTY")
    if len(value) > limit:
        raise InvalidField(field, f"{len(value)} characters; the limit is {limit}", reason="TOO_LONG")
    return value


def lf(value: str, fmt: str, field: str, limit: int) -> logic.Formula:
    """The parsed LF in `value`; MalformedLF (with the position) when it does not parse."""
    text(value, field, limit)
    try:
        formula = logic.parse(value, fmt)
    except LFParseError as e:
        raise MalformedLF(field, e, value, fmt) from None
    except RecursionError:
        raise _too_deep_to_read(field) from None
    _shallow(formula, field)
    return formula


def pair(a: str, b: str, d: Dialect, free_variables: str | None, field: str, limit: int,
         deadline: float | None = None):
    """Two LFs read in `d` as one problem (logic.syntax.reading.read_pair) until `deadline`
    (time.monotonic()): (a, b, a shown, b shown, Reading); each failure names its field."""
    text(a, f"{field}a", limit)
    text(b, f"{field}b", limit)
    with _read_problem("pair", field, d, {"a": a, "b": b}, "a"):
        fa, fb, reading = read_pair(a, b, d, deadline=deadline)
    _shallow(fa, f"{field}a")
    _shallow(fb, f"{field}b")
    return fa, fb, _shown(fa, d, free_variables, f"{field}a"), _shown(fb, d, free_variables, f"{field}b"), reading


def story(premises: "Sized", conclusion: str, d: Dialect, field: str, limit: int, deadline: float | None = None):
    """A story read in `d` as one problem (premises, conclusion, Reading), as `pair` reads."""
    for i, p in enumerate(premises):
        text(p, f"{field}premises[{i}]", limit)
    text(conclusion, f"{field}conclusion", limit)
    with _read_problem("story", field, d, {"premises": list(premises), "conclusion": conclusion}, "premises"):
        ps, c, reading = read_story(list(premises), conclusion, d, deadline=deadline)
    for i, f in enumerate(ps):
        _shallow(f, f"{field}premises[{i}]")
    _shallow(c, f"{field}conclusion")
    return ps, c, reading  # an entailment answer shows no formula: a constant 'x' needs no writing back


@contextlib.contextmanager
def _read_problem(what: str, field: str, d: Dialect, texts: dict, first: str) -> Iterator[None]:
    """The errors of reading a problem as the service reports them, each naming its field."""
    try:
        yield
    except ReadingTimeLimit:
        raise DeadlineExceeded(f"deadline exceeded while the {what} was read") from None
    except ProblemError as e:
        raise _problem_error(e, field, d, texts) from None
    except RecursionError:
        raise _too_deep_to_read(f"{field}{first}") from None


def _too_deep_to_read(field: str) -> InvalidField:
    return InvalidField(field, f"nested too deeply to read (the limit is {MAX_LF_DEPTH} levels)",
                        reason="TOO_DEEP")


def _shown(f: logic.Formula, d: Dialect, free_variables: str | None, field: str) -> str:
    """The formula as `Dialect.show` (a lower-case constant cannot be: INVALID_ARGUMENT)."""
    try:
        return d.show(f)
    except RenderError as e:
        found = re.search(r"constant '([^']*)'", str(e))
        if found is None:
            raise InvalidField(field, f"cannot be written in {d}: {e}", reason="UNRENDERABLE") from None
        policy = f" (free_variables={free_variables})" if free_variables else ""
        raise InvalidField(field, f"the free variable {found[1]!r} read as a constant{policy} cannot be written in "
                           f"{d}, where a lower-case name is a variable: write it with a capital, or choose "
                           "free_variables=UNIVERSAL", reason="FREE_VARIABLE") from None


def _shallow(f: logic.Formula, field: str) -> None:
    found = depth(f)
    if found > MAX_LF_DEPTH:
        raise InvalidField(field, f"nested {found} levels deep; the limit is {MAX_LF_DEPTH}", reason="TOO_DEEP")


def _problem_error(e, field: str, fmt: "Dialect | None" = None, texts: dict | None = None) -> InvalidField:
    """The field error for a logic.syntax.reading.ProblemError (a parse error with its hint)."""
    name = f"{field}{e.field}" + (f"[{e.index}]" if e.index is not None else "")
    if isinstance(e.cause, LFParseError):
        text = (texts or {}).get(e.field)
        if e.index is not None and isinstance(text, list) and e.index < len(text):
            text = text[e.index]
        return MalformedLF(name, e.cause, text if isinstance(text, str) else None, fmt)
    if isinstance(e.cause, ArityError):
        return InvalidField(name, str(e.cause), reason=e.cause.reason)  # MIXED_ARITY or SYMBOL_KIND
    return InvalidField(name, str(e.cause), reason="LF_PARSE_ERROR")


# Levels a formula may nest: far above any story (AmP under 20, FOLIO under 30), low enough that
# the renderers and the Prolog bridge (a few Python frames per level) stay under the recursion limit
MAX_LF_DEPTH = 100


def depth(node: object) -> int:
    """How deep a parsed formula nests (iteratively: the formula may be deep)."""
    deepest, stack = 0, [(node, 1)]
    while stack:
        n, d = stack.pop()
        deepest = max(deepest, d)
        if not dataclasses.is_dataclass(n):
            continue
        for f in dataclasses.fields(n):
            value = getattr(n, f.name)
            for child in value if isinstance(value, tuple) else (value,):
                if dataclasses.is_dataclass(child):
                    stack.append((child, d + 1))
    return deepest


MAX_JSON_DEPTH = 64  # RADD instances nest 3 deep; Python's JSON reader recurses once per level


def json_depth(value: str, field: str, limit: int = MAX_JSON_DEPTH) -> str:
    """`value`, if its arrays and objects nest at most `limit` deep (before the JSON reader)."""
    depth, in_string, escaped = 0, False, False
    for i, c in enumerate(value):
        if in_string:
            if escaped:
                escaped = False
            elif c == "\\":
                escaped = True
            elif c == '"':
                in_string = False
        elif c == '"':
            in_string = True
        elif c in "[{":
            depth += 1
            if depth > limit:
                raise InvalidField(field, f"JSON nested more than {limit} deep (at character {i})", reason="TOO_DEEP")
        elif c in "]}":
            depth -= 1
    return value


def batch_size(items: Sized, limit: int) -> None:
    """A batch has at least one item and at most `limit`."""
    if not len(items):
        raise InvalidField("items", "at least one item is needed", reason="EMPTY")
    if len(items) > limit:
        raise InvalidField("items", f"{len(items)} items; the limit is {limit}", reason="TOO_MANY")


def context(backend: Any, text: str, extra_tokens: int, field: str) -> None:
    """InvalidField CONTEXT_TOO_LONG when `text` and `extra_tokens` more overflow the context."""
    from ambit.server.model import Capability, ContextTooLong

    if Capability.TOKENS not in backend.capabilities:
        return
    try:
        backend.check_context(text, extra_tokens)
    except ContextTooLong as e:
        raise InvalidField(field, f"{e.prompt_tokens} tokens, and {e.extra_tokens} more to score or generate "
                           f"after them; the model's context is {e.context} tokens",
                           reason="CONTEXT_TOO_LONG") from None

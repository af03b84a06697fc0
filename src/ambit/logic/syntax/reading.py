"""Reading a problem (a pair, a story) as one: free variables closed as `Reading` records, no symbol
with two arities or kinds (`check_arities`); `ProblemError` names the formula."""

from __future__ import annotations

import dataclasses
import re
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Iterable, Sequence

from ambit.logic.syntax.dialect import FOLIO, Dialect, dialect

if TYPE_CHECKING:
    from ambit.logic.syntax.ast import Formula


class ArityError(ValueError):
    """A symbol used with two numbers of arguments in one problem; names both uses."""

    reason = "MIXED_ARITY"  # the RPC's INVALID_ARGUMENT reason
    problem = "mixed_arity"  # the kind in to_dict, and a FOLIO sample's label_problem

    def __init__(self, kind: str, name: str, first: tuple[str, int, int | None],
                 second: tuple[str, int, int | None]) -> None:
        self.kind, self.name, self.first, self.second = kind, name, first, second
        super().__init__(self._message())

    @staticmethod
    def _where(u: tuple[str, int, int | None]) -> str:
        return u[0] + (f" at character {u[2] + 1}" if u[2] is not None else "")

    def _message(self) -> str:
        def use(u: tuple[str, int, int | None]) -> str:
            return f"{u[1]} argument{'s' if u[1] != 1 else ''} in {self._where(u)}"

        return f"{self.kind} {self.name!r} is used with {use(self.first)} and with {use(self.second)}"

    def to_dict(self) -> dict:
        return {"message": str(self), "kind": self.problem, "symbol": self.name, "symbol_kind": self.kind,
                "uses": [{"formula": u[0], "arity": u[1], "pos": u[2]} for u in (self.first, self.second)]}


class SymbolKindError(ArityError):
    """One name used as a predicate and as a function or constant in one name space."""

    reason = "SYMBOL_KIND"
    problem = "symbol_kind"

    def __init__(self, kind: str, name: str, first: tuple[str, int, int | None],
                 second: tuple[str, int, int | None], second_kind: str) -> None:
        self.second_kind = second_kind
        super().__init__(kind, name, first, second)

    def _message(self) -> str:
        def use(kind: str, u: tuple[str, int, int | None]) -> str:
            what = "a constant" if kind == "function" and u[1] == 0 else f"a {kind} of {u[1]} argument" + (
                "s" if u[1] != 1 else "")
            return f"as {what} in {self._where(u)}"

        return (f"{self.name!r} is used {use(self.kind, self.first)} and {use(self.second_kind, self.second)}; "
                f"predicates, functions and constants share one name space (as in Prover9, E and TPTP; "
                f"--symbols separate reads them as two symbols)")

    def to_dict(self) -> dict:
        out = super().to_dict()
        out["uses"][0]["symbol_kind"], out["uses"][1]["symbol_kind"] = self.kind, self.second_kind
        return out


def _symbols(f: "Formula", constants: bool = False) -> Iterable[tuple[str, str, int]]:
    """(kind, name, arity) of every predicate and function use in `f` (`constants`: those too)."""
    from ambit.logic.syntax.ast import Atom, Const, Func, subformulas, subterms, terms

    for g in subformulas(f):
        if type(g) is Atom:
            yield "predicate", g.pred, len(g.args)
        for a in terms(g):
            for u in subterms(a):
                if type(u) is Func:
                    yield "function", u.name, len(u.args)
                elif constants and type(u) is Const:
                    yield "function", u.name, 0


def _position(text: str | None, name: str, arity: int, kind: str | None = None) -> int | None:
    """Where in `text` `name` is written with `arity` arguments as a `kind`; None if unknown."""
    if not text:
        return None
    first = None
    for m in re.finditer(rf"(?<![\w'’.$\"]){re.escape(name)}(?![\w'’.\"])", text):
        rest = text[m.end():].lstrip()
        if (arity == 0) == rest.startswith("("):
            continue
        if arity:
            depth, commas = 0, 0
            for ch in rest:
                if ch == "(":
                    depth += 1
                elif ch == ")":
                    depth -= 1
                    if depth == 0:
                        break
                elif ch == "," and depth == 1:
                    commas += 1
            if commas + 1 != arity:
                continue
        if kind is None or _in_term(text, m.start(), rest) == (kind == "function"):
            return m.start()
        if first is None:
            first = m.start()
    return first


_NAME_CHAR = re.compile(r"[\w'’.$\"]")


def _in_term(text: str, start: int, rest: str) -> bool:
    """Whether the name at `start` stands where a term does (an argument, a side of `=`)."""
    before = text[:start].rstrip()
    if rest[:1] in ("=", "≠") or rest.startswith("!="):
        return True
    if not before:
        return False
    c = before[-1]
    if c in ",[=≠":
        return True
    if c == "(":
        head = before[:-1].rstrip()
        return bool(head) and _NAME_CHAR.match(head[-1]) is not None
    return False


def check_arities(formulas: Sequence[tuple[str, "Formula", str | None]], symbols: str = "separate",
                  deadline: float | None = None) -> None:
    """Refuse `formulas` ((label, formula, text)) using a symbol with two arities or, with
    `symbols="shared"`, one name as two kinds; ReadingTimeLimit past `deadline`."""
    seen: dict[tuple[str, str], tuple[str, int, str | None]] = {}
    kinds: dict[str, tuple[str, str, int, str | None]] = {}
    for i, (label, f, text) in enumerate(formulas):
        if deadline is not None and i % CHECK_EVERY == 0:
            in_time(deadline, f"the symbols of {label}")
        for kind, name, arity in _symbols(f, constants=symbols == "shared"):
            if symbols == "shared":
                other = kinds.setdefault(name, (kind, label, arity, text))
                if other[0] != kind:
                    raise SymbolKindError(other[0], name,
                                          (other[1], other[2], _position(other[3], name, other[2], other[0])),
                                          (label, arity, _position(text, name, arity, kind)), kind)
            first = seen.setdefault((kind, name), (label, arity, text))
            if first[1] != arity:
                raise ArityError(kind, name, (first[0], first[1], _position(first[2], name, first[1])),
                                 (label, arity, _position(text, name, arity)))


CHECK_EVERY = 1000  # formulas checked between two looks at the deadline (a few ms of work)


class ReadingTimeLimit(Exception):
    """Reading a problem went past its deadline: the caller answers UNKNOWN, never late."""


def in_time(deadline: float | None, where: str) -> None:
    """ReadingTimeLimit once `deadline` has passed (None: no deadline)."""
    if deadline is not None and time.monotonic() > deadline:
        raise ReadingTimeLimit(f"reading the problem took longer than its time limit (at {where})")


@dataclass(frozen=True)
class Reading:
    """How a problem's formulas were read, and which had free variables closed (label -> names)."""

    dialect: str
    free_variables: str
    closed: dict[str, list[str]] = field(default_factory=dict)
    symbols: str = "shared"  # one name space for predicates, functions, constants, or `separate`

    def to_dict(self) -> dict:
        out: dict[str, Any] = {"dialect": self.dialect, "free_variables": self.free_variables,
                               "symbols": self.symbols}
        if self.closed:
            out["closed"] = self.closed
        return out


class ProblemError(ValueError):
    """A formula of a problem that cannot be read: `field`, `index` and the cause."""

    def __init__(self, cause: Exception, field: str, index: int | None) -> None:
        self.cause, self.field, self.index = cause, field, index
        super().__init__(f"{_label(field, index)}: {cause}")


def _label(field: str, index: int | None) -> str:
    return f"{field}[{index}]" if index is not None else field


def _read_one(x: Any, d: Dialect, field: str, index: int | None, reading: Reading, cache: dict | None = None,
              deadline: float | None = None):
    """One formula (text in `d`, or a closed AST) and its text; `cache` reads a text once."""
    from ambit.logic.syntax.ast import free_vars
    from ambit.logic.errors import LFParseError

    if deadline is not None:
        in_time(deadline, _label(field, index))
    if not isinstance(x, str):
        if free := free_vars(x):  # an AST: closed already, or refused
            raise ProblemError(ValueError(f"a formula must be closed; free variable(s): {', '.join(sorted(free))}"),
                               field, index)
        return x, None
    try:
        if cache is None:
            f, closed = d.read(x)
        elif (hit := cache.get(x)) is not None:
            f, closed = hit
        else:
            f, closed = cache[x] = d.read(x)
    except LFParseError as e:
        raise ProblemError(e, field, index) from None
    if closed:
        reading.closed[_label(field, index)] = list(closed)
    return f, x


def _start(fmt: "str | Dialect", free_variables: str | None, symbols: str | None):
    """The problem's dialect (a Dialect with no policy to apply as it is) and its empty Reading."""
    if not (isinstance(fmt, Dialect) and free_variables is None and symbols is None):
        fmt = dialect(fmt, free_variables, symbols)
    return fmt, Reading(fmt.name, fmt.free_variables, symbols=fmt.symbols)


def read_pair(a: Any, b: Any, fmt: "str | Dialect" = FOLIO, free_variables: str | None = None,
              symbols: str | None = None, cache: dict | None = None, deadline: float | None = None):
    """Two formulas read as one problem: (a, b, Reading); ProblemError names the formula."""
    d, reading = _start(fmt, free_variables, symbols)
    fa, ta = _read_one(a, d, "a", None, reading, cache, deadline)
    fb, tb = _read_one(b, d, "b", None, reading, cache, deadline)
    try:
        if d.one_arity:
            check_arities([("a", fa, ta), ("b", fb, tb)], d.symbols)
    except ArityError as e:
        raise ProblemError(e, e.second[0], None) from None  # labelled `a` or `b`
    return fa, fb, reading


def read_story(premises: Sequence[Any], conclusion: Any, fmt: "str | Dialect" = FOLIO,
               free_variables: str | None = None, labels: Sequence[str] | None = None, symbols: str | None = None,
               cache: dict | None = None, deadline: float | None = None):
    """A story read as one problem: (premises, conclusion, Reading); `labels` name the premises."""
    d, reading = _start(fmt, free_variables, symbols)
    ps = [_read_one(p, d, "premises", i, reading, cache, deadline) for i, p in enumerate(premises)]
    c = _read_one(conclusion, d, "conclusion", None, reading, cache, deadline)
    names = list(labels) if labels is not None else [_label("premises", i) for i in range(len(ps))]
    try:
        if d.one_arity:
            check_arities([(names[i], f, t) for i, (f, t) in enumerate(ps)] + [("conclusion", *c)], d.symbols,
                          deadline)
    except ArityError as e:
        where = e.second[0]
        index = names.index(where) if where in names else None
        raise ProblemError(e, "premises" if index is not None else "conclusion", index) from None
    return [f for f, _ in ps], c[0], reading


def record(result: Any, reading: Reading) -> Any:
    """`result` (a Decision or a Verdict) with how its formulas were read."""
    if hasattr(result, "witness"):
        return dataclasses.replace(result, witness={**(result.witness or {}), "reading": reading.to_dict()})
    if any(f.name == "reading" for f in dataclasses.fields(result)):
        return dataclasses.replace(result, reading=reading.to_dict())
    return result


def _raise_with_place(e: ProblemError):
    """Raise a ProblemError's cause with a note naming the formula (an ArityError as it is)."""
    cause = e.cause
    if e.field and not isinstance(cause, ArityError):
        cause.add_note(f"in {_label(e.field, e.index)}")
    raise cause from None


def _read_all(items: Iterable[tuple[Any, Any]], read_one, fmt, free_variables,
              symbols: str | None = None, deadline: float | None = None) -> tuple[list, list[Reading]]:
    """`read_one` on every item: the ASTs and the Readings; the first error's cause is raised."""
    parsed, readings = [], []
    cache: dict = {}  # a text met twice in the batch is read once (ASTs are immutable)
    for x, y in items:
        try:
            fx, fy, r = read_one(x, y, fmt, free_variables, symbols=symbols, cache=cache, deadline=deadline)
        except ProblemError as e:
            _raise_with_place(e)
        parsed.append((fx, fy))
        readings.append(r)
    return parsed, readings


def read_stories(stories: Iterable[tuple[Sequence[Any], Any]], fmt: "str | Dialect" = FOLIO,
                 free_variables: str | None = None, symbols: str | None = None, deadline: float | None = None
                 ) -> tuple[list[tuple[list, Any]], list[Reading]]:
    """`read_story` for many stories: their ASTs and Readings; errors as `_read_all`."""
    return _read_all(stories, read_story, fmt, free_variables, symbols, deadline)


def read_pairs(pairs: Iterable[tuple[Any, Any]], fmt: "str | Dialect" = FOLIO,
               free_variables: str | None = None, symbols: str | None = None, deadline: float | None = None
               ) -> tuple[list[tuple[Any, Any]], list[Reading]]:
    """`read_pair` for many pairs: their ASTs and their Readings; errors as `read_stories`."""
    return _read_all(pairs, read_pair, fmt, free_variables, symbols, deadline)


__all__ = ["ArityError", "SymbolKindError", "ProblemError", "Reading", "ReadingTimeLimit", "check_arities", "in_time",
           "read_pair", "read_pairs", "read_stories", "read_story", "record"]

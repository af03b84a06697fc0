"""The dialects of logical forms as values: what each one is called, how it is read and written,
which grammar constrains decoding into it, and what it admits.

AmP's two formats (`fol`, `lisp`) admit AmP's fragment (∃, ∀, ∧, ∨ over atoms of one or two
arguments); the full dialects (`folio`, `nltk`, `tptp`) admit first-order logic with ¬ → ↔ ⊕,
equality and function terms. Their names are what the wire and the command line carry
(`--from folio`, `LF_FORMAT_FOLIO`); code asks the `Dialect` value instead of comparing names.

A dialect also says how it reads a name that no quantifier binds (`free_variables`):
`universal` closes the formula under ∀ for it (what Prover9, E and TPTP do), `constant` reads it
as a constant, `error` refuses the formula. The full dialects default to `universal`, AmP's
formats to `error` (AmP's data never has a free variable). Which names count as variables when
free: TPTP and AmP spell them (upper-case words; AmP's `x`, `a1`, ...); NLTK's own rule (one
lower-case letter and digits, `x`, `e2`); FOLIO: one letter from u to z (Prover9's variable
letters; FOLIO's gold formulas use names such as `a`, `k` and `y1976` as constants).
"""

from __future__ import annotations

import dataclasses
import importlib
import re
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources
from typing import TYPE_CHECKING, Any, Callable, Iterable, Sequence

if TYPE_CHECKING:
    from ambit.logic.syntax.ast import Formula

FREE_VARIABLES = ("universal", "constant", "error")


@dataclass(frozen=True)
class Dialect:
    """One dialect: its `name` (the wire's and the command line's), whether it admits `full`
    first-order logic (else AmP's fragment), its reading `grammar` and the `decode_grammar`
    constrained decoding uses (None: none), how it reads `free_variables` and how a free name is
    spelled to count as a variable, and what its error messages call its tokens."""

    name: str
    full: bool
    description: str
    grammar: str
    decode_grammar: str | None
    free_variables: str
    # how a name bound by no quantifier must be spelled to be a variable (folio, nltk); None where
    # the grammar itself tells variables from constants (AmP's VAR, TPTP's upper-case words)
    variable_spelling: str | None = None
    dotted_names: bool = False  # names may contain '.' (so `∀x. P(x)` would bind `x.`)
    # a problem (a formula, a pair, a story) must use each predicate and function with one arity
    # (Prover9, E and TPTP refuse mixed arities). AmP's formats: False, as AmP's procedure reads
    # p/1 and p/2 as two relations, so a predicted LF with a wrong arity stays NOT_EQUIVALENT.
    one_arity: bool = True
    terminal_names: tuple[tuple[str, str], ...] = ()  # error wording: (terminal, description)
    operators: tuple[str, ...] = ()  # binary and prefix operators: one at the end dangles
    reader: Callable[[str, "Dialect"], Any] = field(default=None, compare=False, repr=False)  # type: ignore[assignment]
    renderer: Callable[["Formula"], str] = field(default=None, compare=False, repr=False)  # type: ignore[assignment]

    def __post_init__(self) -> None:
        if self.free_variables not in FREE_VARIABLES:
            raise ValueError(f"free_variables must be one of {', '.join(FREE_VARIABLES)}, not {self.free_variables!r}")

    def __str__(self) -> str:
        return self.name

    def __reduce__(self):  # crosses to a worker process by name (its functions stay behind)
        return (dialect, (self.name, self.free_variables))

    @property
    def admits(self) -> str:
        """`amp` (AmP's fragment) or `fol` (full first-order logic with equality and functions)."""
        return "fol" if self.full else "amp"

    @property
    def amp(self) -> bool:
        """One of AmP's formats (canonical form, AmP's equivalence procedure, decoding)."""
        return not self.full

    def with_free_variables(self, policy: str | None) -> "Dialect":
        """This dialect reading free variables as `policy` (None: as it does)."""
        if policy is None or policy == self.free_variables:
            return self
        return dataclasses.replace(self, free_variables=policy)

    def parse(self, text: str) -> "Formula":
        """`text` read in this dialect (logic.parse)."""
        return self.reader(text, self)[0]

    def read(self, text: str) -> tuple["Formula", tuple[str, ...]]:
        """`text` read in this dialect, with the names of the free variables it closed under ∀."""
        return self.reader(text, self)

    def render(self, f: "Formula") -> str:
        """`f` written in this dialect (RenderError when the dialect cannot express it)."""
        return self.renderer(f)

    def grammar_text(self) -> str:
        """The Lark grammar this dialect is read with (`logic/grammars/<grammar>.lark`)."""
        return resources.files("ambit.logic").joinpath("grammars", f"{self.grammar}.lark").read_text(encoding="utf-8")

    def decode_grammar_text(self) -> str:
        """The grammar constrained decoding into this dialect uses; ValueError where there is none."""
        if self.decode_grammar is None:
            raise ValueError(f"the {self.name} dialect has no decode grammar")
        return resources.files("ambit.logic").joinpath("grammars", f"{self.decode_grammar}.lark").read_text(
            encoding="utf-8")

    def is_variable_name(self, name: str) -> bool:
        """Whether a name no quantifier binds is spelled as a free variable (folio, nltk)."""
        return self.variable_spelling is not None and re.fullmatch(self.variable_spelling, name) is not None


def _bound(ref: str) -> Callable:
    """The function `module:name`, imported when first called. The readers and renderers import
    this registry (to look dialects up), so the registry names them instead of importing them:
    the import graph stays acyclic, and a dialect's reader loads only when it is used."""
    module, _, name = ref.partition(":")
    return getattr(importlib.import_module(module), name)


def _read_amp(text: str, d: Dialect):
    return _bound("ambit.logic.syntax.parse:read_amp")(text, d)


def _read_full(text: str, d: Dialect):
    return _bound("ambit.logic.syntax.full_parse:read_dialect")(text, d)


def _read_folio(text: str, d: Dialect):
    return _bound("ambit.logic.syntax.full_parse:read_folio")(text, d)


def _render_amp(name: str) -> Callable[["Formula"], str]:
    def write(f: "Formula") -> str:
        return _bound("ambit.logic.syntax.render:RENDERERS")[name](f)

    return write


def _render_full(name: str) -> Callable[["Formula"], str]:
    def write(f: "Formula") -> str:
        return _bound("ambit.logic.syntax.full_render:render_dialect")(f, name)

    return write


_REGISTRY: dict[str, Dialect] = {
    d.name: d
    for d in (
        Dialect("fol", False, "AmP's FOL: exists x . man(x) AND saw(a)", "fol", "fol", "error", one_arity=False,
                operators=(" AND", " OR", " ."), reader=_read_amp, renderer=_render_amp("fol")),
        Dialect("lisp", False, "AmP's Lisp: ( exists x ( AND ( man x ) ( saw a ) ) )", "lisp", "lisp", "error",
                one_arity=False, terminal_names=(("QUANT", "a quantifier ('( exists ' or '( forall ')"),),
                reader=_read_amp, renderer=_render_amp("lisp")),
        Dialect("folio", True, "FOLIO's Unicode FOL: ∀x (Dog(x) → ¬Cat(x))", "folio", "folio_decode", "universal",
                variable_spelling=r"[u-z]", dotted_names=True,
                terminal_names=(("QUANT", "a quantifier ('∀' or '∃')"),
                                ("NAME", "a name (a predicate, constant or variable)")),
                operators=("∧", "∨", "⊕", "→", "↔", "⟷", "¬"), reader=_read_folio,
                renderer=_render_full("folio")),
        Dialect("nltk", True, "nltk.sem.logic: all x.(dog(x) -> -cat(x))", "nltk", None, "universal",
                variable_spelling=r"[a-z][0-9]*",
                terminal_names=(("NAME", "a name (a predicate, constant or variable)"),),
                operators=("<->", "<=>", "->", "=>", "&", "^", "|", "-", "!"),
                reader=_read_full, renderer=_render_full("nltk")),
        Dialect("tptp", True, "TPTP FOF: ![X]: (p(X) => ~q(X)), or fof(name, role, formula).", "tptp", None,
                "universal",
                terminal_names=(("QUANT", "a quantifier ('!' or '?')"), ("NAME", "a name (a lower-case word)")),
                operators=("<=>", "<~>", "=>", "<=", "~|", "~&", "&", "|", "~", ":"),
                reader=_read_full, renderer=_render_full("tptp")),
    )
}

NAMES: tuple[str, ...] = tuple(_REGISTRY)  # every dialect, AmP's first
AMP_NAMES: tuple[str, ...] = tuple(n for n, d in _REGISTRY.items() if not d.full)
FULL_NAMES: tuple[str, ...] = tuple(n for n, d in _REGISTRY.items() if d.full)


@lru_cache(maxsize=None)
def _variant(name: str, free_variables: str) -> Dialect:
    return _REGISTRY[name].with_free_variables(free_variables)


def dialect(d: "str | Dialect", free_variables: str | None = None) -> Dialect:
    """The dialect named `d` (or `d` itself), reading free variables as `free_variables`
    (None: the dialect's own default, or what `d` already says). ValueError for an unknown name
    or policy."""
    if isinstance(d, Dialect):
        return d.with_free_variables(free_variables)
    try:
        base = _REGISTRY[d]
    except (KeyError, TypeError):
        raise ValueError(f"unknown LF format {d!r}: expected one of {', '.join(NAMES)}") from None
    if free_variables is None or free_variables == base.free_variables:
        return base
    if free_variables not in FREE_VARIABLES:
        raise ValueError(f"free_variables must be one of {', '.join(FREE_VARIABLES)}, not {free_variables!r}")
    return _variant(d, free_variables)


def name_of(d: "str | Dialect") -> str:
    """The wire name of a dialect given by name or as a value."""
    return d.name if isinstance(d, Dialect) else dialect(d).name


def dialects() -> tuple[Dialect, ...]:
    """Every registered dialect, AmP's formats first."""
    return tuple(_REGISTRY.values())


# --------------------------------------------------------------------------- what a problem may mix


class ArityError(ValueError):
    """One predicate or function symbol used with two numbers of arguments in one problem (one
    formula, a pair, or a story): Prover9, E and TPTP refuse that, and so does ambit. Names both
    uses: which formula (`first`, `second`: labels such as `premises[2]`) and where in its text."""

    def __init__(self, kind: str, name: str, first: tuple[str, int, int | None],
                 second: tuple[str, int, int | None]) -> None:
        self.kind, self.name, self.first, self.second = kind, name, first, second

        def use(u: tuple[str, int, int | None]) -> str:
            label, arity, pos = u
            where = f" at character {pos + 1}" if pos is not None else ""
            return f"{arity} argument{'s' if arity != 1 else ''} in {label}{where}"

        super().__init__(f"{kind} {name!r} is used with {use(first)} and with {use(second)}")

    def to_dict(self) -> dict:
        return {"message": str(self), "kind": "mixed_arity", "symbol": self.name, "symbol_kind": self.kind,
                "uses": [{"formula": u[0], "arity": u[1], "pos": u[2]} for u in (self.first, self.second)]}


def _symbols(f: "Formula") -> Iterable[tuple[str, str, int]]:
    """(kind, name, arity) of every predicate and function use in `f`, left to right."""
    from ambit.logic.syntax.ast import Atom, Func, subformulas, subterms, terms

    for g in subformulas(f):
        if type(g) is Atom:
            yield "predicate", g.pred, len(g.args)
        for a in terms(g):
            for u in subterms(a):
                if type(u) is Func:
                    yield "function", u.name, len(u.args)


def _position(text: str | None, name: str, arity: int) -> int | None:
    """Where in `text` `name` is written with `arity` arguments (as `name(` ... `)` with
    arity - 1 top-level commas, or bare for arity 0); None when it cannot be told."""
    if not text:
        return None
    for m in re.finditer(rf"(?<![\w'’.$]){re.escape(name)}(?![\w'’.])", text):
        rest = text[m.end():].lstrip()
        if arity == 0:
            if not rest.startswith("("):
                return m.start()
            continue
        if not rest.startswith("("):
            continue
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
        if commas + 1 == arity:
            return m.start()
    return None


def check_arities(formulas: Sequence[tuple[str, "Formula", str | None]]) -> None:
    """Refuse a problem whose formulas use one predicate or function with two arities:
    `formulas` are (label, formula, its text or None); ArityError names both uses."""
    seen: dict[tuple[str, str], tuple[str, int, str | None]] = {}
    for label, f, text in formulas:
        for kind, name, arity in _symbols(f):
            first = seen.setdefault((kind, name), (label, arity, text))
            if first[1] != arity:
                raise ArityError(kind, name, (first[0], first[1], _position(first[2], name, first[1])),
                                 (label, arity, _position(text, name, arity)))


# --------------------------------------------------------------------------- problems


@dataclass(frozen=True)
class Reading:
    """How a problem's formulas were read: the dialect, its free-variable policy, and which
    formulas had free variables closed under ∀ (label -> names), as each result records it."""

    dialect: str
    free_variables: str
    closed: dict[str, list[str]] = field(default_factory=dict)

    def to_dict(self) -> dict:
        out: dict[str, Any] = {"dialect": self.dialect, "free_variables": self.free_variables}
        if self.closed:
            out["closed"] = self.closed
        return out


class ProblemError(ValueError):
    """A formula of a problem that cannot be read: `field` (`a`, `b`, `premises`, `conclusion`),
    `index` (a premise's, else None) and the cause (an LFParseError or an ArityError)."""

    def __init__(self, cause: Exception, field: str, index: int | None) -> None:
        self.cause, self.field, self.index = cause, field, index
        where = f"{field}[{index}]" if index is not None else field
        super().__init__(f"{where}: {cause}")


def _label(field: str, index: int | None) -> str:
    return f"{field}[{index}]" if index is not None else field


def _read_one(x: Any, d: Dialect, field: str, index: int | None, reading: Reading):
    from ambit.logic.syntax.ast import free_vars
    from ambit.logic.errors import LFParseError

    if not isinstance(x, str):
        if free := free_vars(x):  # an AST: closed already, or refused
            raise ProblemError(ValueError(f"a formula must be closed; free variable(s): {', '.join(sorted(free))}"),
                               field, index)
        return x, None
    try:
        f, closed = d.read(x)
    except LFParseError as e:
        raise ProblemError(e, field, index) from None
    if closed:
        reading.closed[_label(field, index)] = list(closed)
    return f, x


def read_pair(a: Any, b: Any, fmt: "str | Dialect" = "folio", free_variables: str | None = None):
    """Two formulas (text in `fmt`, or closed ASTs) read as one problem: (a, b, Reading).
    ProblemError names the formula and the cause (syntax, free variable, mixed arity)."""
    d = dialect(fmt, free_variables)
    reading = Reading(d.name, d.free_variables)
    fa, ta = _read_one(a, d, "a", None, reading)
    fb, tb = _read_one(b, d, "b", None, reading)
    try:
        if d.one_arity:
            check_arities([("a", fa, ta), ("b", fb, tb)])
    except ArityError as e:
        raise ProblemError(e, _field_of(e.second[0]), _index_of(e.second[0])) from None
    return fa, fb, reading


def read_story(premises: Sequence[Any], conclusion: Any, fmt: "str | Dialect" = "folio",
               free_variables: str | None = None, labels: Sequence[str] | None = None):
    """A story's premises and conclusion (text in `fmt`, or closed ASTs) read as one problem:
    (premises, conclusion, Reading). ProblemError names the formula and the cause; `labels`
    name the premises in an ArityError's message (default `premises[i]`)."""
    d = dialect(fmt, free_variables)
    reading = Reading(d.name, d.free_variables)
    ps = [_read_one(p, d, "premises", i, reading) for i, p in enumerate(premises)]
    c = _read_one(conclusion, d, "conclusion", None, reading)
    names = list(labels) if labels is not None else [_label("premises", i) for i in range(len(ps))]
    try:
        if d.one_arity:
            check_arities([(names[i], f, t) for i, (f, t) in enumerate(ps)] + [("conclusion", *c)])
    except ArityError as e:
        where = e.second[0]
        index = names.index(where) if where in names else None
        raise ProblemError(e, "premises" if index is not None else "conclusion", index) from None
    return [f for f, _ in ps], c[0], reading


def _field_of(label: str) -> str:
    return label.split("[", 1)[0]


def _index_of(label: str) -> int | None:
    return int(label[label.index("[") + 1 : -1]) if "[" in label else None


def record(result: Any, reading: Reading) -> Any:
    """`result` (a Decision or a Verdict) with how its formulas were read in its evidence: a
    Decision's `reading` field, a Verdict's `witness["reading"]`."""
    if hasattr(result, "witness"):
        return dataclasses.replace(result, witness={**(result.witness or {}), "reading": reading.to_dict()})
    if any(f.name == "reading" for f in dataclasses.fields(result)):
        return dataclasses.replace(result, reading=reading.to_dict())
    return result


__all__ = ["AMP_NAMES", "ArityError", "Dialect", "FREE_VARIABLES", "FULL_NAMES", "NAMES", "ProblemError", "Reading",
           "check_arities", "dialect", "dialects", "name_of", "read_pair", "read_story", "record"]


def _raise_with_place(e: ProblemError):
    """The cause of a ProblemError (what the API has always raised: an LFParseError for text
    that does not read), with a note naming the formula; an ArityError as it is."""
    cause = e.cause
    if e.field and not isinstance(cause, ArityError):
        cause.add_note(f"in {_label(e.field, e.index)}")
    raise cause from None


def read_stories(stories: Iterable[tuple[Sequence[Any], Any]], fmt: "str | Dialect" = "folio",
                 free_variables: str | None = None) -> tuple[list[tuple[list, Any]], list[Reading]]:
    """`read_story` for many stories: their (premises, conclusion) ASTs and their Readings. Raises
    the first one's cause (LFParseError, ArityError, ValueError), with a note naming the formula."""
    parsed, readings = [], []
    for ps, c in stories:
        try:
            fps, fc, r = read_story(ps, c, fmt, free_variables)
        except ProblemError as e:
            _raise_with_place(e)
        parsed.append((fps, fc))
        readings.append(r)
    return parsed, readings


def read_pairs(pairs: Iterable[tuple[Any, Any]], fmt: "str | Dialect" = "folio",
               free_variables: str | None = None) -> tuple[list[tuple[Any, Any]], list[Reading]]:
    """`read_pair` for many pairs: their ASTs and their Readings; errors as `read_stories`."""
    parsed, readings = [], []
    for a, b in pairs:
        try:
            fa, fb, r = read_pair(a, b, fmt, free_variables)
        except ProblemError as e:
            _raise_with_place(e)
        parsed.append((fa, fb))
        readings.append(r)
    return parsed, readings


__all__ += ["read_pairs", "read_stories"]

"""The dialects of logical forms as values: what each one is called, how it is read and written,
which grammar constrains decoding into it, and what it admits.

AmP's two formats (`fol`, `lisp`) admit AmP's fragment (∃, ∀, ∧, ∨ over atoms of one or two
arguments); the full dialects (`folio`, `nltk`, `tptp`, `prover9`) admit first-order logic with ¬ → ↔ ⊕,
equality and function terms. Their names are what the wire and the command line carry
(`--from folio`, `LF_FORMAT_FOLIO`); code asks the `Dialect` value instead of comparing names.

A dialect also says how it reads a name that no quantifier binds (`free_variables`):
`universal` closes the formula under ∀ for it (what Prover9, E and TPTP do), `constant` reads it
as a constant, `error` refuses the formula. The full dialects default to `universal`, AmP's
formats to `error` (AmP's data never has a free variable). Which names count as variables when
free: TPTP and AmP spell them (upper-case words; AmP's `x`, `a1`, ...); NLTK's own rule (one
lower-case letter and digits, `x`, `e2`); FOLIO: one letter from u to z (Prover9's variable
letters; FOLIO's gold formulas use names such as `a`, `k` and `y1976` as constants); prover9:
LADR's own rule, any name starting with u to z (`x`, `y1`, `value`).

And whether predicates, functions and constants share one name space (`symbols`): `shared` in
the full dialects (Prover9, E and TPTP refuse `Airline(greyhound)` beside `greyhound(x)`, and so
does ambit: reading.SymbolKindError), `separate` in AmP's formats and on request.
"""

from __future__ import annotations

import dataclasses
import functools
import importlib
import re
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources
from typing import TYPE_CHECKING, Any, Callable

if TYPE_CHECKING:
    from ambit.logic.syntax.ast import Formula

FREE_VARIABLES = ("universal", "constant", "error")
# how one name may be used in a problem: `shared` (one name space, as in Prover9, E and TPTP: a
# name is a predicate, or a function/constant, never both) or `separate` (a predicate and a
# constant of one spelling are two symbols)
SYMBOLS = ("shared", "separate")


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
    # whether predicates, functions and constants share one name space (`shared`: the full
    # dialects, as Prover9, E and TPTP) or not (`separate`: AmP's formats, whose data never mixes)
    symbols: str = "shared"
    terminal_names: tuple[tuple[str, str], ...] = ()  # error wording: (terminal, description)
    operators: tuple[str, ...] = ()  # binary and prefix operators: one at the end dangles
    reader: Callable[[str, "Dialect"], Any] = field(default=None, compare=False, repr=False)  # type: ignore[assignment]
    renderer: Callable[["Formula"], str] = field(default=None, compare=False, repr=False)  # type: ignore[assignment]

    def __post_init__(self) -> None:
        if self.free_variables not in FREE_VARIABLES:
            raise ValueError(f"free_variables must be one of {', '.join(FREE_VARIABLES)}, not {self.free_variables!r}")
        if self.symbols not in SYMBOLS:
            raise ValueError(f"symbols must be one of {', '.join(SYMBOLS)}, not {self.symbols!r}")

    def __str__(self) -> str:
        return self.name

    def __reduce__(self):  # crosses to a worker process by name (its functions stay behind)
        return (dialect, (self.name, self.free_variables, self.symbols))

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

    def with_symbols(self, policy: str | None) -> "Dialect":
        """This dialect with its name space `policy` (`shared` or `separate`; None: as it is)."""
        if policy is None or policy == self.symbols:
            return self
        return dataclasses.replace(self, symbols=policy)

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


@functools.lru_cache(maxsize=None)
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


def _read_tptp(text: str, d: Dialect):
    return _bound("ambit.logic.syntax.full_parse:read_tptp")(text, d)


def _read_nltk(text: str, d: Dialect):
    return _bound("ambit.logic.syntax.full_parse:read_nltk")(text, d)


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
                symbols="separate",
                operators=(" AND", " OR", " ."), reader=_read_amp, renderer=_render_amp("fol")),
        Dialect("lisp", False, "AmP's Lisp: ( exists x ( AND ( man x ) ( saw a ) ) )", "lisp", "lisp", "error",
                one_arity=False, symbols="separate", terminal_names=(("QUANT", "a quantifier ('( exists ' or '( forall ')"),),
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
                reader=_read_nltk, renderer=_render_full("nltk")),
        Dialect("tptp", True, "TPTP FOF: ![X]: (p(X) => ~q(X)), or fof(name, role, formula).", "tptp", None,
                "universal",
                terminal_names=(("QUANT", "a quantifier ('!' or '?')"), ("NAME", "a name (a lower-case word)")),
                operators=("<=>", "<~>", "=>", "<=", "~|", "~&", "&", "|", "~", ":"),
                reader=_read_tptp, renderer=_render_full("tptp")),
        Dialect("prover9", True, "Prover9 (LADR): all x (dog(x) -> -cat(x))", "prover9", None, "universal",
                variable_spelling=r"[u-z][A-Za-z0-9_$]*",
                terminal_names=(("QUANT", "a quantifier ('all' or 'exists')"),
                                ("NAME", "a name (a predicate, constant or variable)")),
                operators=("<->", "->", "<-", "&", "|", "-"),
                reader=_read_full, renderer=_render_full("prover9")),
    )
}

NAMES: tuple[str, ...] = tuple(_REGISTRY)  # every dialect, AmP's first
AMP_NAMES: tuple[str, ...] = tuple(n for n, d in _REGISTRY.items() if not d.full)
FULL_NAMES: tuple[str, ...] = tuple(n for n, d in _REGISTRY.items() if d.full)


@lru_cache(maxsize=None)
def _variant(name: str, free_variables: str, symbols: str) -> Dialect:
    return _REGISTRY[name].with_free_variables(free_variables).with_symbols(symbols)


def dialect(d: "str | Dialect", free_variables: str | None = None, symbols: str | None = None) -> Dialect:
    """The dialect named `d` (or `d` itself), reading free variables as `free_variables` and
    its name space as `symbols` (None: the dialect's own default, or what `d` already says).
    ValueError for an unknown name or policy."""
    if isinstance(d, Dialect):
        return d.with_free_variables(free_variables).with_symbols(symbols)
    try:
        base = _REGISTRY[d]
    except (KeyError, TypeError):
        raise ValueError(f"unknown LF format {d!r}: expected one of {', '.join(NAMES)}") from None
    if (free_variables is None or free_variables == base.free_variables) and (
            symbols is None or symbols == base.symbols):
        return base
    if free_variables is not None and free_variables not in FREE_VARIABLES:
        raise ValueError(f"free_variables must be one of {', '.join(FREE_VARIABLES)}, not {free_variables!r}")
    if symbols is not None and symbols not in SYMBOLS:
        raise ValueError(f"symbols must be one of {', '.join(SYMBOLS)}, not {symbols!r}")
    return _variant(d, free_variables or base.free_variables, symbols or base.symbols)


def name_of(d: "str | Dialect") -> str:
    """The wire name of a dialect given by name or as a value."""
    return d.name if isinstance(d, Dialect) else dialect(d).name


def dialects() -> tuple[Dialect, ...]:
    """Every registered dialect, AmP's formats first."""
    return tuple(_REGISTRY.values())


# Reading a problem is reading.py's, which imports this registry; its names are still importable
# from here, looked up when first asked for (PEP 562), so that the import graph stays acyclic as
# `_bound` keeps it for the readers and renderers.
_READING = ("ArityError", "SymbolKindError", "ProblemError", "Reading", "check_arities", "read_pair", "read_pairs", "read_stories",
            "read_story", "record")


def __getattr__(name: str) -> Any:
    if name in _READING:
        return getattr(importlib.import_module("ambit.logic.syntax.reading"), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = ["AMP_NAMES", "Dialect", "FREE_VARIABLES", "SYMBOLS", "FULL_NAMES", "NAMES", "dialect", "dialects", "name_of",
           *_READING]

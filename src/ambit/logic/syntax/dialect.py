"""The dialects of logical forms as values: what each one is called, how it is read and written,
which grammar constrains decoding into it, and what it admits.

AmP's two formats (`fol`, `lisp`) admit AmP's fragment (∃, ∀, ∧, ∨ over atoms of one or two
arguments); the full dialects (`folio`, `nltk`, `tptp`, `prover9`) admit first-order logic with ¬ → ↔ ⊕,
equality and function terms. Their names are what the wire and the command line carry
(`--from folio`, `LF_FORMAT_FOLIO`); code asks the `Dialect` value instead of comparing names:
the wire's enum value (`wire`), whether the server decodes into it (`decodable`), its CLI name
(`cli_name`), its notation (`s_expression`), whether it reads whole problem files
(`problem_files`). This module is the one place a dialect's name is written (a test holds every
other module of the package to it: tests/logic/test_dialect_registry.py).

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

# The two dialects the package names as defaults: AmP's FOL (AmP's data and templates are written
# in it; the default of AmP's RPCs, LF_FORMAT_UNSPECIFIED, and of `equiv`) and FOLIO's (FOLIO's
# data; the default of entailment, CheckEntailment's LF_FORMAT_UNSPECIFIED, and of `entails`).
FOL = "fol"
FOLIO = "folio"
DEFAULT_DIALECT = {"equiv": FOL, "entails": FOLIO}  # the command's default dialect, by command


@dataclass(frozen=True)
class Dialect:
    """One dialect: its `name` (the wire's and the command line's), whether it admits `full`
    first-order logic (else AmP's fragment), its reading `grammar` and the `decode_grammar`
    constrained decoding uses (None: none), how it reads `free_variables` and how a free name is
    spelled to count as a variable, what its error messages call its tokens, its `title` in
    prose, its `wire` value (the name of its `ambit.v1.LFFormat` enum value), whether it is
    written as an `s_expression` (Lisp's `( p x )`), whether it reads whole `problem_files`
    (TPTP's `fof(...)` statements and includes), and `decoded`, the `module:function` that turns
    its decode grammar's output into its own spelling (None: the output is already in it)."""

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
    title: str = ""  # its name in prose ("FOL", "Lisp", "FOLIO")
    wire: str = ""  # its ambit.v1.LFFormat value's name (tests/logic/test_dialect_registry.py checks the .proto)
    s_expression: bool = False  # written as Lisp's parenthesised prefix terms: `( p x )`, `( AND A B )`
    problem_files: bool = False  # reads a whole problem file (`fof(name, role, formula).`, `include(...)`)
    decoded: str | None = None  # `module:function`: the decode grammar's output in this dialect's spelling
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

    @property
    def decodable(self) -> bool:
        """Whether the server decodes into it under a grammar (it has a decode grammar)."""
        return self.decode_grammar is not None

    @property
    def cli_name(self) -> str:
        """What `--from`/`--format` take: the wire name (one spelling, kept one)."""
        return self.name

    def from_decoded(self, text: str) -> str:
        """A text its decode grammar produced, in this dialect's own spelling (FOLIO's decoder
        writes ASCII: `all x (-A(x))` → `∀x (¬A(x))`); any other dialect's text as it is."""
        return text if self.decoded is None else _bound(self.decoded)(text)

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

    def show(self, f: "Formula") -> str:
        """How an answer shows a formula of this dialect: AmP's formats its canonical form, a full
        dialect (which has none) the formula as read, written back (RenderError when it cannot be)."""
        if self.amp:
            return _bound("ambit.logic.syntax.canonical:canonical_string")(f, self)
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


def _render_amp(ref: str) -> Callable[["Formula"], str]:
    def write(f: "Formula") -> str:
        return _bound(ref)(f)

    return write


def _render_full(name: str) -> Callable[["Formula"], str]:
    def write(f: "Formula") -> str:
        return _bound("ambit.logic.syntax.full_render:render_dialect")(f, name)

    return write


_REGISTRY: dict[str, Dialect] = {
    d.name: d
    for d in (
        Dialect(FOL, False, "AmP's FOL: exists x . man(x) AND saw(a)", "fol", "fol", "error", one_arity=False,
                symbols="separate", title="FOL", wire="LF_FORMAT_FOL",
                operators=(" AND", " OR", " ."), reader=_read_amp,
                renderer=_render_amp("ambit.logic.syntax.render:write_fol")),
        Dialect("lisp", False, "AmP's Lisp: ( exists x ( AND ( man x ) ( saw a ) ) )", "lisp", "lisp", "error",
                one_arity=False, symbols="separate", terminal_names=(("QUANT", "a quantifier ('( exists ' or '( forall ')"),),
                title="Lisp", wire="LF_FORMAT_LISP", s_expression=True,
                reader=_read_amp, renderer=_render_amp("ambit.logic.syntax.render:write_lisp")),
        Dialect(FOLIO, True, "FOLIO's Unicode FOL: ∀x (Dog(x) → ¬Cat(x))", "folio", "folio_decode", "universal",
                title="FOLIO", wire="LF_FORMAT_FOLIO", decoded="ambit.logic.decode.folio:as_folio",
                variable_spelling=r"[u-z]", dotted_names=True,
                terminal_names=(("QUANT", "a quantifier ('∀' or '∃')"),
                                ("NAME", "a name (a predicate, constant or variable)")),
                operators=("∧", "∨", "⊕", "→", "↔", "⟷", "¬"), reader=_read_folio,
                renderer=_render_full("folio")),
        Dialect("nltk", True, "nltk.sem.logic: all x.(dog(x) -> -cat(x))", "nltk", None, "universal",
                variable_spelling=r"[a-z][0-9]*", title="NLTK", wire="LF_FORMAT_NLTK",
                terminal_names=(("NAME", "a name (a predicate, constant or variable)"),),
                operators=("<->", "<=>", "->", "=>", "&", "^", "|", "-", "!"),
                reader=_read_nltk, renderer=_render_full("nltk")),
        Dialect("tptp", True, "TPTP FOF: ![X]: (p(X) => ~q(X)), or fof(name, role, formula).", "tptp", None,
                "universal", title="TPTP", wire="LF_FORMAT_TPTP", problem_files=True,
                terminal_names=(("QUANT", "a quantifier ('!' or '?')"), ("NAME", "a name (a lower-case word)")),
                operators=("<=>", "<~>", "=>", "<=", "~|", "~&", "&", "|", "~", ":"),
                reader=_read_tptp, renderer=_render_full("tptp")),
        Dialect("prover9", True, "Prover9 (LADR): all x (dog(x) -> -cat(x))", "prover9", None, "universal",
                variable_spelling=r"[u-z][A-Za-z0-9_$]*", title="Prover9", wire="LF_FORMAT_PROVER9",
                terminal_names=(("QUANT", "a quantifier ('all' or 'exists')"),
                                ("NAME", "a name (a predicate, constant or variable)"),
                                ("VARIABLE_NAME", "a variable (a name that starts with a letter)")),
                operators=("<->", "->", "<-", "&", "|", "-"),
                reader=_read_full, renderer=_render_full("prover9")),
    )
}

NAMES: tuple[str, ...] = tuple(_REGISTRY)  # every dialect, AmP's first
AMP_NAMES: tuple[str, ...] = tuple(n for n, d in _REGISTRY.items() if not d.full)
FULL_NAMES: tuple[str, ...] = tuple(n for n, d in _REGISTRY.items() if d.full)
DECODABLE_NAMES: tuple[str, ...] = tuple(n for n, d in _REGISTRY.items() if d.decodable)
CLI_NAMES: tuple[str, ...] = tuple(d.cli_name for d in _REGISTRY.values())  # `--from`'s choices


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
        from ambit.logic.errors import UnknownDialect

        raise UnknownDialect(d, NAMES) from None
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


__all__ = ["AMP_NAMES", "CLI_NAMES", "DECODABLE_NAMES", "DEFAULT_DIALECT", "Dialect", "FOL", "FOLIO", "FREE_VARIABLES",
           "SYMBOLS", "FULL_NAMES", "NAMES", "dialect", "dialects", "name_of"]

"""The dialects of logical forms as values: name, reader, renderer, grammars, what each admits, how
it reads a free name, whether predicates and functions share a name space. Code asks the `Dialect`:
this is the one place names are written (tests/logic/test_dialect_registry.py)."""

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
# `shared`: one name space (a name is a predicate or a function/constant, never both); `separate`
SYMBOLS = ("shared", "separate")

# The defaults: AmP's FOL for AmP's RPCs and `equiv`, FOLIO's for entailment and `entails`.
FOL = "fol"
FOLIO = "folio"
DEFAULT_DIALECT = {"equiv": FOL, "entails": FOLIO}  # the command's default dialect, by command


@dataclass(frozen=True)
class Dialect:
    """One dialect: its wire and CLI `name`, what it admits, its grammars and policies, its error
    wording, and `decoded` (the `module:function` respelling its decoder's output)."""

    name: str
    full: bool
    description: str
    grammar: str
    decode_grammar: str | None
    free_variables: str
    # how a free name must be spelled to be a variable; None where the grammar tells (AmP, TPTP)
    variable_spelling: str | None = None
    dotted_names: bool = False  # names may contain '.' (so `∀x. P(x)` would bind `x.`)
    # one arity per symbol in a problem; not in AmP's, whose procedure reads p/1 and p/2 as two
    one_arity: bool = True
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
        """Whether the server decodes into it under a grammar."""
        return self.decode_grammar is not None

    @property
    def cli_name(self) -> str:
        """What `--from`/`--format` take: the wire name."""
        return self.name

    def from_decoded(self, text: str) -> str:
        """Its decoder's text in its own spelling (`all x (-A(x))` → `∀x (¬A(x))`)."""
        return text if self.decoded is None else _bound(self.decoded)(text)

    def with_free_variables(self, policy: str | None) -> "Dialect":
        """This dialect reading free variables as `policy` (None: as it does)."""
        same = policy in (None, self.free_variables)
        return self if same else dataclasses.replace(self, free_variables=policy)

    def with_symbols(self, policy: str | None) -> "Dialect":
        """This dialect with its name space `policy` (`shared` or `separate`; None: as it is)."""
        return self if policy in (None, self.symbols) else dataclasses.replace(self, symbols=policy)

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
        """A formula as an answer shows it: AmP's canonical form, or written back."""
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
    """The function `module:name`, imported on first call (the readers import this registry)."""
    module, _, name = ref.partition(":")
    return getattr(importlib.import_module(module), name)


def _lazy(ref: str) -> Callable:
    """The function `ref` (`module:name` under ambit.logic.syntax), imported on its first call."""
    ref = "ambit.logic.syntax." + ref

    def call(*args):
        return _bound(ref)(*args)

    return call


def _render_full(name: str) -> Callable[["Formula"], str]:
    def write(f: "Formula") -> str:
        return _bound("ambit.logic.syntax.full_render:render_dialect")(f, name)

    return write


_REGISTRY: dict[str, Dialect] = {
    d.name: d
    for d in (
        Dialect(FOL, False, "AmP's FOL: exists x . man(x) AND saw(a)", "fol", "fol", "error", one_arity=False,
                symbols="separate", title="FOL", wire="LF_FORMAT_FOL",
                operators=(" AND", " OR", " ."), reader=_lazy("parse:read_amp"),
                renderer=_lazy("render:write_fol")),
        Dialect("lisp", False, "AmP's Lisp: ( exists x ( AND ( man x ) ( saw a ) ) )", "lisp", "lisp", "error",
                one_arity=False, symbols="separate", terminal_names=(("QUANT", "a quantifier ('( exists ' or '( forall ')"),),
                title="Lisp", wire="LF_FORMAT_LISP", s_expression=True,
                reader=_lazy("parse:read_amp"), renderer=_lazy("render:write_lisp")),
        Dialect(FOLIO, True, "FOLIO's Unicode FOL: ∀x (Dog(x) → ¬Cat(x))", "folio", "folio_decode", "universal",
                title="FOLIO", wire="LF_FORMAT_FOLIO", decoded="ambit.logic.decode.folio:as_folio",
                variable_spelling=r"[u-z]", dotted_names=True,
                terminal_names=(("QUANT", "a quantifier ('∀' or '∃')"),
                                ("NAME", "a name (a predicate, constant or variable)")),
                operators=("∧", "∨", "⊕", "→", "↔", "⟷", "¬"),
                reader=_lazy("full_parse:read_folio"), renderer=_render_full("folio")),
        Dialect("nltk", True, "nltk.sem.logic: all x.(dog(x) -> -cat(x))", "nltk", None, "universal",
                variable_spelling=r"[a-z][0-9]*", title="NLTK", wire="LF_FORMAT_NLTK",
                terminal_names=(("NAME", "a name (a predicate, constant or variable)"),),
                operators=("<->", "<=>", "->", "=>", "&", "^", "|", "-", "!"),
                reader=_lazy("full_parse:read_nltk"), renderer=_render_full("nltk")),
        Dialect("tptp", True, "TPTP FOF: ![X]: (p(X) => ~q(X)), or fof(name, role, formula).", "tptp", None,
                "universal", title="TPTP", wire="LF_FORMAT_TPTP", problem_files=True,
                terminal_names=(("QUANT", "a quantifier ('!' or '?')"), ("NAME", "a name (a lower-case word)")),
                operators=("<=>", "<~>", "=>", "<=", "~|", "~&", "&", "|", "~", ":"),
                reader=_lazy("full_parse:read_tptp"), renderer=_render_full("tptp")),
        Dialect("prover9", True, "Prover9 (LADR): all x (dog(x) -> -cat(x))", "prover9", None, "universal",
                variable_spelling=r"[u-z][A-Za-z0-9_$]*", title="Prover9", wire="LF_FORMAT_PROVER9",
                terminal_names=(("QUANT", "a quantifier ('all' or 'exists')"),
                                ("NAME", "a name (a predicate, constant or variable)"),
                                ("VARIABLE_NAME", "a variable (a name that starts with a letter)")),
                operators=("<->", "->", "<-", "&", "|", "-"),
                reader=_lazy("full_parse:read_dialect"), renderer=_render_full("prover9")),
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
    """The dialect named `d` (or `d`) with these policies (None: its own); ValueError if unknown."""
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
    return _variant(d, free_variables or base.free_variables, symbols or base.symbols)


def name_of(d: "str | Dialect") -> str:
    """The wire name of a dialect given by name or as a value."""
    return d.name if isinstance(d, Dialect) else dialect(d).name


def dialects() -> tuple[Dialect, ...]:
    """Every registered dialect, AmP's formats first."""
    return tuple(_REGISTRY.values())


__all__ = ["AMP_NAMES", "CLI_NAMES", "DECODABLE_NAMES", "DEFAULT_DIALECT", "Dialect", "FOL", "FOLIO", "FREE_VARIABLES",
           "SYMBOLS", "FULL_NAMES", "NAMES", "dialect", "dialects", "name_of"]

"""ambit's logic layer: logical forms (FOL and Lisp) parsed into one AST, rendered,
converted and canonicalised; equivalence and RADD reasoning in SWI-Prolog.

Importable without torch or grpc.
"""

from .ast import QUANTIFIERS, And, Atom, Const, Formula, Or, Quant, Term, Var, constants, free_vars, predicates
from .canonical import canonical_string, canonicalize, simplify
from .errors import LFParseError
from .parse import FORMATS, detect_format, grammar_text, parse, parse_with_lark
from .render import render, to_fol, to_lisp, to_prolog
from .vocab import closed_grammar


def convert(text: str, src: str = "fol", dst: str = "lisp") -> str:
    """Re-write an LF from one format into another through the AST."""
    return render(parse(text, src), dst)


def canonical(text: str | Formula, fmt: str = "fol", to: str | None = None, vars: str = "amp") -> str:
    """Canonical string of an LF given as text (in `fmt`) or as an AST, rendered in `to`."""
    f = parse(text, fmt) if isinstance(text, str) else text
    return canonical_string(f, to or fmt, vars)


__all__ = [
    "QUANTIFIERS", "And", "Atom", "Const", "Formula", "Or", "Quant", "Term", "Var",
    "constants", "free_vars", "predicates", "canonical_string", "canonicalize", "simplify",
    "LFParseError", "FORMATS", "detect_format", "grammar_text", "parse", "parse_with_lark",
    "render", "to_fol", "to_lisp", "to_prolog", "closed_grammar", "convert", "canonical",
]

from .equivalence import Verdict, entails, equivalent, equivalent_batch  # noqa: E402

__all__ += ["Verdict", "entails", "equivalent", "equivalent_batch"]

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


def canonical_form(text: str | Formula, fmt: str = "fol", to: str | None = None, vars: str = "amp") -> str:
    """Canonical string of an LF given as text (in `fmt`) or as an AST, rendered in `to`."""
    f = parse(text, fmt) if isinstance(text, str) else text
    return canonical_string(f, to or fmt, vars)


__all__ = [
    "QUANTIFIERS", "And", "Atom", "Const", "Formula", "Or", "Quant", "Term", "Var",
    "constants", "free_vars", "predicates", "canonical_string", "canonicalize", "simplify",
    "LFParseError", "FORMATS", "detect_format", "grammar_text", "parse", "parse_with_lark",
    "render", "to_fol", "to_lisp", "to_prolog", "closed_grammar", "convert", "canonical_form",
]

from . import equivalence as _amp  # noqa: E402
from . import fol as _fol  # noqa: E402
from .equivalence import Verdict  # noqa: E402
from .fol import Decision, decide, decide_batch  # noqa: E402
from .parse import DIALECTS  # noqa: E402


def equivalent_batch(pairs, fmt: str = "fol", **options):
    """Verdicts for many pairs. AmP's formats (`fol`, `lisp`) use the AmP procedure
    (equivalence.py: canonical shortcut, SLD, bounded search); the full first-order dialects
    (`folio`, `nltk`, `tptp`) the connection prover and model search of fol.py."""
    if fmt in FORMATS:
        return _amp.equivalent_batch(pairs, fmt, **options)
    return _fol.equivalent_batch(pairs, fmt, **options)


def equivalent(a, b, fmt: str = "fol", **options) -> Verdict:
    """EQUIVALENT / NOT_EQUIVALENT / UNKNOWN for two formulas (strings in `fmt`, or ASTs)."""
    return equivalent_batch([(a, b)], fmt, **options)[0]


def entails(premises, conclusion, fmt: str = "fol", **options) -> bool | None:
    """Whether `premises` (one formula, or a list in a full first-order dialect) entail
    `conclusion`: True, False, or None when undecided within the budget."""
    if fmt in FORMATS:
        return _amp.entails(premises, conclusion, fmt, **options)
    ps = [premises] if isinstance(premises, (str, *_fol.Formula.__args__)) else list(premises)
    return _fol.entails(ps, conclusion, fmt, **options)


__all__ += ["Verdict", "Decision", "DIALECTS", "decide", "decide_batch", "entails", "equivalent", "equivalent_batch"]

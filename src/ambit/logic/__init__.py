"""ambit's logic layer: logical forms parsed into one AST, rendered, converted and
canonicalised; equivalence, entailment and RADD reasoning in SWI-Prolog.

The public API is `__all__`: `parse` and `render`/`convert` (the formats: AmP's `fol` and `lisp`;
the full first-order dialects `folio`, `nltk` and `tptp`), `canonical_form`, `equivalent` /
`equivalent_batch` (a `Verdict`), `entails`, and `decide` / `decide_batch` (a `Decision` for
premises and a conclusion). Everything else is private and may change without notice.

Importable without torch or grpc. The canonical form, the grammar builder and AmP's
equivalence procedure load on first use (`__getattr__`), so that a short-lived process that
only reads formulas or checks full first-order logic does not pay for them.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

from .ast import QUANTIFIERS, And, Atom, Const, Formula, Or, Quant, Term, Var, constants, free_vars, predicates
from .errors import LFParseError
from .parse import FORMATS, detect_format, grammar_text, parse, parse_with_lark
from .render import render, to_fol, to_lisp, to_prolog

if TYPE_CHECKING:
    from .verdict import Verdict

_LAZY = {"canonical_string": "canonical", "canonicalize": "canonical", "simplify": "canonical",
         "closed_grammar": "vocab", "Verdict": "verdict", "REASONS": "verdict"}


def __getattr__(name: str):
    """The names of `_LAZY` from their modules, and submodules (`logic.canonical`), on first use."""
    if name in _LAZY:
        value = getattr(importlib.import_module(f"{__name__}.{_LAZY[name]}"), name)
        globals()[name] = value
        return value
    if not name.startswith("_"):
        try:
            return importlib.import_module(f"{__name__}.{name}")
        except ModuleNotFoundError as e:
            if e.name != f"{__name__}.{name}":
                raise
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def convert(text: str, src: str = "fol", dst: str = "lisp") -> str:
    """Re-write an LF from one format into another through the AST."""
    return render(parse(text, src), dst)


def canonical_form(text: str | Formula, fmt: str = "fol", to: str | None = None, vars: str = "amp") -> str:
    """Canonical string of an LF given as text (in `fmt`) or as an AST, rendered in `to`."""
    from .canonical import canonical_string

    f = parse(text, fmt) if isinstance(text, str) else text
    return canonical_string(f, to or fmt, vars)


from . import fol as _fol  # noqa: E402
from .fol import Decision, decide, decide_batch  # noqa: E402
from .parse import DIALECTS  # noqa: E402


def equivalent_batch(pairs, fmt: str = "fol", **options):
    """Verdicts for many pairs. AmP's formats (`fol`, `lisp`) use the AmP procedure
    (equivalence.py: canonical shortcut, SLD, bounded search); the full first-order dialects
    (`folio`, `nltk`, `tptp`) the connection prover and model search of fol.py."""
    if fmt in FORMATS:
        from . import equivalence

        return equivalence.equivalent_batch(pairs, fmt, **options)
    return _fol.equivalent_batch(pairs, fmt, **options)


def equivalent(a, b, fmt: str = "fol", **options) -> Verdict:
    """EQUIVALENT / NOT_EQUIVALENT / UNKNOWN for two formulas (strings in `fmt`, or ASTs)."""
    return equivalent_batch([(a, b)], fmt, **options)[0]


def entails(premises, conclusion, fmt: str = "fol", **options) -> bool | None:
    """Whether `premises` (one formula, or a list in a full first-order dialect) entail
    `conclusion`: True, False, or None when undecided within the budget."""
    if fmt in FORMATS:
        from . import equivalence

        return equivalence.entails(premises, conclusion, fmt, **options)
    ps = [premises] if isinstance(premises, (str, *_fol.Formula.__args__)) else list(premises)
    return _fol.entails(ps, conclusion, fmt, **options)


__all__ = [
    "parse", "render", "convert", "canonical_form", "equivalent", "equivalent_batch", "entails", "decide",
    "decide_batch", "Verdict", "Decision", "LFParseError", "FORMATS", "DIALECTS",
    # the AST, for formulas built in code
    "Formula", "Term", "And", "Or", "Quant", "Atom", "Var", "Const",
]
# importable here for ambit's own modules, and private
_INTERNAL = (QUANTIFIERS, constants, free_vars, predicates, detect_format, grammar_text, parse_with_lark, to_fol,
             to_lisp, to_prolog)

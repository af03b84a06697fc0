"""ambit's logic layer: logical forms parsed into one AST, rendered, converted and canonicalised;
equivalence, entailment and RADD reasoning in SWI-Prolog. The public API is `__all__`. Importable
without torch or grpc; heavy parts load on first use (`__getattr__`), so quick runs skip them."""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

from ambit.logic.syntax.dialect import FOL, FOLIO
from ambit.logic.syntax.ast import QUANTIFIERS, And, Atom, Const, Formula, Or, Quant, Term, Var, constants, free_vars, predicates
from ambit.logic.errors import MAX_CHARS, LFParseError, check_length
from ambit.logic.syntax.readers.amp_lark import parse_with_lark
from ambit.logic.syntax.parse import FORMATS, detect_format, grammar_text, parse
from ambit.logic.syntax.render import render, to_fol, to_lisp, to_prolog

if TYPE_CHECKING:
    from ambit.logic.engine.verdict import Verdict

_LAZY = {"canonical_string": "syntax.canonical", "canonicalize": "syntax.canonical", "simplify": "syntax.canonical",
         "closed_grammar": "decode.vocab", "Verdict": "engine.verdict", "REASONS": "engine.verdict"}


def __getattr__(name: str):
    """The names of `_LAZY` from their modules, and submodules (`logic.syntax.canonical`), on first use."""
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


def convert(text: str, src: str = FOL, dst: str = "lisp") -> str:
    """Re-write an LF from one format into another through the AST."""
    return render(parse(text, src), dst)


def canonical_form(text: str | Formula, fmt: "str | Dialect" = FOL, to: "str | Dialect | None" = None, vars: str = "amp", *,
                   max_chars: int = MAX_CHARS) -> str:
    """Canonical string of a formula (text in `fmt` or an AST) in `to`, as `ambit logic canon`
    writes it: canonical between AmP's formats, converted as it is into or out of a full dialect."""
    from ambit.logic.syntax.canonical import canonical_string
    from ambit.logic.syntax.dialect import dialect

    src = dialect(fmt)
    dst = src if to is None or to == fmt else dialect(to)
    if isinstance(text, str):
        check_length(text, max_chars)
        text = parse(text, src)
    return canonical_string(text, dst, vars) if src.amp and dst.amp else dst.render(text)


def _bounded(items, max_chars: int) -> list:
    """`items` as a list, every string in them checked against `max_chars` before any is parsed."""
    items = list(items)

    def walk(x) -> None:
        if isinstance(x, str):
            check_length(x, max_chars)
        elif isinstance(x, (list, tuple)):
            for y in x:
                walk(y)

    for x in items:  # a pair of texts, the common case, walked only when check_length would refuse it
        if type(x) is tuple and len(x) == 2 and type(x[0]) is str and type(x[1]) is str:
            if max_chars <= 0 or len(x[0]) > max_chars or len(x[1]) > max_chars:
                walk(x)
        else:
            walk(x)
    return items


from ambit.logic.engine.prove import Decision  # noqa: E402
from ambit.logic.syntax.ast import Formula as _Formula  # noqa: E402
from ambit.logic.syntax.dialect import Dialect, dialect  # noqa: E402
from ambit.logic.syntax.parse import DIALECTS  # noqa: E402

# Every entry point resolves its dialect once into a `Dialect` and hands it down to
# logic.provers.portfolio (`prover="prolog"`: ambit's engine alone; "portfolio": with E and Z3).


def _on_processes(prover: str, options: dict) -> bool:
    """Whether a Prolog batch runs on `workers` > 1 processes, each reading its own chunk (the
    parent reading every formula would be a serial step as long as the solving)."""
    return prover == "prolog" and options.get("workers", 1) > 1


def decide_batch(stories, fmt: str | Dialect = FOLIO, *, prover: str = "prolog", free_variables: str | None = None,
                 max_chars: int = MAX_CHARS, symbols: str | None = None, **options) -> list[Decision]:
    """Decisions (TRUE / FALSE / UNCERTAIN / INCONSISTENT / UNKNOWN, with evidence) for many
    (premises, conclusion) stories, in order; each decision's `reading` records how it was read."""
    from ambit.logic.provers import portfolio
    from ambit.logic.syntax.reading import read_stories, record

    stories = _bounded(stories, max_chars)
    d = dialect(fmt, free_variables, symbols)
    if _on_processes(prover, options):
        from ambit.logic.runtime import pool

        return pool.map_chunks(decide_batch, stories, options.pop("workers"), fmt=d, prover=prover, **options)
    parsed, readings = read_stories(stories, d)
    out = portfolio.decide_batch(parsed, d, prover=prover, **options)
    return [record(x, r) for x, r in zip(out, readings)]


def decide(premises, conclusion, fmt: str | Dialect = FOLIO, *, prover: str = "prolog", max_chars: int = MAX_CHARS,
           **options) -> Decision:
    """The decision for one story; see `decide_batch`."""
    return decide_batch([(premises, conclusion)], fmt, prover=prover, max_chars=max_chars, **options)[0]


def equivalent_batch(pairs, fmt: str | Dialect = FOL, *, prover: str = "prolog", free_variables: str | None = None,
                     max_chars: int = MAX_CHARS, symbols: str | None = None, **options):
    """Verdicts for many pairs, in any dialect: AmP's formats by AmP's procedure first
    (logic/engine/equivalence.py); each verdict's `witness["reading"]` records the reading."""
    from ambit.logic.provers import portfolio
    from ambit.logic.syntax.reading import read_pairs, record

    pairs = _bounded(pairs, max_chars)
    d = dialect(fmt, free_variables, symbols)
    if _on_processes(prover, options):
        from ambit.logic.runtime import pool

        return pool.map_chunks(equivalent_batch, pairs, options.pop("workers"), fmt=d, prover=prover, **options)
    if prover == "prolog" and d.amp and not options.get("provers"):
        # AmP's procedure reads chunk by chunk, the next chunk while Prolog solves the one before
        readings: list = []

        def read(chunk: list) -> list:
            parsed, rs = read_pairs(chunk, d)
            readings.extend(rs)
            return parsed

        out = portfolio.equivalent_batch(pairs, d, prover=prover, read=read, closed=True, **options)
    else:
        parsed, readings = read_pairs(pairs, d)
        out = portfolio.equivalent_batch(parsed, d, prover=prover, **options)
    return [record(v, r) for v, r in zip(out, readings)]


def equivalent(a, b, fmt: str | Dialect = FOL, *, max_chars: int = MAX_CHARS, **options) -> Verdict:
    """EQUIVALENT / NOT_EQUIVALENT / UNKNOWN for two formulas (strings in `fmt` or ASTs)."""
    return equivalent_batch([(a, b)], fmt, max_chars=max_chars, **options)[0]


def entails(premises, conclusion, fmt: str | Dialect = FOL, *, prover: str = "prolog", max_chars: int = MAX_CHARS,
            free_variables: str | None = None, symbols: str | None = None, **options) -> bool | None:
    """Whether `premises` entail `conclusion`: True, False, or None when undecided in budget."""
    _bounded([premises, conclusion], max_chars)
    d = dialect(fmt, free_variables, symbols)
    if d.amp and prover == "prolog":
        from ambit.logic.engine import equivalence
        from ambit.logic.syntax.reading import read_pairs

        ((a, b),), _ = read_pairs([(premises, conclusion)], d)
        return equivalence.entails(a, b, d, **options)
    ps = [premises] if isinstance(premises, (str, *_Formula.__args__)) else list(premises)
    return decide(ps, conclusion, d, prover=prover, max_chars=max_chars, **options).entailed


__all__ = [
    "parse", "render", "convert", "canonical_form", "equivalent", "equivalent_batch", "entails", "decide",
    "decide_batch", "Verdict", "Decision", "LFParseError", "FORMATS", "DIALECTS",
    # the AST, for formulas built in code
    "Formula", "Term", "And", "Or", "Quant", "Atom", "Var", "Const",
]
# importable here for ambit's own modules, and private
_INTERNAL = (QUANTIFIERS, constants, free_vars, predicates, detect_format, grammar_text, parse_with_lark, to_fol,
             to_lisp, to_prolog)

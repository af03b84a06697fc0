"""ambit in place of NLTK's Mace: `ModelBuilder` (a subclass of `nltk.Mace`) and
`ModelBuilderCommand`. The model is ambit's, checked before it is returned, and written as Mace4
writes its models so NLTK's own code reads it (`valuation`); `model(format)` renders the
`interpformat` formats NLTK names (not xml or tex) in Python, with no Mace4 binary."""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass, field
from typing import Any, Sequence

from nltk.inference.mace import Mace, MaceCommand

from ambit.logic.engine.budget import DEFAULT_MAX_DOMAIN
from ambit.logic.engine.model_check import holds
from ambit.logic.engine.verdict import Decision
from ambit.logic.syntax.ast import Atom, Const, Formula, Func, subformulas, subterms, terms
from ambit.nltk.provers import Answer, Problem, Prover, read_problem

INTERPFORMAT = "interpformat (ambit)"  # what `_find_binary("interpformat")` names: the formats are rendered here
FORMATS = ("standard", "standard2", "portable", "tabular", "raw", "cooked")


@dataclass
class Interpretation:
    """A finite model as Mace4 writes it: elements 0..size-1, `functions` (constants: arity 0) and
    `relations` as (name, arity, the values of every argument tuple, the first most significant)."""

    size: int
    functions: list[tuple[str, int, list[int]]] = field(default_factory=list)
    relations: list[tuple[str, int, list[int]]] = field(default_factory=list)


def signature(formulas: Sequence[Formula]) -> tuple[dict[str, int], dict[str, int]]:
    """(functions, relations) of `formulas`: name -> arity (constants: 0), in order of first use."""
    funcs: dict[str, int] = {}
    rels: dict[str, int] = {}
    for f in formulas:
        for g in subformulas(f):
            if type(g) is Atom:
                rels.setdefault(g.pred, len(g.args))
            for a in terms(g):
                for u in subterms(a):
                    if type(u) is Func:
                        funcs.setdefault(u.name, len(u.args))
                    elif type(u) is Const:
                        funcs.setdefault(u.name, 0)
    return funcs, rels


def _atom(text: str) -> tuple[str, list[str]]:
    """`p(d1, d2)` -> ("p", ["d1", "d2"]); `p` -> ("p", [])."""
    name, paren, rest = text.partition("(")
    return name, (rest[:-1].split(", ") if paren else [])


def interpretation(model: dict, formulas: Sequence[Formula]) -> Interpretation:
    """ambit's model as Mace4's interpretation of the symbols of `formulas`, numbered as Mace4 does:
    the constants' elements first, in the order of the constants' names, then the rest."""
    funcs, rels = signature(formulas)
    constants = model.get("constants", {})
    order: dict[str, int] = {}
    for name in sorted(constants):
        order.setdefault(constants[name], len(order))
    for e in model["domain"]:
        order.setdefault(e, len(order))
    size = len(order)
    tables: dict[str, dict[tuple[int, ...], int]] = {}
    for entry, value in model.get("functions", {}).items():
        name, args = _atom(entry)
        tables.setdefault(name, {})[tuple(order[a] for a in args)] = order[value]
    atoms = map(_atom, model.get("true_atoms", []))
    true = {(name, tuple(order[a] for a in args)) for name, args in atoms}
    out = Interpretation(size)
    for name, arity in sorted(funcs.items(), key=lambda kv: (kv[1], kv[0])):
        if arity == 0:
            out.functions.append((name, 0, [order.get(constants.get(name), 0)]))
        else:
            table = tables.get(name, {})
            out.functions.append((name, arity, [table.get(t, 0) for t in _tuples(size, arity)]))
    for name, arity in sorted(rels.items(), key=lambda kv: (kv[1], kv[0])):
        out.relations.append((name, arity, [int((name, t) in true) for t in _tuples(size, arity)]))
    return out


def two_elements(model: dict, formulas: Sequence[Formula]) -> dict:
    """A one-element model as two, its element copied, when every formula still holds: Mace4 starts
    at two elements, and NLTK misreads a one-element model's unary relations as holding of `()`."""
    (e,) = model["domain"]
    two = e + "'"
    atoms = {(name, *t) for name, args in map(_atom, model.get("true_atoms", []))
             for t in itertools.product(*[(a, two) if a == e else (a,) for a in args])}
    functions: dict[str, dict] = {}
    for entry, value in model.get("functions", {}).items():
        name, args = _atom(entry)
        for t in itertools.product(*[(a, two) if a == e else (a,) for a in args]):
            functions.setdefault(name, {})[t] = value
    checked = {"domain": [e, two], "constants": model.get("constants", {}), "functions": functions, "atoms": atoms}
    if not all(holds(f, checked) for f in formulas):
        return model
    return {"domain": [e, two], "constants": checked["constants"],
            "true_atoms": sorted(f"{a[0]}({', '.join(a[1:])})" if len(a) > 1 else a[0] for a in atoms),
            **({"functions": {f"{n}({', '.join(t)})": v for n, table in functions.items() for t, v in table.items()}}
               if functions else {})}


# --------------------------------------------------------------------------- Mace4's formats


def _symbol(name: str, arity: int) -> str:
    return f"{name}({','.join('_' * arity)})" if arity else name


def standard(m: Interpretation | None) -> str:
    """Mace4's `standard` format (what NLTK's MaceCommand reads into a Valuation); "" for no model."""
    if m is None:
        return ""
    items = [f"    function({_symbol(n, a)}, [ {','.join(map(str, t))} ])" for n, a, t in m.functions]
    items += [f"    relation({_symbol(n, a)}, [ {','.join(map(str, t))} ])" for n, a, t in m.relations]
    return f"interpretation( {m.size}, [number = 1,seconds = 0], [\n" + ",\n".join(items) + "\n]).\n"


_ENTRY = re.compile(r"^\s*(function|relation)\(([^(,\s]+)(?:\(([_,]*)\))?, \[ ([0-9,]*) \]\)")


def parse_standard(text: str) -> Interpretation | None:
    """`standard`'s text read back (None: it holds no interpretation)."""
    m = re.search(r"interpretation\( (\d+),", text)
    if m is None:
        return None
    out = Interpretation(int(m.group(1)))
    for line in text[m.end():].splitlines():
        e = _ENTRY.match(line)
        if e is None:
            continue
        kind, name, args, table = e.groups()
        arity = args.count("_") if args is not None else 0
        values = [int(v) for v in table.split(",") if v]
        (out.functions if kind == "function" else out.relations).append((name, arity, values))
    return out


def _header(m: Interpretation) -> list[str]:
    return ["% number = 1", "% seconds = 0", "", f"% Interpretation of size {m.size}", ""]


def _tuples(size: int, arity: int) -> list[tuple[int, ...]]:
    return list(itertools.product(range(size), repeat=arity))


def cooked(m: Interpretation | None) -> str:
    """Mace4's `cooked` format: `c = 0.`, `f(0) = 1.`, and `  p(0,1).` / `- p(1,1).` for relations."""
    if m is None:
        return ""
    lines = _header(m)
    for name, arity, table in m.functions:
        for t, v in zip(_tuples(m.size, arity), table):
            lines.append(f"{name}({','.join(map(str, t))}) = {v}." if arity else f"{name} = {v}.")
        lines.append("")
    for name, arity, table in m.relations:
        for t, v in zip(_tuples(m.size, arity), table):
            atom = f"{name}({','.join(map(str, t))})" if arity else name
            lines.append(f"{'  ' if v else '- '}{atom}.")
        lines.append("")
    return "\n".join(lines)


def tabular(m: Interpretation | None) -> str:
    """Mace4's `tabular` format: a value, a row, a table, cooked beyond."""
    if m is None:
        return ""
    lines = _header(m)
    cells = " ".join(str(e) for e in range(m.size))
    width = len(str(m.size - 1))
    for name, arity, table in [*m.functions, *m.relations]:
        if arity == 0:
            lines += [f" {name} : {table[0]}", ""]
        elif arity == 1:
            lines += [f" {name} :", f"       {cells}", "    " + "-" * (len(cells) + 3),
                      "       " + " ".join(str(v).rjust(width) for v in table), ""]
        elif arity == 2:
            lines += [f" {name} :", f"       | {cells}", "    ---+" + "-" * (len(cells) + 1)]
            for i in range(m.size):
                row = table[i * m.size:(i + 1) * m.size]
                lines.append(f"     {str(i).rjust(width)} | " + " ".join(str(v).rjust(width) for v in row))
            lines.append("")
        else:
            one = [(name, arity, table)]
            split = (one, []) if one[0] in m.functions else ([], one)
            lines += cooked(Interpretation(m.size, *split)).splitlines()[len(_header(m)):]
    return "\n".join(lines)


def raw(m: Interpretation | None) -> str:
    """Mace4's `raw` format: each symbol's table as one line of values."""
    if m is None:
        return ""
    lines = _header(m)
    for name, arity, table in [*m.functions, *m.relations]:
        lines += [f"{_symbol(name, arity)} : {' '.join(map(str, table))}"]
    return "\n".join(lines) + "\n"


def portable(m: Interpretation | None) -> str:
    """Mace4's `portable` format: the interpretation as nested lists."""
    if m is None:
        return ""
    items = [f'["function", "{n}", {a}, [{", ".join(map(str, t))}]]' for n, a, t in m.functions]
    items += [f'["relation", "{n}", {a}, [{", ".join(map(str, t))}]]' for n, a, t in m.relations]
    return f'[[{m.size}, ["number = 1", "seconds = 0"], [\n  ' + ",\n  ".join(items) + "]]]\n"


def render(m: Interpretation | None, fmt: str) -> str:
    """The interpretation in one of `FORMATS` (LookupError for another, as interpformat would fail)."""
    writers = {"standard": standard, "standard2": standard, "portable": portable, "tabular": tabular, "raw": raw,
               "cooked": cooked}
    if fmt not in writers:
        raise LookupError(f"ambit writes models in {', '.join(FORMATS)}, not {fmt!r}")
    return writers[fmt](m)


# --------------------------------------------------------------------------- the model builder


class ModelText(Answer):
    """A search's text in Mace4's standard format, with its `decision` and `formulas`."""


class ModelBuilder(Mace):
    """ambit's model search as `nltk.Mace(end_size)`: models of up to `max_domain` elements."""

    def __init__(self, end_size: int = 500, timeout: float = 60, *, max_domain: int | None = None,
                 prover: str = "prolog", inferences: int | None = None, free_variables: str | None = None,
                 symbols: str | None = None) -> None:
        self._end_size = end_size
        if max_domain is None:
            max_domain = min(DEFAULT_MAX_DOMAIN, end_size) if isinstance(end_size, int) and end_size > 0 \
                else DEFAULT_MAX_DOMAIN
        self.max_domain = max_domain
        self._prover = Prover(timeout, prover=prover, inferences=inferences, max_domain=max_domain, unknown=False,
                              free_variables=free_variables, symbols=symbols)

    def search(self, goal: Any = None, assumptions: Sequence[Any] | None = None) -> ModelText:
        """The (counter)model in Mace4's standard format ("" when none), with `.decision`."""
        problem: Problem = read_problem(goal, assumptions, self._prover.free_variables)
        d: Decision = self._prover.decide_problem(problem).decision
        model = d.countermodel if d.entailed is False else None
        if model is not None and len(model["domain"]) == 1:
            model = two_elements(model, problem.formulas)
        if model is not None and isinstance(self._end_size, int) and 0 < self._end_size < len(model["domain"]):
            model = None  # larger than Mace would search (a grounded problem's model can be)
        text = standard(interpretation(model, problem.formulas)) if model is not None else ""
        return ModelText(text, d, problem.formulas)

    def _build_model(self, goal: Any = None, assumptions: Sequence[Any] | None = None, verbose: bool = False):
        text = self.search(goal, assumptions)
        if verbose:
            print(text or "% ambit: no model found\n")
        return bool(text), text

    def _find_binary(self, name: str, verbose: bool = False) -> str:
        """Mace4's `interpformat`, asked for by NLTK's MaceCommand: rendered here (`render`)."""
        if name == "interpformat":
            return INTERPFORMAT
        raise LookupError(f"ambit.nltk.ModelBuilder runs no {name} binary")

    def _call(self, input_str: str, binary: str, args: Sequence[str] = (), verbose: bool = False):
        if binary != INTERPFORMAT:
            raise LookupError(f"ambit.nltk.ModelBuilder runs no {binary} binary")
        return render(parse_standard(input_str), args[0] if args else "standard"), 0

    def _call_mace4(self, input_str: str, args: Sequence[str] = (), verbose: bool = False):
        raise NotImplementedError("ambit.nltk.ModelBuilder does not run Mace4: use build_model() or search()")


class ModelBuilderCommand(MaceCommand):
    """NLTK's MaceCommand with ambit's ModelBuilder; `decision()` is the last `build_model()`'s."""

    def __init__(self, goal: Any = None, assumptions: Sequence[Any] | None = None, max_models: int = 500,
                 model_builder: ModelBuilder | None = None, timeout: float = 60) -> None:
        super().__init__(goal, assumptions, max_models,
                         model_builder if model_builder is not None else ModelBuilder(max_models, timeout))

    def decision(self) -> Decision:
        """ambit's Decision behind the last `build_model()` (LookupError before one)."""
        if self._result is None or not isinstance(self._model, Answer):
            raise LookupError("You have to call build_model() first to get a decision!")
        return self._model.decision


__all__ = ["FORMATS", "Interpretation", "ModelBuilder", "ModelBuilderCommand", "ModelText", "cooked",
           "interpretation", "parse_standard", "render", "signature", "standard", "tabular"]

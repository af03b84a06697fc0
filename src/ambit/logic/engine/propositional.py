"""The propositional shortcut of equivalence (prove.py): one truth table over the closed parts
settles what it can before Prolog (⊕ / ↔ chains would spend the prover's whole budget).
Bit-parallel: bit r of column i is bit i of r.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Iterable

from ambit.logic.syntax.ast import And, Atom, Const, Eq, Formula, Iff, Implies, Not, Or, Quant, Xor, free_vars

MAX_PARTS = 16  # 2^16 rows: a 64 Kibit integer per column


@dataclass(frozen=True)
class Table:
    """A's and B's truth tables over `parts` (each given by its `_key`)."""

    parts: tuple
    a: int
    b: int

    @property
    def ground(self) -> bool:
        """Every part a ground atom over constants: the rows are exactly the models."""
        return all(type(p) is Atom and all(type(t) is Const for t in p.args) for p in self.parts)

    def entails(self, x: int, y: int) -> bool:
        return x & ~y == 0

    def first_row(self, bits: int) -> int:
        """The lowest row whose bit is set in `bits` (non-zero)."""
        return (bits & -bits).bit_length() - 1

    def model(self, row: int, constants: Iterable[str]) -> dict:
        """The row as a model in prove.pl's shape: an element per constant, its true atoms."""
        names = sorted({*constants, *(t.name for p in self.parts for t in p.args if type(t) is Const)})
        element = {c: i + 1 for i, c in enumerate(names)}
        atoms = [[p.pred, *(element[t.name] for t in p.args)] for i, p in enumerate(self.parts) if row >> i & 1]
        return {"size": max(len(names), 1), "constants": element, "atoms": atoms}


TRUE = Eq(Const("⊤"), Const("⊤"))  # valid (reflexivity): the constant true, never a part
DUAL = {"forall": "exists", "exists": "forall"}


def normalize(f: Formula) -> Formula:
    """`f` with the same meaning, in a form that makes equal parts more often equal."""
    t = type(f)
    if t is Quant:
        return _quantified(f.kind, f.var, normalize(f.body))
    if t is Not:
        body = normalize(f.body)
        if type(body) is Not:
            return body.body
        if type(body) is Quant:
            return _quantified(DUAL[body.kind], body.var, normalize(Not(body.body)))
        return Not(body)
    if t is And or t is Or:
        return t(tuple(normalize(c) for c in f.children))
    if t is Implies or t is Iff or t is Xor:
        return t(normalize(f.left), normalize(f.right))
    return f


def _quantified(kind: str, var: str, body: Formula) -> Formula:
    """`kind var . body` for a normalized body, simplified as `normalize` says."""
    if var not in free_vars(body):
        return body
    index: dict = {}
    if _collect(body, index):
        full = (1 << (1 << len(index))) - 1
        value = _value(body, index, _columns(len(index), full), full)
        if value in (0, full):
            return TRUE if value else Not(TRUE)
    return Quant(kind, var, body)


def common_prefix_bodies(a: Formula, b: Formula) -> tuple[Formula, Formula] | None:
    """The bodies under the quantifier prefix `a` and `b` share (None: none)."""
    a, b = normalize(a), normalize(b)
    peeled = False
    while type(a) is Quant and type(b) is Quant and (a.kind, a.var) == (b.kind, b.var):
        a, b, peeled = a.body, b.body, True
    return (a, b) if peeled else None


def table(a: Formula, b: Formula) -> Table | None:
    """The truth tables of `a` and `b` over their shared parts; None past MAX_PARTS."""
    index: dict = {}
    a, b = normalize(a), normalize(b)
    if not (_collect(a, index) and _collect(b, index)):
        return None
    full = (1 << (1 << len(index))) - 1
    columns = _columns(len(index), full)
    return Table(tuple(index), _value(a, index, columns, full), _value(b, index, columns, full))


def _is_part(f: Formula) -> bool:
    return type(f) in (Atom, Eq, Quant)


def _collect(f: Formula, index: dict) -> bool:
    """Number `f`'s parts by their `_key` (first appearance first); False once there are too many."""
    if _is_part(f):
        if type(f) is Eq and f.left == f.right:
            return True
        key = _key(f)
        if key is None:
            return False
        index.setdefault(key, len(index))
        return len(index) <= MAX_PARTS
    return all(_collect(c, index) for c in _operands(f))


@lru_cache(maxsize=4096)
def _key(part: Formula):
    """What identifies a part: itself, or a quantified one's kind, variable and body's table."""
    if type(part) is not Quant:
        return part
    index: dict = {}
    if not _collect(part.body, index):
        return None
    order = sorted(index, key=_order)
    index = {k: i for i, k in enumerate(order)}
    full = (1 << (1 << len(index))) - 1
    return part.kind, part.var, tuple(order), _value(part.body, index, _columns(len(index), full), full)


def _order(key) -> str:
    """A sort key for a part's `_key`, tables in hex (`repr` of an int past 4,300 digits raises)."""
    if type(key) is not tuple:
        return repr(key)
    kind, var, order, value = key
    return f"{kind} {var} [{', '.join(map(_order, order))}] {value:x}"


def _operands(f: Formula) -> tuple[Formula, ...]:
    return (f.body,) if type(f) is Not else f.children if type(f) in (And, Or) else (f.left, f.right)


def _columns(n: int, full: int) -> list[int]:
    """Column i: the rows r where bit i of r is set (blocks of 2^i ones after 2^i zeros)."""
    return [(((1 << (1 << i)) - 1) << (1 << i)) * (full // ((1 << (2 << i)) - 1)) for i in range(n)]


def _value(f: Formula, index: dict, columns: list[int], full: int) -> int:
    """`f`'s truth table: one bit per row."""
    t = type(f)
    if t is Eq and f.left == f.right:
        return full
    if _is_part(f):
        return columns[index[_key(f)]]
    if t is Not:
        return full ^ _value(f.body, index, columns, full)
    if t is And or t is Or:
        out = full if t is And else 0
        for c in f.children:
            v = _value(c, index, columns, full)
            out = out & v if t is And else out | v
        return out
    left, right = _value(f.left, index, columns, full), _value(f.right, index, columns, full)
    if t is Implies:
        return (full ^ left) | right
    return left ^ right if t is Xor else full ^ left ^ right

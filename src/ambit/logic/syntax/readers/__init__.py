"""Hand-written readers that stand in front of the Lark grammars for the common input of a
dialect (folio_read.py, nltk_read.py, tptp_read.py: TPTP FOF, on one core: core.py; AmP's own
are in parse.py), and the Lark reader of AmP's FOL and Lisp (amp_lark.py). Each hand-written one
accepts only what it surely reads, building the tree the grammar's transformer builds, and
raises `Reject` on anything else, so that Lark reads it and gives the error with its position
and expectations. Here: the node constructors they share, `Reject`, `per_thread`, `gc_paused`."""

from __future__ import annotations

import contextlib
import gc
import threading
from functools import lru_cache
from typing import Callable, Iterator, TypeVar

from ambit.logic.syntax.ast import And, Atom, Const, Eq, Func, Iff, Implies, Not, Or, Quant, Var, Xor

# Constants and variables by name, made once and shared (terms are immutable, so a shared one
# is the same value): a name read again costs a look-up, not a dataclass's __init__.
const: Callable[[str], Const] = lru_cache(maxsize=1 << 14)(Const)
var: Callable[[str], Var] = lru_cache(maxsize=1 << 14)(Var)


def _maker(cls: type) -> Callable:
    """A constructor of the AST node class `cls` (a frozen dataclass with slots) for readers:
    it sets the fields through their slots, the values the dataclass's `__init__` would set,
    without its `object.__setattr__` per field (a frozen class's cost, about half of making a
    node). Equal, hashed and printed as the class's own; `Quant`'s kind check is the reader's
    to keep (it writes only `forall` and `exists`)."""
    new = object.__new__
    setters = [vars(cls)[name].__set__ for name in cls.__slots__]
    if len(setters) == 1:
        (first,) = setters

        def make1(a):
            x = new(cls)
            first(x, a)
            return x

        return make1
    if len(setters) == 2:
        first, second = setters

        def make2(a, b):
            x = new(cls)
            first(x, a)
            second(x, b)
            return x

        return make2
    first, second, third = setters

    def make3(a, b, c):
        x = new(cls)
        first(x, a)
        second(x, b)
        third(x, c)
        return x

    return make3


# the readers' constructors, field for field those of ast.py
new_atom, new_func, new_eq = _maker(Atom), _maker(Func), _maker(Eq)
new_and, new_or, new_not = _maker(And), _maker(Or), _maker(Not)
new_implies, new_iff, new_xor, new_quant = _maker(Implies), _maker(Iff), _maker(Xor), _maker(Quant)


class Reject(Exception):
    """Input a hand-written reader does not take; Lark decides."""


_T = TypeVar("_T")


def per_thread(make: Callable[[], _T]) -> Callable[[], _T]:
    """A getter of this thread's `make()`, made on first use. A reader's nested functions (locals,
    not attributes, on its hot path) are made once per thread, not once per formula; a reader
    is not reentrant, and no two threads share one."""
    local = threading.local()

    def get() -> _T:
        try:
            return local.value
        except AttributeError:
            local.value = value = make()
            return value

    return get


@contextlib.contextmanager
def gc_paused() -> Iterator[None]:
    """The cyclic garbage collector paused for the block (when it was on). Reading a large input
    (a TPTP problem, a long AmP formula) allocates a few objects per token, all acyclic and kept;
    the collector would scan them again and again as they pile up (half the time of a
    150,000-statement problem), and then once more, all of them, at its first collection after
    the block. So they are moved to the oldest generation (`freeze` then `unfreeze`: no scan)
    before it resumes, where only a full collection looks at them again."""
    was_on = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_on:
            gc.freeze()
            gc.unfreeze()
            gc.enable()

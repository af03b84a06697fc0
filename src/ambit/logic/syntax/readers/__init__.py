"""What the readers share (folio_read.py, nltk_read.py, tptp_read.py on core.py; amp_lark.py): the
node constructors, `Reject`, `per_thread`, `gc_paused`."""

from __future__ import annotations

import contextlib
import gc
import threading
from functools import lru_cache
from typing import Callable, Iterator, TypeVar

from ambit.logic.syntax.ast import And, Atom, Const, Eq, Func, Iff, Implies, Not, Or, Quant, Var, Xor

# constants and variables made once per name (terms are immutable): a look-up, not an __init__
const: Callable[[str], Const] = lru_cache(maxsize=1 << 14)(Const)
var: Callable[[str], Var] = lru_cache(maxsize=1 << 14)(Var)


def _maker(cls: type) -> Callable:
    """A constructor of the frozen AST class `cls` setting its slots (half `__init__`'s cost)."""
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


new_atom, new_func, new_eq = _maker(Atom), _maker(Func), _maker(Eq)
new_and, new_or, new_not = _maker(And), _maker(Or), _maker(Not)
new_implies, new_iff, new_xor, new_quant = _maker(Implies), _maker(Iff), _maker(Xor), _maker(Quant)


class Reject(Exception):
    """Input a hand-written reader does not take; Lark decides."""


_T = TypeVar("_T")


def per_thread(make: Callable[[], _T]) -> Callable[[], _T]:
    """A getter of this thread's `make()`, made on first use (a reader is not reentrant)."""
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
    """The cyclic collector paused for the block: it rescanned a large input's acyclic objects (half
    the time of a 150,000-statement problem); they end unscanned in the oldest generation."""
    was_on = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_on:
            gc.freeze()
            gc.unfreeze()
            gc.enable()

"""`json_call/4` (prolog/json_call.pl) through SWI-Prolog's C interface, not pyswip's query
wrapper (~0.1 ms a call, not ~0.3 ms). Everything here runs on the worker thread.
"""

from __future__ import annotations

import ctypes
from typing import Any

# Reply unbound: call_with_inference_limit/3 took the call (its limit met outside json_call's catch)
UNBOUND = object()

_CVT_TEXT = 0x1 | 0x2 | 0x4  # CVT_ATOM | CVT_STRING | CVT_LIST


class JsonCall:
    """The C functions, atoms, functors and predicate a call needs, looked up once."""

    def __init__(self) -> None:
        from pyswip import core

        self._core = core
        lib = core._lib
        term_t, c_int = core.term_t, ctypes.c_int

        def fn(name: str, restype: Any, *argtypes: Any) -> Any:
            f = lib[name]  # a fresh function object: pyswip's own prototypes stay as they are
            f.restype, f.argtypes = restype, list(argtypes)
            return f

        self.open_frame = fn("PL_open_foreign_frame", core.fid_t)
        self.discard_frame = fn("PL_discard_foreign_frame", None, core.fid_t)
        self.new_refs = fn("PL_new_term_refs", term_t, c_int)
        self.put_chars = fn("PL_put_chars", c_int, term_t, c_int, ctypes.c_size_t, ctypes.c_char_p)
        self.put_float = fn("PL_put_float", c_int, term_t, ctypes.c_double)
        self.put_int64 = fn("PL_put_int64", c_int, term_t, ctypes.c_int64)
        self.put_atom = fn("PL_put_atom", c_int, term_t, core.atom_t)
        self.cons = fn("PL_cons_functor_v", c_int, term_t, core.functor_t, term_t)
        self.open_query = fn("PL_open_query", core.qid_t, core.module_t, c_int, core.predicate_t, term_t)
        self.next_solution = fn("PL_next_solution", c_int, core.qid_t)
        self.cut_query = fn("PL_cut_query", c_int, core.qid_t)
        self.exception = fn("PL_exception", term_t, core.qid_t)
        self.is_variable = fn("PL_is_variable", c_int, term_t)
        self.get_nchars = fn("PL_get_nchars", c_int, term_t, ctypes.POINTER(ctypes.c_size_t),
                             ctypes.POINTER(ctypes.c_char_p), ctypes.c_uint)
        new_atom = fn("PL_new_atom", core.atom_t, ctypes.c_char_p)
        new_functor = fn("PL_new_functor", core.functor_t, core.atom_t, c_int)
        predicate = fn("PL_predicate", core.predicate_t, ctypes.c_char_p, c_int, ctypes.c_char_p)
        self.json_call_atom = new_atom(b"json_call")
        self.json_call4 = new_functor(self.json_call_atom, 4)
        self.colon2 = new_functor(new_atom(b":"), 2)
        self.with_limit = predicate(b"call_with_inference_limit", 3, b"system")
        self.flags = core.PL_Q_NODEBUG | core.PL_Q_CATCH_EXCEPTION

    def __call__(self, goal: str, out_var: str, seconds: float, inferences: int) -> str | None | object:
        """json_call's reply (text), None when the goal failed, or UNBOUND; pyswip's PrologError."""
        core = self._core
        fid = self.open_frame()
        try:
            args = self.new_refs(4)  # Text, OutName, Seconds, Reply
            text, name = goal.encode("utf-8"), out_var.encode("utf-8")
            self.put_chars(args, core.PL_STRING | core.REP_UTF8, len(text), text)
            self.put_chars(args + 1, core.PL_ATOM | core.REP_UTF8, len(name), name)
            self.put_float(args + 2, seconds)
            qualified = self.new_refs(2)  # json_call : json_call(...)
            self.put_atom(qualified, self.json_call_atom)
            self.cons(qualified + 1, self.json_call4, args)
            call = self.new_refs(3)  # Goal, Limit, Result
            self.cons(call, self.colon2, qualified)
            self.put_int64(call + 1, inferences)
            qid = self.open_query(None, self.flags, self.with_limit, call)
            try:
                if not self.next_solution(qid):
                    raised = self.exception(qid)
                    if raised:
                        raise _pyswip_error(goal, raised)
                    return None
                if self.is_variable(args + 3):
                    return UNBOUND
                return self._text(args + 3)
            finally:
                self.cut_query(qid)
        finally:
            self.discard_frame(fid)

    def _text(self, term: int) -> str:
        size, chars = ctypes.c_size_t(), ctypes.c_char_p()
        if not self.get_nchars(term, ctypes.byref(size), ctypes.byref(chars), _CVT_TEXT | self._core.REP_UTF8):
            raise TypeError("json_call/4 replied with a term that is no text")
        return ctypes.string_at(chars, size.value).decode("utf-8")


def _pyswip_error(goal: str, raised: int) -> Exception:
    """The exception pyswip's query raises for the same Prolog exception."""
    from pyswip.easy import getTerm
    from pyswip.prolog import PrologError

    return PrologError(f"Caused by: '{goal}'. Returned: '{getTerm(raised)}'.")


__all__ = ["JsonCall", "UNBOUND"]

"""Variable scope on a partial LF, the one rule the grammar cannot state: a prefix is rejected once
a term variable is complete and unbound (or no bound name starts with it). FOL: `exists v . F`
binds v to the end of the enclosing `( ... )`; Lisp: `( exists v F )` inside its parentheses."""

from __future__ import annotations

import re

from ambit.logic.syntax.dialect import AMP_NAMES, dialect

SCOPE_FORMATS = AMP_NAMES  # the formats whose decoding keeps every variable bound: AmP's

_FOL = re.compile(
    r"(?P<push>\( )|(?P<pop> \))|(?:exists|forall) (?P<binder>[a-z][0-9]*) \. "
    r"|(?:\(|, )(?P<term>[a-z][0-9]*)(?P<done>[),])?"
)


def scope_ok(text: str, fmt: str) -> bool:
    """False when the (partial) LF `text` uses, or must go on to use, an unbound variable."""
    return _lisp_ok(text) if dialect(fmt).s_expression else _fol_ok(text)


def _bound(var: str, stack: list[set[str]], complete: bool) -> bool:
    if complete:
        return any(var in frame for frame in stack)
    return any(v.startswith(var) for frame in stack for v in frame)


def _fol_ok(text: str) -> bool:
    stack: list[set[str]] = [set()]
    for m in _FOL.finditer(text):
        if m.group("push"):
            stack.append(set())
        elif m.group("pop"):
            if len(stack) > 1:
                stack.pop()
        elif m.group("binder"):
            stack[-1].add(m.group("binder"))
        elif m.group("term"):
            complete = m.group("done") is not None or m.end() < len(text)
            if not _bound(m.group("term"), stack, complete):
                return False
    return True


def _lisp_ok(text: str) -> bool:
    stack: list[set[str]] = [set()]
    words = text.split(" ")
    state = None
    for k, w in enumerate(words):
        partial = k == len(words) - 1  # the last word may still grow
        if w == "(":
            stack.append(set())
            state = "open"
        elif w == ")":
            if len(stack) > 1:
                stack.pop()
            state = None
        elif not w:
            continue
        elif state == "open":
            state = "binder" if w in ("exists", "forall") else None if w in ("AND", "OR") else "terms"
        elif state == "binder":
            if not partial:
                stack[-1].add(w)
            state = None
        elif state == "terms" and w[:1].islower():
            if not _bound(w, stack, not partial):
                return False
    return True

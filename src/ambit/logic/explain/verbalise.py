"""Controlled English for LFs, after Attempto Controlled English: each sentence has one reading,
and `logic.explain.read` maps it back. Scope is explicit: a quantifier that cannot stand inside
a clause opens the sentence ("for every boy, the boy saw a dog")."""

from __future__ import annotations

from dataclasses import dataclass, replace

from ambit.logic.syntax.ast import And, Atom, Const, Formula, Or, Term, Var
from ambit.logic.explain.restricted import (Every, Exists, Restricted, bound_variables, conjunction,
                                            restrict)
from ambit.logic.explain.wordforms import WordForms

ROLES = ("agent", "patient", "instrument")


@dataclass(frozen=True)
class NP:
    """A noun phrase: a name, "the boy", or a quantified phrase ("a boy [that VP]", "every boy")."""

    kind: str  # name | the | a | every
    text: str  # the name, or the noun with its label
    var: str | None = None
    rel: "Clause | None" = None  # relative clause, its subject the NP itself


@dataclass(frozen=True)
class Clause:
    """An event: subject, verb, optional object and instrument."""

    subject: NP
    verb: str
    obj: NP | None = None
    instr: NP | None = None

    def slots(self) -> list[NP]:
        return [np for np in (self.subject, self.obj, self.instr) if np is not None]


def verbalise(lf: Formula, words: WordForms | None = None) -> str:
    """The controlled-English paraphrase of a closed LF (never raises on a well-formed LF)."""
    words = (words or WordForms()).covering([lf])
    return _Writer(restrict(lf), words).sentence()


class _Writer:
    def __init__(self, r: Restricted, words: WordForms) -> None:
        self.r, self.words = r, words
        self.noun: dict[str, str | None] = {}
        self.label: dict[str, str | None] = {}
        self._name_variables(r)

    # -- referents -------------------------------------------------------------------
    def _name_variables(self, r: Restricted) -> None:
        kinds: dict[str, tuple[Atom, ...]] = {}

        def walk(x: Restricted | None) -> None:
            match x:
                case Exists(var, ks, body) | Every(var, ks, body):
                    kinds[var] = ks
                    walk(body)
                case And(children) | Or(children):
                    for c in children:
                        walk(c)

        walk(r)
        for v, ks in kinds.items():
            self.noun[v] = self.words.surface(ks[0].pred) if ks else None
        for v in bound_variables(r):
            shared = sum(1 for w in kinds if self.noun[w] is not None and self.noun[w] == self.noun[v])
            self.label[v] = v.upper() if self.noun[v] is None or shared > 1 else None

    def head(self, v: str) -> str:
        """"boy", "boy X" or "thing X": the noun of `v` with its label."""
        noun = self.noun[v] or "thing"
        return f"{noun} {self.label[v]}" if self.label[v] else noun

    def ref(self, t: Term) -> NP:
        return NP("name", t.name) if isinstance(t, Const) else NP("the", "the " + self.head(t.name), t.name)

    def article(self, v: str) -> str:
        return _article(self.noun[v] or "")

    # -- clauses ---------------------------------------------------------------------
    def clause(self, r: Restricted) -> Clause | None:
        """`r` as one clause, or None when it is not one."""
        match r:
            case Exists(var, kinds, body) if len(kinds) == 1 and self.noun[var] is not None:
                return self.event(var, kinds[0], body) or self.indefinite(var, body)
            case Every(var, kinds, body) if len(kinds) == 1:
                inner = self.clause(body)
                if inner is None or _count(body, var) != 1 or any(_quantified(c) for c in [inner]):
                    return None
                return _put(inner, var, NP("every", "every " + self.head(var), var))
        return None

    def event(self, e: str, verb: Atom, body: Restricted | None) -> Clause | None:
        """exists e (V(e) AND agent(e, s) [AND patient(e, o)] [AND instrument(e, i)])."""
        atoms = [body] if isinstance(body, Atom) else list(body.children) if isinstance(body, And) else []
        roles: dict[str, Term] = {}
        for a in atoms:
            if not (isinstance(a, Atom) and len(a.args) == 2 and a.args[0] == Var(e) and a.pred in ROLES
                    and a.args[1] != Var(e) and a.pred not in roles):
                return None
            roles[a.pred] = a.args[1]
        if "agent" not in roles or len(atoms) != len(roles):
            return None
        return Clause(self.ref(roles["agent"]), self.words.surface(verb.pred),
                      *(self.ref(roles[k]) if k in roles else None for k in ROLES[1:]))

    def indefinite(self, y: str, body: Restricted | None) -> Clause | None:
        """exists y (N(y) AND C AND [R]): clause C with "a N [that R]" in y's place."""
        if body is None:
            return None
        items = list(body.children) if isinstance(body, And) else [body]
        if len(items) > 2:
            return None
        for i, main in enumerate(items):
            c = self.clause(main)
            if c is None or _count(main, y) != 1 or _has_every(c) or not _slot_of(c, y):
                continue
            rel = None
            if len(items) == 2:
                other = items[1 - i]
                rel = self.clause(other)
                if (rel is None or _count(other, y) != 1 or rel.subject.var != y or rel.subject.kind != "the"
                        or _has_every(rel)):
                    continue
            return _put(c, y, NP("a", f"{self.article(y)} {self.head(y)}", y, rel))
        return None

    # -- sentences -------------------------------------------------------------------
    def sentence(self) -> str:
        items = list(self.r.children) if isinstance(self.r, And) else [self.r]
        text = " and ".join(self.unit(c) for c in _open_last(items, self))
        return text[0].upper() + text[1:] + "."

    def unit(self, r: Restricted) -> str:
        c = self.clause(r)
        if c is not None:
            return _clause_text(c)
        match r:
            case Atom(pred, (t,)):
                word = self.words.surface(pred)
                return f"{_np_text(self.ref(t))} is {_article(word)} {word}"
            case Atom(pred, (t, u)):
                return (f"{_np_text(self.ref(t))} stands in the {self.words.surface(pred)} relation to "
                        f"{_np_text(self.ref(u))}")
            case Exists(var, kinds, body):
                head = f"{self.article(var)} {self.head(var)}" if self.noun[var] else f"something {self.label[var]}"
                rest = [k for k in kinds[1 if self.noun[var] else 0:]] + ([body] if body is not None else [])
                if not rest:
                    return f"there is {head}"
                return f"there is {head} such that {self.unit(conjunction(rest))}"
            case Every(var, kinds, body):
                extra = "".join(f" that is {_article(w)} {w}" for w in (self.words.surface(k.pred) for k in kinds[1:]))
                return f"for every {self.head(var)}{extra}, {self.unit(body)}"
            case And(children):
                return "both " + " and ".join(self.unit(c) for c in _open_last(list(children), self))
            case Or(children):
                return "either " + " or ".join(self.unit(c) for c in _open_last(list(children), self, "or"))
        raise TypeError(f"not a restricted formula: {r!r}")


def _article(word: str) -> str:
    return "an" if word[:1] in tuple("aeiou") else "a"


def _open_last(items: list[Restricted], w: _Writer, word: str = "and") -> list[Restricted]:
    """Operands ordered so that one ending in an open "both"/"either" list comes last."""
    tail = "both " if word == "and" else "either "
    return sorted(items, key=lambda c: _ends_open(c, w, tail))


def _ends_open(r: Restricted, w: _Writer, tail: str) -> bool:
    if w.clause(r) is not None:
        return False
    match r:
        case Exists(_, _, body) | Every(_, _, body):
            return body is not None and _ends_open(body, w, tail)
        case And() | Or():
            return (tail == "both ") == isinstance(r, And)
    return False


def _count(r: Restricted | None, v: str) -> int:
    """Occurrences of variable `v` in atoms of `r`."""
    match r:
        case None:
            return 0
        case Atom(args=args):
            return sum(1 for a in args if a == Var(v))
        case And(children) | Or(children):
            return sum(_count(c, v) for c in children)
        case Exists(_, kinds, body) | Every(_, kinds, body):
            return sum(_count(k, v) for k in kinds) + _count(body, v)
    raise TypeError(r)


def _nps(c: Clause) -> list[NP]:
    out = []
    for np in c.slots():
        out.append(np)
        if np.rel is not None:
            out += _nps(np.rel)
    return out


def _quantified(c: Clause) -> bool:
    return any(np.kind in ("a", "every") for np in _nps(c))


def _has_every(c: Clause) -> bool:
    return any(np.kind == "every" for np in _nps(c))


def _slot_of(c: Clause, v: str) -> bool:
    return any(np.kind == "the" and np.var == v for np in c.slots())


def _put(c: Clause, v: str, np: NP) -> Clause:
    """`c` with the definite reference to `v` among its own slots replaced by `np`."""
    swap = lambda x: np if x is not None and x.kind == "the" and x.var == v else x  # noqa: E731
    return replace(c, subject=swap(c.subject), obj=swap(c.obj), instr=swap(c.instr))


def _np_text(np: NP) -> str:
    return np.text if np.rel is None else f"{np.text} that {_vp_text(np.rel)}"


def _vp_text(c: Clause) -> str:
    out = c.verb
    if c.obj is not None:
        out += " " + _np_text(c.obj)
    if c.instr is not None:
        out += " by means of " + _np_text(c.instr)
    return out


def _clause_text(c: Clause) -> str:
    return f"{_np_text(c.subject)} {_vp_text(c)}"


__all__ = ["verbalise", "ROLES"]

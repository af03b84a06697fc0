"""Read the controlled English of `verbalise.py` back into an LF in AmP's conjunction form ("every
boy ..." is `forall y . boy(y) AND ...`), so that `read(verbalise(lf))` can be checked equivalent
to `lf` by Prolog."""

from __future__ import annotations

import itertools
import re
from functools import lru_cache
from importlib import resources

import lark

from ambit.logic.syntax.ast import And, Atom, Const, Formula, Or, Quant, Term, Var
from ambit.logic.explain.restricted import conjunction
from ambit.logic.explain.verbalise import ROLES
from ambit.logic.explain.wordforms import WordForms

OPENERS = ("a", "an", "there", "for", "both", "either", "every", "the", "something")


class ParaphraseError(ValueError):
    """A text that is not a sentence of the controlled English (or names an unknown referent)."""


def read(text: str, words: WordForms | None = None) -> Formula:
    """The LF of one controlled-English sentence written with lexicon `words`."""
    words = words or WordForms()
    first = text.split(" ", 1)[0]
    if first.lower() in OPENERS:
        text = first.lower() + text[len(first):]
    try:
        tree = _parser(tuple(sorted(s for s in words.symbols() if " " in s))).parse(text)
    except lark.LarkError as e:
        raise ParaphraseError(f"not a controlled-English sentence: {text!r}: {e}") from None
    return _Reader(words.symbols()).formula(tree.children[0], {})


@lru_cache(maxsize=16)
def _parser(phrases: tuple[str, ...]) -> lark.Lark:
    text = resources.files("ambit.logic").joinpath("grammars", "ace.lark").read_text(encoding="utf-8")
    alternatives = " | ".join(f'"{p}"' for p in phrases) if phrases else '"phrase placeholder"'
    text = re.sub(r"^PHRASE\.2:.*$", f"PHRASE.2: {alternatives}", text, flags=re.M)
    return lark.Lark(text, parser="lalr")


Env = dict[tuple[str | None, str | None], str]  # (noun symbol, label) -> variable


class _Reader:
    def __init__(self, symbols: dict[str, str]) -> None:
        self.symbols = symbols
        self.fresh = (f"v{i}" for i in itertools.count())

    def symbol(self, word: lark.Tree) -> str:
        surface = str(word.children[0])
        return self.symbols.get(surface, surface.replace(" ", "_"))

    def formula(self, t: lark.Tree, env: Env) -> Formula:
        match t.data:
            case "conj" | "both":
                return And(tuple(self.formula(c, env) for c in t.children))
            case "either":
                return Or(tuple(self.formula(c, env) for c in t.children))
            case "exists_such" | "exists_bare":
                var, kinds, env2 = self.bind(t.children[0], env)
                body = kinds + ([self.formula(t.children[1], env2)] if t.data == "exists_such" else [])
                return Quant("exists", var, conjunction(body))
            case "forall":
                var, kinds, env2 = self.bind(t.children[0], env)
                body = kinds + [self.formula(t.children[1], env2)]
                return Quant("forall", var, conjunction(body))
            case "unary":
                np, _, word = t.children
                return self.with_np(np, env, lambda term, e: Atom(self.symbol(word), (term,)))
            case "binary":
                a, word, b = t.children
                return self.with_np(a, env, lambda ta, e: self.with_np(
                    b, e, lambda tb, _: Atom(self.symbol(word), (ta, tb))))
            case "clause":
                return self.with_np(t.children[0], env, lambda s, e: self.event(s, t.children[1], e))
        raise ParaphraseError(f"unexpected construction {t.data}")

    def bind(self, head: lark.Tree, env: Env) -> tuple[str, list[Formula], Env]:
        """A new variable for a "there is"/"for every" head, its kinds, the extended scope."""
        var = next(self.fresh)
        if head.data in ("noun_head", "noun_restrictor"):
            word, label, *more = head.children[1:] if head.data == "noun_head" else head.children
            noun = self.symbol(word)
            kinds = [Atom(noun, (Var(var),))] + [Atom(self.symbol(k.children[-1]), (Var(var),)) for k in more]
            return var, kinds, {**env, (noun, _label(label)): var}
        label, *more = head.children
        kinds = [Atom(self.symbol(k.children[-1]), (Var(var),)) for k in more]
        return var, kinds, {**env, (None, _label(label)): var}

    def event(self, subject: Term, vp: lark.Tree, env: Env) -> Formula:
        """exists e . verb(e) AND agent(e, subject) ..., object and instrument phrases around it."""
        verb, obj, instr = vp.children
        fillers = [(r, np) for r, np in zip(ROLES[1:], (obj, instr)) if np is not None]

        def build(i: int, terms: list[tuple[str, Term]], e: Env) -> Formula:
            if i < len(fillers):
                role, np = fillers[i]
                return self.with_np(np, e, lambda term, e2: build(i + 1, terms + [(role, term)], e2))
            ev = next(self.fresh)
            atoms = [Atom(self.symbol(verb), (Var(ev),)), Atom("agent", (Var(ev), subject))]
            atoms += [Atom(role, (Var(ev), term)) for role, term in terms]
            return Quant("exists", ev, And(tuple(atoms)))

        return build(0, [], env)

    def with_np(self, np: lark.Tree, env: Env, inner) -> Formula:
        """`inner(term, env)` for the referent of `np`; a quantified phrase wraps it."""
        match np.data:
            case "name":
                return inner(Const(str(np.children[0])), env)
            case "the" | "the_thing":
                key = (self.symbol(np.children[0]), _label(np.children[1])) if np.data == "the" \
                    else (None, _label(np.children[0]))
                if key not in env:
                    raise ParaphraseError(f"no referent for {' '.join(str(k) for k in key if k)!r}")
                return inner(Var(env[key]), env)
            case "indefinite" | "every":
                word, label = np.children[1:3] if np.data == "indefinite" else np.children
                noun, var = self.symbol(word), next(self.fresh)
                env2 = {**env, (noun, _label(label)): var}
                parts: list[Formula] = [Atom(noun, (Var(var),))]
                if np.data == "indefinite" and np.children[3] is not None:
                    parts.append(self.event(Var(var), np.children[3], env2))
                parts.append(inner(Var(var), env2))
                return Quant("exists" if np.data == "indefinite" else "forall", var, And(tuple(parts)))
        raise ParaphraseError(f"unexpected noun phrase {np.data}")


def _label(token) -> str | None:
    return None if token is None else str(token)


__all__ = ["read", "ParaphraseError", "OPENERS"]

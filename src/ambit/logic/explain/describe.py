"""A scene in words ("There are two boys and two dogs. The first boy saw the first dog.") and
as facts in an LF format (`agent(e1, b1)` or `( agent e1 b1 )`)."""

from __future__ import annotations

from ambit.logic.syntax.dialect import FOL, dialect
from ambit.logic.explain.situations import Scene
from ambit.logic.explain.verbalise import ROLES, _article
from ambit.logic.explain.wordforms import WordForms

_COUNTS = ["no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten"]
_ORDINALS = ["first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth"]
_IRREGULAR = {"man": "men", "woman": "women", "fish": "fish", "person": "people", "child": "children"}


def facts(scene: Scene, fmt: str = FOL) -> list[str]:
    """The true atoms: each element's sort, then the binary facts, in `fmt`."""
    atoms = [(s, (e,)) for e in scene.domain if (s := scene.sorts.get(e))] + list(scene.facts)
    if dialect(fmt).s_expression:
        return [f"( {p} {' '.join(args)} )" for p, args in atoms]
    return [f"{p}({', '.join(args)})" for p, args in atoms]


def describe(scene: Scene, words: WordForms) -> str:
    """Short English: who is there, then one sentence per event (or fact)."""
    names = {e: c for c, e in scene.constants.items()}
    by_sort: dict[str, list[str]] = {}
    for e in [e for e in scene.domain if e not in scene.events and e not in names]:
        by_sort.setdefault(scene.sorts[e], []).append(e)
    ref: dict[str, str] = dict(names)
    for s, es in by_sort.items():
        noun = words.surface(s)
        for i, e in enumerate(es):
            ref[e] = f"the {noun}" if len(es) == 1 else f"the {_ORDINALS[i] if i < len(_ORDINALS) else f'{i + 1}th'} {noun}"
    out = []
    if by_sort:
        parts = [f"{_count(len(es), words.surface(s))} {_plural(words.surface(s), len(es))}" for s, es in by_sort.items()]
        verb = "is" if len(next(iter(by_sort.values()))) == 1 else "are"
        out.append(f"There {verb} {_join(parts)}.")
    roles: dict[str, dict[str, str]] = {}
    other = []
    for p, (x, y) in scene.facts:
        if x in scene.events and p in ROLES and p not in roles.setdefault(x, {}):
            roles[x][p] = y
        else:
            other.append((p, x, y))
    for e in [e for e in scene.domain if e in scene.events]:
        r = roles.get(e, {})
        verb = words.surface(scene.sorts[e])
        if "agent" in r:
            text = f"{ref.get(r['agent'], r['agent'])} {verb}"
            if "patient" in r:
                text += f" {ref.get(r['patient'], r['patient'])}"
            if "instrument" in r:
                text += f" by means of {ref.get(r['instrument'], r['instrument'])}"
        else:
            text = f"there is a {verb} event {e}" + "".join(f", its {k} {ref.get(v, v)}" for k, v in r.items())
        out.append(text[0].upper() + text[1:] + ".")
    for p, x, y in other:
        text = _relation(words.surface(p), ref.get(x, x), ref.get(y, y), p in ROLES and x not in scene.events)
        out.append(text[0].upper() + text[1:] + ".")
    for e, c in names.items():
        if e in scene.sorts:
            out.append(f"{c} is a {words.surface(scene.sorts[e])}.")
    return " ".join(out)


def _relation(rel: str, x: str, y: str, role_of_no_event: bool) -> str:
    """A binary fact in English; one from a degenerate reading says so rather than hide it."""
    if role_of_no_event:
        who = "itself" if x == y else y
        return (f"{x} has itself as its {rel}" if x == y else f"{y} is the {rel} of {x}") + (
            f" (a degenerate reading: {rel} relates an event to a participant, and here {x}, which is no event, "
            f"to {who})")
    return f"{x} stands in the {rel} relation to {'itself' if x == y else y}"


def _count(n: int, noun: str) -> str:
    return _article(noun) if n == 1 else _COUNTS[n] if n < len(_COUNTS) else str(n)


def _plural(noun: str, n: int) -> str:
    if n == 1:
        return noun
    head, sep, tail = noun.partition(" of ")
    if sep:
        return _plural(head, n) + sep + tail
    return _IRREGULAR.get(noun, noun + ("es" if noun.endswith(("s", "sh", "ch", "x")) else "s"))


def _join(parts: list[str]) -> str:
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]

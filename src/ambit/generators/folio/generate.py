"""Stories in FOLIO's jsonl format from textbook inference patterns, labelled by construction (not
by a prover, whose agreement the tests check); `noise` flips some labels for the gold audit."""

from __future__ import annotations

import random
from collections.abc import Callable

# (predicate, singular noun phrase, plural)
KINDS = [("Dog", "a dog", "dogs"), ("Cat", "a cat", "cats"), ("Animal", "an animal", "animals"),
         ("Mammal", "a mammal", "mammals"), ("Pet", "a pet", "pets"), ("Student", "a student", "students"),
         ("Teacher", "a teacher", "teachers"), ("Musician", "a musician", "musicians"),
         ("Athlete", "an athlete", "athletes"), ("Artist", "an artist", "artists"),
         ("Scientist", "a scientist", "scientists"), ("Bird", "a bird", "birds"), ("Plant", "a plant", "plants"),
         ("Singer", "a singer", "singers"), ("Doctor", "a doctor", "doctors"), ("Farmer", "a farmer", "farmers"),
         ("Poet", "a poet", "poets"), ("Chef", "a chef", "chefs"), ("Pilot", "a pilot", "pilots"),
         ("Reader", "a reader", "readers")]
NAMES = ["rina", "bonnie", "max", "luna", "tom", "mia", "leo", "zoe", "sam", "ava", "ben", "ivy"]
RELATIONS = [("Likes", "likes"), ("Admires", "admires"), ("Knows", "knows"), ("Helps", "helps")]

Example = tuple[list[tuple[str, str]], list[tuple[str, str, str]]]  # premises; (text, fol, label) conclusions


def _chain(rng: random.Random) -> Example:
    k = rng.randint(2, 3)
    ks = rng.sample(KINDS, k + 2)
    c = rng.choice(NAMES)
    prem = [(f"All {a[2]} are {b[2]}.", f"∀x ({a[0]}(x) → {b[0]}(x))") for a, b in zip(ks[:k], ks[1:k + 1])]
    prem.append((f"{c.capitalize()} is {ks[0][1]}.", f"{ks[0][0]}({c})"))
    last, other = ks[k], ks[k + 1]
    return prem, [(f"{c.capitalize()} is {last[1]}.", f"{last[0]}({c})", "True"),
                  (f"{c.capitalize()} is not {last[1]}.", f"¬{last[0]}({c})", "False"),
                  (f"{c.capitalize()} is {other[1]}.", f"{other[0]}({c})", "Uncertain")]


def _negative(rng: random.Random) -> Example:
    a, b, d = rng.sample(KINDS, 3)
    c = rng.choice(NAMES)
    prem = [(f"No {a[2]} are {b[2]}.", f"∀x ({a[0]}(x) → ¬{b[0]}(x))"),
            (f"{c.capitalize()} is {a[1]}.", f"{a[0]}({c})")]
    return prem, [(f"{c.capitalize()} is not {b[1]}.", f"¬{b[0]}({c})", "True"),
                  (f"{c.capitalize()} is {b[1]}.", f"{b[0]}({c})", "False"),
                  (f"{c.capitalize()} is {d[1]}.", f"{d[0]}({c})", "Uncertain")]


def _disjunctive(rng: random.Random) -> Example:
    a, b, d, e = rng.sample(KINDS, 4)
    c = rng.choice(NAMES)
    prem = [(f"Every one of the {a[2]} is {b[1]} or {d[1]}.", f"∀x ({a[0]}(x) → {b[0]}(x) ∨ {d[0]}(x))"),
            (f"{c.capitalize()} is {a[1]}.", f"{a[0]}({c})"),
            (f"{c.capitalize()} is not {b[1]}.", f"¬{b[0]}({c})")]
    return prem, [(f"{c.capitalize()} is {d[1]}.", f"{d[0]}({c})", "True"),
                  (f"{c.capitalize()} is neither {b[1]} nor {d[1]}.", f"¬({b[0]}({c}) ∨ {d[0]}({c}))", "False"),
                  (f"{c.capitalize()} is {e[1]}.", f"{e[0]}({c})", "Uncertain")]


def _xor(rng: random.Random) -> Example:
    b, d, e = rng.sample(KINDS, 3)
    c = rng.choice(NAMES)
    prem = [(f"{c.capitalize()} is either {b[1]} or {d[1]}, but not both.", f"{b[0]}({c}) ⊕ {d[0]}({c})"),
            (f"{c.capitalize()} is {b[1]}.", f"{b[0]}({c})")]
    return prem, [(f"{c.capitalize()} is not {d[1]}.", f"¬{d[0]}({c})", "True"),
                  (f"{c.capitalize()} is {d[1]}.", f"{d[0]}({c})", "False"),
                  (f"If {c} is {b[1]}, then {c} is {e[1]}.", f"{b[0]}({c}) → {e[0]}({c})", "Uncertain")]


def _existential(rng: random.Random) -> Example:
    a, b, d = rng.sample(KINDS, 3)
    prem = [(f"Some {a[2]} are {b[2]}.", f"∃x ({a[0]}(x) ∧ {b[0]}(x))"),
            (f"All {b[2]} are {d[2]}.", f"∀x ({b[0]}(x) → {d[0]}(x))")]
    return prem, [(f"Some {a[2]} are {d[2]}.", f"∃x ({a[0]}(x) ∧ {d[0]}(x))", "True"),
                  (f"No {a[2]} are {d[2]}.", f"∀x ({a[0]}(x) → ¬{d[0]}(x))", "False"),
                  (f"All {a[2]} are {d[2]}.", f"∀x ({a[0]}(x) → {d[0]}(x))", "Uncertain")]


def _relation(rng: random.Random) -> Example:
    (rel, verb), a, b = rng.choice(RELATIONS), *rng.sample(KINDS, 2)
    c, d, e = rng.sample(NAMES, 3)
    prem = [(f"Everyone who {verb} {c} is {a[1]}.", f"∀x ({rel}(x, {c}) → {a[0]}(x))"),
            (f"{d.capitalize()} {verb} {c}.", f"{rel}({d}, {c})"),
            (f"No {a[2]} are {b[2]}.", f"∀x ({a[0]}(x) → ¬{b[0]}(x))")]
    return prem, [(f"{d.capitalize()} is {a[1]}.", f"{a[0]}({d})", "True"),
                  (f"{d.capitalize()} is {b[1]}.", f"{b[0]}({d})", "False"),
                  (f"{e.capitalize()} is {a[1]}.", f"{a[0]}({e})", "Uncertain")]


PATTERNS: dict[str, Callable[[random.Random], Example]] = {
    "chain": _chain, "negative": _negative, "disjunctive": _disjunctive, "xor": _xor,
    "existential": _existential, "relation": _relation}


def stories(n: int, seed: int = 0, noise: float = 0.0) -> list[dict]:
    """`n` examples (FOLIO rows with `conclusion-FOL`), three per story, patterns in turn."""
    if n < 0 or not 0.0 <= noise <= 1.0:
        raise ValueError(f"stories: n must be >= 0 and noise in [0, 1] (got n={n}, noise={noise})")
    rng = random.Random(seed)
    names, rows, story = list(PATTERNS), [], 0
    while len(rows) < n:
        pattern = names[story % len(names)]
        prem, concs = PATTERNS[pattern](rng)
        for text, fol, label in concs:
            if len(rows) == n:
                break
            row = {"story_id": f"g{story}", "example_id": f"g{story}-{label.lower()}", "pattern": pattern,
                   "premises": [p for p, _ in prem], "premises-FOL": [f for _, f in prem],
                   "conclusion": text, "conclusion-FOL": fol, "label": label, "source": "ambit-generated"}
            if noise and rng.random() < noise:
                row["label"] = rng.choice([x for x in ("True", "False", "Uncertain") if x != label])
                row["label_noise"] = True
            rows.append(row)
        story += 1
    return rows

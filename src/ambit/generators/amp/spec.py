"""Loading AmP's data files: the lexicon (`lexicon.yaml`) and the template specs
(`templates/*.yaml`), checked on load so a malformed spec fails with its file and field."""

from __future__ import annotations

import re
import string
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import yaml

HERE = Path(__file__).resolve().parent
LEXICON_FILE = HERE / "lexicon.yaml"
TEMPLATE_DIR = HERE / "templates"
PROMPTS_FILE = HERE / "prompts.yaml"

SLOT = re.compile(r"\{(\w+)\}")


class SpecError(ValueError):
    """A lexicon or template file that does not follow the spec format."""


@dataclass(frozen=True)
class Word:
    surface: str
    lf: str
    singular: str | None = None


@dataclass(frozen=True)
class Lexicon:
    classes: dict[str, tuple[Word, ...]]
    singular_after: frozenset[str]

    def words(self, cls: str) -> tuple[Word, ...]:
        try:
            return self.classes[cls]
        except KeyError:
            raise SpecError(f"unknown lexicon class {cls!r}") from None


@dataclass(frozen=True)
class Template:
    """One surface template with its slots bound to lexicon classes (parameters substituted)."""

    surface: str                 # "the {np1} {vp1} the {np2} with the {np3}"
    slots: dict[str, str]        # slot -> lexicon class
    lfs: tuple[str, ...]         # LF templates, one per reading (index = template_idx)
    distinct: tuple[frozenset[str], ...]  # groups of slots whose fillers must differ
    # zero-shot ingredients of an ambiguous template: unambiguous templates over its own slots
    # (plus, where declared, slots for words the test sentence lacks), one LF each
    ingredients: tuple["Template", ...] = ()

    @property
    def tags(self) -> list[str | None]:
        """AmP's `template_tags`: one entry per surface element, None for literal text."""
        return [part if i % 2 else None for i, part in enumerate(SLOT.split(self.surface))
                if i % 2 or part.strip()]


@dataclass(frozen=True)
class Family:
    """A template spec file: one ambiguity type or one unambiguous family."""

    name: str                    # CLI/prompt name: pp, revscope, transitive, ...
    type: str                    # AmP's `type` field: pp, scope_reverse, unambig, ...
    ambiguous: bool
    templates: tuple[Template, ...]
    zeroshot: dict[str, int]     # ingredient family -> examples per zero-shot prompt
    path: Path


def _load_yaml(path: Path) -> Any:
    with open(path, encoding="utf-8") as fh:
        return yaml.safe_load(fh)


@cache
def lexicon(path: Path = LEXICON_FILE) -> Lexicon:
    data = _load_yaml(path)
    props = data.get("words") or {}
    raw = data["classes"]

    def word(w: str) -> Word:
        p = props.get(w, {})
        return Word(surface=w, lf=p.get("lf", w), singular=p.get("singular"))

    def expand(name: str, seen: tuple[str, ...]) -> list[Word]:
        if name in seen:
            raise SpecError(f"{path}: class {name!r} includes itself")
        if name not in raw:
            raise SpecError(f"{path}: unknown class {name!r}")
        out: list[Word] = []
        for item in raw[name]:
            out.extend(expand(item[1:], seen + (name,)) if item.startswith("@") else [word(item)])
        return out

    classes = {name: tuple(expand(name, ())) for name in raw}
    for name, words in classes.items():
        surfaces = [w.surface for w in words]
        if len(set(surfaces)) != len(surfaces):
            raise SpecError(f"{path}: class {name!r} lists a word twice")
    return Lexicon(classes=classes, singular_after=frozenset(data.get("singular_after", ())))


def _subst(text: str, params: dict[str, str], where: str) -> str:
    try:
        return string.Template(text).substitute(params)
    except (KeyError, ValueError) as e:
        raise SpecError(f"{where}: parameter {e} is not defined") from None


def _ingredient(raw: dict, where: str, lex: Lexicon, params: dict[str, str],
                parent: dict[str, str]) -> Template:
    """One zero-shot ingredient: a surface over the parent's slots (and its own), one LF."""
    for key in ("surface", "lf"):
        if key not in raw:
            raise SpecError(f"{where}: missing {key!r}")
    surface = _subst(raw["surface"], params, where)
    extra = {k: _subst(v, params, where) for k, v in (raw.get("slots") or {}).items()}
    if clash := set(extra) & set(parent):
        raise SpecError(f"{where}: slots {sorted(clash)} are already the test sentence's")
    used = SLOT.findall(surface)
    unknown = set(used) - set(parent) - set(extra)
    if unknown or set(extra) - set(used):
        raise SpecError(f"{where}: surface slots {used} do not match the template's slots "
                        f"{sorted(parent)} and the ingredient's {sorted(extra)}")
    for cls in extra.values():
        lex.words(cls)
    lf = _subst(raw["lf"], params, where)
    if set(SLOT.findall(lf)) - set(used):
        raise SpecError(f"{where}: LF uses slots {sorted(set(SLOT.findall(lf)) - set(used))} "
                        "that the surface does not")
    slots = {s: extra.get(s) or parent[s] for s in used}
    return Template(surface=surface, slots=slots, lfs=(lf,), distinct=())


def _template(raw: dict, where: str, lex: Lexicon, n_readings: int) -> list[Template]:
    for key in ("surface", "slots", "lf"):
        if key not in raw:
            raise SpecError(f"{where}: missing {key!r}")
    lfs = raw["lf"] if isinstance(raw["lf"], list) else [raw["lf"]]
    if len(lfs) != n_readings:
        raise SpecError(f"{where}: {len(lfs)} LF templates, expected {n_readings}")
    out = []
    for params in raw.get("params") or [{}]:
        surface = _subst(raw["surface"], params, where)
        slots = {k: _subst(v, params, where) for k, v in raw["slots"].items()}
        used = SLOT.findall(surface)
        if sorted(used) != sorted(slots) or len(set(used)) != len(used):
            raise SpecError(f"{where}: surface slots {used} do not match slots {sorted(slots)}")
        for cls in slots.values():
            lex.words(cls)
        # order slots as they appear in the surface: enumeration and var_bindings follow it
        slots = {s: slots[s] for s in used}
        distinct = raw.get("distinct", "all")
        groups = ((frozenset(used),) if distinct == "all" else () if distinct in ("none", None)
                  else tuple(frozenset(g) for g in distinct))
        lf_texts = tuple(_subst(lf, params, where) for lf in lfs)
        for lf in lf_texts:
            if extra := set(SLOT.findall(lf)) - set(slots):
                raise SpecError(f"{where}: LF uses unknown slots {sorted(extra)}")
        ingredients = tuple(_ingredient(ing, f"{where}: ingredient {i}", lex, params, slots)
                            for i, ing in enumerate(raw.get("ingredients") or ()))
        out.append(Template(surface=surface, slots=slots, lfs=lf_texts, distinct=groups,
                            ingredients=ingredients))
    return out


def load_family(path: Path, lex: Lexicon | None = None) -> Family:
    lex = lex or lexicon()
    raw = _load_yaml(path)
    for key in ("name", "type", "templates"):
        if key not in raw:
            raise SpecError(f"{path}: missing {key!r}")
    ambiguous = bool(raw.get("ambiguous", False))
    templates: list[Template] = []
    for i, t in enumerate(raw["templates"]):
        templates.extend(_template(t, f"{path}: template {i}", lex, 2 if ambiguous else 1))
    if not ambiguous and any(t.ingredients for t in templates):
        raise SpecError(f"{path}: zero-shot ingredients belong to an ambiguous type")
    return Family(name=raw["name"], type=raw["type"], ambiguous=ambiguous,
                  templates=tuple(templates), zeroshot=dict(raw.get("zeroshot") or {}), path=path)


@cache
def families(template_dir: Path = TEMPLATE_DIR) -> dict[str, Family]:
    """All template specs by name, ambiguous types first, each group in file-name order."""
    lex = lexicon()
    loaded = [load_family(p, lex) for p in sorted(template_dir.glob("*.yaml"))]
    out: dict[str, Family] = {}
    for fam in sorted(loaded, key=lambda f: not f.ambiguous):
        if fam.name in out:
            raise SpecError(f"{fam.path}: family name {fam.name!r} used twice")
        out[fam.name] = fam
    for fam in out.values():
        for ingredient in fam.zeroshot:
            if ingredient not in out or out[ingredient].ambiguous:
                raise SpecError(f"{fam.path}: zero-shot ingredient {ingredient!r} is not an unambiguous family")
    return out


@cache
def prompt_config(path: Path = PROMPTS_FILE) -> dict:
    return _load_yaml(path)

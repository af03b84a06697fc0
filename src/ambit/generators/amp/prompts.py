"""Prompt builders for AmP's zero-shot (unambiguous ingredients) and few-shot (round(shots * r)
demonstrations with LF0, the same utterances at every ratio) settings, in BenchCLAMP's layout.
Every `random.Random` is seeded with strings, so the output is the same byte for byte."""

from __future__ import annotations

import random
from functools import cache
from typing import Sequence

from ambit.logic.syntax.dialect import FOL
from ambit.generators.amp.generate import family_rows, pairs, render_lf, resolve
from ambit.generators.amp.ingredients import check_ingredients, item_ingredients
from ambit.generators.amp.spec import families, prompt_config

AMBIGUOUS_TYPES = ("pp", "scope", "revscope", "bound", "conj")
INGREDIENTS = ("own", "sampled")  # zero-shot constructions; "own" is the default


def prompt_text(demos: Sequence[tuple[str, str]], test: str, instruction: str | None = None) -> str:
    instruction = prompt_config()["instruction"] if instruction is None else instruction
    body = "".join(f"Human: {s}\nComputer: {lf}\n\n" for s, lf in demos)
    return f"{instruction}\n\n{body}Human: {test}\nComputer:"


def _types(type: str) -> list[str]:
    if type == "all":
        return [f.name for f in families().values() if f.ambiguous]
    fams = resolve(type)
    if not all(f.ambiguous for f in fams):
        raise ValueError(f"{type!r} is not an ambiguous type")
    return [f.name for f in fams]


@cache
def _pairs(name: str) -> tuple[dict, ...]:
    return tuple(pairs(name))


@cache
def _utterances(name: str) -> frozenset[str]:
    """Every utterance of an ambiguous type: what no zero-shot ingredient may be."""
    return frozenset(p["surface"] for p in _pairs(name))


@cache
def _rows(family: str) -> tuple[dict, ...]:
    return tuple(family_rows(families()[family]))


def _items(name: str, seed: int, limit: int | None) -> list[tuple[int, dict]]:
    """Test items of one type: every ambiguous utterance, in a seeded order, `limit` kept."""
    items = list(enumerate(_pairs(name)))
    random.Random(f"amp-items:{seed}:{name}").shuffle(items)
    return items[:limit] if limit is not None else items


def _record(setting: str, name: str, idx: int, item: dict, prompt: str, fmt: str,
            canonical: bool, ratio: float | None = None) -> dict:
    rec = {"id": f"amp-{setting}-{name}-{idx:05d}" + ("" if ratio is None else f"-r{ratio:.1f}"),
           "type": name, "amp_type": item["type"], "surface": item["surface"], "prompt": prompt,
           "lf0": render_lf(item["lf0"], fmt, canonical),
           "lf1": render_lf(item["lf1"], fmt, canonical)}
    return rec if ratio is None else {**rec, "ratio": ratio}


def _own_demos(name: str, item: dict, rng: random.Random) -> list[tuple[str, str]]:
    """The item's own ingredients, checked to show neither the construction nor a reading."""
    demos = item_ingredients(item["template"], item["row0"]["var_bindings"], rng)
    check_ingredients(demos, (item["lf0"], item["lf1"]), _utterances(name))
    return demos


def _sampled_demos(name: str, rng: random.Random) -> list[tuple[str, str]]:
    """Examples of the type's ingredient families (`zeroshot:` in its spec), other words."""
    return [(row["surface"], row["lf"])
            for family, k in families()[name].zeroshot.items()
            for row in rng.sample(_rows(family), k)]


def zeroshot_prompts(type: str = "all", seed: int = 0, limit: int | None = None,
                     fmt: str = FOL, canonical: bool = False, ingredients: str = "own") -> list[dict]:
    """One prompt per test item; `ingredients`: "own" (the item's own words, as AmP's appendix A.2)
    or "sampled" (the type's ingredient families with other words, for comparison)."""
    if ingredients not in INGREDIENTS:
        raise ValueError(f"unknown ingredients {ingredients!r}; expected one of {INGREDIENTS}")
    return [zeroshot_item_prompt(name, idx, item, seed, fmt, canonical, ingredients)
            for name in _types(type) for idx, item in _items(name, seed, limit)]


def zeroshot_item_prompt(name: str, idx: int, item: dict, seed: int = 0, fmt: str = FOL,
                         canonical: bool = False, ingredients: str = "own") -> dict:
    """The zero-shot record of one test item; an item without a template (splits.py) gets the
    sampled construction, and the record's `ingredients` says which one the prompt has."""
    if ingredients not in INGREDIENTS:
        raise ValueError(f"unknown ingredients {ingredients!r}; expected one of {INGREDIENTS}")
    used = "own" if ingredients == "own" and item.get("template") is not None else "sampled"
    demos = _zeroshot_demos(name, idx, item, seed, fmt, canonical, used == "own")
    rec = _record("zeroshot", name, idx, item, prompt_text(demos, item["surface"]), fmt, canonical)
    return {**rec, "ingredients": used}


def _zeroshot_demos(name: str, idx: int, item: dict, seed: int, fmt: str, canonical: bool,
                    own: bool) -> list[tuple[str, str]]:
    rng = random.Random(f"amp-zeroshot:{seed}:{name}:{idx}")
    demos = _own_demos(name, item, rng) if own else _sampled_demos(name, rng)
    demos = [(s, render_lf(lf, fmt, canonical)) for s, lf in demos]
    rng.shuffle(demos)
    return demos


def _mixed(chosen: list[dict], n0: int, fmt: str, canonical: bool, order: str) -> list[tuple]:
    """`chosen`'s first `n0` with LF0, the rest with LF1, shuffled with the seed `order`."""
    demos = [(d["surface"], render_lf(d["lf0" if i < n0 else "lf1"], fmt, canonical))
             for i, d in enumerate(chosen)]
    random.Random(order).shuffle(demos)
    return demos


def fewshot_prompts(type: str = "all", ratios: Sequence[float] | None = None, seed: int = 0,
                    limit: int | None = None, fmt: str = FOL, canonical: bool = True,
                    shots: int | None = None) -> list[dict]:
    """Mixed prompts, round(shots * r) demonstrations with LF0; FOL canonical, as AmP's files."""
    return [rec for name in _types(type) for idx, item in _items(name, seed, limit)
            for rec in fewshot_item_prompts(name, idx, item, _pairs(name), ratios, seed, fmt,
                                            canonical, shots, exclude=idx)]


def fewshot_item_prompts(name: str, idx: int, item: dict, pool: Sequence[dict],
                         ratios: Sequence[float] | None = None, seed: int = 0, fmt: str = FOL,
                         canonical: bool = True, shots: int | None = None,
                         exclude: int | None = None) -> list[dict]:
    """The few-shot records of one test item, one per ratio: `shots` demonstrations drawn from
    `pool` (never `pool[exclude]`, never the item's own utterance), the same at every ratio."""
    cfg = prompt_config()["fewshot"]
    ratios = list(cfg["ratios"] if ratios is None else ratios)
    shots = cfg["shots"] if shots is None else shots
    if len(pool) < shots + 1:
        raise ValueError(f"{name}: a pool of {len(pool)} utterances is too small for {shots} shots")
    rng = random.Random(f"amp-fewshot:{seed}:{name}:{idx}")
    chosen = [pool[j] for j in rng.sample(range(len(pool)), shots + 1)
              if j != exclude and pool[j]["surface"] != item["surface"]][:shots]
    order = f"amp-fewshot-order:{seed}:{name}:{idx}"
    return [_record("fewshot", name, idx, item, prompt_text(
        _mixed(chosen, round(shots * r), fmt, canonical, f"{order}:{r:.3f}"), item["surface"]),
        fmt, canonical, r) for r in ratios]


def prompt_for_utterance(utterance: str, *, setting: str, type: str, ratio: float = 0.0, seed: int = 0,
                         fmt: str = FOL, shots: int | None = None, ingredients: str = "own") -> str:
    """The AmP prompt for `utterance` as its test sentence (the server parses any utterance with
    it): a generated item's own zero-shot prompt, else the demonstrations of the first test item."""
    name = _types(type)[0]
    items = _items(name, seed, None)
    if not items:
        raise ValueError(f"no test items for type {type!r}")
    if setting == "zeroshot":
        if ingredients not in INGREDIENTS:
            raise ValueError(f"unknown ingredients {ingredients!r}; expected one of {INGREDIENTS}")
        own = next(((i, it) for i, it in items if it["surface"] == utterance), None)
        idx, item = own if own is not None else items[0]
        use_own = ingredients == "own" and own is not None
        return prompt_text(_zeroshot_demos(name, idx, item, seed, fmt, False, use_own), utterance)
    if setting != "fewshot":
        raise ValueError(f"unknown prompt setting {setting!r} (zeroshot or fewshot)")
    idx, _ = items[0]
    shots = prompt_config()["fewshot"]["shots"] if shots is None else shots
    pool = _pairs(name)
    rng = random.Random(f"amp-fewshot:{seed}:{name}:{idx}")
    chosen = [pool[j] for j in rng.sample(range(len(pool)), shots + 1) if j != idx][:shots]
    order = f"amp-fewshot-order:{seed}:{name}:{idx}:{ratio:.3f}"
    return prompt_text(_mixed(chosen, round(shots * ratio), fmt, True, order), utterance)

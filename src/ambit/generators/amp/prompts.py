"""Prompt builders for AmP's two settings, in BenchCLAMP's text layout:

    <instruction>

    Human: <utterance>
    Computer: <LF>

    ...
    Human: <test utterance>
    Computer:

Zero-shot: unambiguous "ingredient" examples, never an example of the tested type, in seeded
random order. By default ("own", AmP's appendix A.2) they are made from the test sentence's own
words through the ingredient templates its template declares (`ingredients.py`); "sampled"
draws examples with other words from the families listed under `zeroshot:` in the type's spec.
Few-shot (mixed): `shots` other utterances of the tested type, the first round(shots * r) shown
with LF0 and the rest with LF1, then shuffled. For one test item the same demonstration
utterances serve every ratio, so prompts across r differ only in which reading is shown.

All randomness comes from `random.Random` seeded with strings built from the seed, the type
and the item, so the output is the same byte for byte on every run and platform.
"""

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
    rec = {
        "id": f"amp-{setting}-{name}-{idx:05d}" + ("" if ratio is None else f"-r{ratio:.1f}"),
        "type": name,
        "amp_type": item["type"],
        "surface": item["surface"],
        "prompt": prompt,
        "lf0": render_lf(item["lf0"], fmt, canonical),
        "lf1": render_lf(item["lf1"], fmt, canonical),
    }
    if ratio is not None:
        rec["ratio"] = ratio
    return rec


def _own_demos(name: str, item: dict, rng: random.Random) -> list[tuple[str, str]]:
    """The item's own ingredients (its template's `ingredients:`), checked to show neither
    the ambiguous construction nor either reading of the item."""
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
    """One prompt per test item, its demonstrations shuffled with the seed. `ingredients`:
    "own" (default), the unambiguous sentences made from the item's own words that the AmP
    paper uses (appendix A.2); "sampled", examples of the type's ingredient families with
    other words, for comparison."""
    if ingredients not in INGREDIENTS:
        raise ValueError(f"unknown ingredients {ingredients!r}; expected one of {INGREDIENTS}")
    return [zeroshot_item_prompt(name, idx, item, seed, fmt, canonical, ingredients)
            for name in _types(type) for idx, item in _items(name, seed, limit)]


def zeroshot_item_prompt(name: str, idx: int, item: dict, seed: int = 0, fmt: str = FOL,
                         canonical: bool = False, ingredients: str = "own") -> dict:
    """The zero-shot record of one test item of type `name` (a pair record: generated, or
    released with its `template` attached, see splits.py). An item without a template has no
    own-word ingredients and gets the sampled construction; `ingredients` in the record says
    which construction the prompt has."""
    if ingredients not in INGREDIENTS:
        raise ValueError(f"unknown ingredients {ingredients!r}; expected one of {INGREDIENTS}")
    rng = random.Random(f"amp-zeroshot:{seed}:{name}:{idx}")
    used = "own" if ingredients == "own" and item.get("template") is not None else "sampled"
    demos = _own_demos(name, item, rng) if used == "own" else _sampled_demos(name, rng)
    demos = [(s, render_lf(lf, fmt, canonical)) for s, lf in demos]
    rng.shuffle(demos)
    rec = _record("zeroshot", name, idx, item, prompt_text(demos, item["surface"]), fmt, canonical)
    return {**rec, "ingredients": used}


def fewshot_prompts(type: str = "all", ratios: Sequence[float] | None = None, seed: int = 0,
                    limit: int | None = None, fmt: str = FOL, canonical: bool = True,
                    shots: int | None = None) -> list[dict]:
    """Mixed prompts: per test item and ratio r, `shots` same-type demonstrations,
    round(shots * r) of them with LF0. FOL is canonical by default, as in AmP's few-shot files."""
    return [rec for name in _types(type) for idx, item in _items(name, seed, limit)
            for rec in fewshot_item_prompts(name, idx, item, _pairs(name), ratios, seed, fmt,
                                            canonical, shots, exclude=idx)]


def fewshot_item_prompts(name: str, idx: int, item: dict, pool: Sequence[dict],
                         ratios: Sequence[float] | None = None, seed: int = 0, fmt: str = FOL,
                         canonical: bool = True, shots: int | None = None,
                         exclude: int | None = None) -> list[dict]:
    """The few-shot records of one test item, one per ratio: `shots` demonstrations drawn from
    `pool` (never `pool[exclude]`, never the item's own utterance), the same ones at every
    ratio, round(shots * r) of them shown with LF0, then shuffled."""
    cfg = prompt_config()["fewshot"]
    ratios = list(cfg["ratios"] if ratios is None else ratios)
    shots = cfg["shots"] if shots is None else shots
    if len(pool) < shots + 1:
        raise ValueError(f"{name}: a pool of {len(pool)} utterances is too small for {shots} shots")
    rng = random.Random(f"amp-fewshot:{seed}:{name}:{idx}")
    chosen = [pool[j] for j in rng.sample(range(len(pool)), shots + 1)
              if j != exclude and pool[j]["surface"] != item["surface"]][:shots]
    out = []
    for r in ratios:
        n0 = round(shots * r)
        demos = [(d["surface"], render_lf(d["lf0" if i < n0 else "lf1"], fmt, canonical))
                 for i, d in enumerate(chosen)]
        random.Random(f"amp-fewshot-order:{seed}:{name}:{idx}:{r:.3f}").shuffle(demos)
        out.append(_record("fewshot", name, idx, item, prompt_text(demos, item["surface"]), fmt, canonical, r))
    return out


def prompt_for_utterance(utterance: str, *, setting: str, type: str, ratio: float = 0.0, seed: int = 0,
                         fmt: str = FOL, shots: int | None = None, ingredients: str = "own") -> str:
    """The AmP prompt for `utterance` as its test sentence. Zero-shot: when the utterance is one
    of the type's generated items, exactly the prompt `zeroshot_prompts` writes for it (its own
    ingredients, or sampled ones); any other utterance has no bindings to build ingredients
    from, so it gets the sampled construction of the type's first test item. Few-shot: the
    demonstrations `fewshot_prompts` chooses for the first test item (same seed, ratio, format
    and shots). The server uses it to parse any utterance with an AmP prompt."""
    name = _types(type)[0]
    items = _items(name, seed, None)
    if not items:
        raise ValueError(f"no test items for type {type!r}")
    if setting == "zeroshot":
        if ingredients not in INGREDIENTS:
            raise ValueError(f"unknown ingredients {ingredients!r}; expected one of {INGREDIENTS}")
        own = next(((i, it) for i, it in items if it["surface"] == utterance), None)
        idx, item = own if own is not None else items[0]
        rng = random.Random(f"amp-zeroshot:{seed}:{name}:{idx}")
        use_own = ingredients == "own" and own is not None
        demos = _own_demos(name, item, rng) if use_own else _sampled_demos(name, rng)
        demos = [(s, render_lf(lf, fmt, False)) for s, lf in demos]
        rng.shuffle(demos)
        return prompt_text(demos, utterance)
    if setting != "fewshot":
        raise ValueError(f"unknown prompt setting {setting!r} (zeroshot or fewshot)")
    idx, _ = items[0]
    shots = prompt_config()["fewshot"]["shots"] if shots is None else shots
    pool = _pairs(name)
    rng = random.Random(f"amp-fewshot:{seed}:{name}:{idx}")
    chosen = [pool[j] for j in rng.sample(range(len(pool)), shots + 1) if j != idx][:shots]
    n0 = round(shots * ratio)
    demos = [(d["surface"], render_lf(d["lf0" if i < n0 else "lf1"], fmt, True)) for i, d in enumerate(chosen)]
    random.Random(f"amp-fewshot-order:{seed}:{name}:{idx}:{ratio:.3f}").shuffle(demos)
    return prompt_text(demos, utterance)

"""The AmP suites' work items: AmP's released test splits when its archives are under the data
root (zero-shot: 200 per type; few-shot: 100 per type, the same at every ratio), else a generated
held-out split (``generators.amp.splits``); :func:`items_source` says which."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from ambit.logic.syntax.dialect import FOL


def items_source(data: Path | None, setting: str, types: Sequence[str]) -> str:
    from ambit.generators.amp import splits
    return "amp-release" if data is not None and splits.release_available(data, setting, list(types)) \
        else "generated"


def _check_types(types: Sequence[str]) -> None:
    from ambit.generators.amp import AMBIGUOUS_TYPES
    if bad := [t for t in types if t not in AMBIGUOUS_TYPES]:
        raise ValueError(f"--types: unknown AmP type(s) {bad}; expected some of {list(AMBIGUOUS_TYPES)}")


def _one_source(sources: set[str]) -> None:
    """Refuse a run whose types would mix released and generated items."""
    if len(sources) > 1:
        raise FileNotFoundError(f"AmP archives found for some types only ({sorted(sources)}): "
                                "check the data root's amp/zeroshot folders")


def zeroshot_items(types: Sequence[str], seed: int, limit: int | None, fmt: str,
                   data: Path | None = None, ingredients: str = "own") -> list[dict]:
    """Zero-shot items per type: the test split (``limit`` kept), each with its prompt."""
    from ambit.generators.amp import splits, zeroshot_item_prompt
    _check_types(types)
    items, sources = [], set()
    for t in types:
        split = splits.zeroshot_split(t, data, seed)
        sources.add(split.source)
        for idx, item in enumerate(split.test[:limit]):
            rec = zeroshot_item_prompt(t, idx, item, seed=seed, fmt=fmt, ingredients=ingredients)
            items.append({**rec, "id": f"{t}/{rec['id']}", "type": t})
    _one_source(sources)
    return items


def release_matched(types: Sequence[str], data: Path | None, seed: int) -> dict[str, dict[str, int]]:
    """Per type, how many zero-shot test items match a generator template, of how many."""
    from ambit.generators.amp import splits
    tests = {t: splits.zeroshot_split(t, data, seed).test for t in types}
    return {t: {"matched": sum(it["template"] is not None for it in test), "n": len(test)}
            for t, test in tests.items()}


def fewshot_items(types: Sequence[str], ratios: Sequence[float], seed: int, limit: int | None,
                  fmt: str, data: Path | None = None) -> list[dict]:
    """Few-shot items per type and ratio: the test split (``limit`` kept), demonstrations from the
    train split. Released LFs are shown as released in FOL, else rendered canonically."""
    from ambit.generators.amp import fewshot_item_prompts, splits
    _check_types(types)
    items, sources = [], set()
    for t in types:
        split = splits.fewshot_split(t, data, seed)
        sources.add(split.source)
        canonical = split.source == "generated" or fmt != FOL  # AmP's released LFs are FOL
        for idx, item in enumerate(split.test[:limit]):
            for rec in fewshot_item_prompts(t, idx, item, split.train, ratios, seed=seed, fmt=fmt,
                                            canonical=canonical):
                items.append({**rec, "id": f"{t}/{rec['id']}", "type": t})
    _one_source(sources)
    return items

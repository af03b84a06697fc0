"""Paraphrases for AmP suite records (issue 13) in controlled English (`logic.explain.verbalise`
with AmP's word forms), computed locally: no model, no Prolog, no server round trip."""

from __future__ import annotations

from typing import Any

TOP_CLASSES = 3  # meaning classes recorded with their paraphrase, heaviest first


def paraphrases(dist: Any, item: dict, fmt: str) -> dict:
    """Record fields: paraphrases of the gold LFs, the top candidate and the heaviest classes."""
    from ambit import logic
    from ambit.generators.amp.wordforms import amp_wordforms
    from ambit.logic.explain import verbalise

    top = dist.candidates[0].text if dist.candidates else ""
    texts = [item["lf0"], item["lf1"], top] + [c.canonical for c in dist.classes[:TOP_CLASSES]]
    formulas = []
    for text in texts:
        try:
            formulas.append(logic.parse(text.strip(), fmt))
        except logic.LFParseError:
            formulas.append(None)
    words = amp_wordforms().covering([f for f in formulas if f is not None])
    said = [None if f is None else verbalise(f, words) for f in formulas]
    return {
        "paraphrase_lf0": said[0], "paraphrase_lf1": said[1], "paraphrase_pred": said[2],
        "top_classes": [{"canonical": c.canonical, "probability_mass": c.probability_mass, "paraphrase": p}
                        for c, p in zip(dist.classes[:TOP_CLASSES], said[3:])],
    }

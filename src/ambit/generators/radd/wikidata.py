"""The Wikidata ids in RADD's property-pair names (``P159_P206``) and their English labels, so
that reports can say what a pair is about. Labels as Wikidata gives them; Q21506450 is an item
(the class "military unit size class"), not a property, as in the benchmark's own pair name."""

from __future__ import annotations

LABELS: dict[str, str] = {
    "P6": "head of government", "P19": "place of birth", "P17": "country", "P30": "continent",
    "P159": "headquarters location", "P206": "located in or next to body of water",
    "P286": "head coach", "P7779": "military unit", "P8047": "country of registry",
    "Q21506450": "military unit size class",
}


def pair_label(pair: str) -> str:
    """``"P159_P206"`` → ``"headquarters location / ..."``; unknown ids kept as they are."""
    return " / ".join(LABELS.get(part, part) for part in pair.split("_"))


def pair_with_label(pair: str) -> str:
    """``"P159_P206"`` → ``"P159_P206 (headquarters location / ...)"``, or the bare pair."""
    label = pair_label(pair)
    return pair if label == pair.replace("_", " / ") else f"{pair} ({label})"

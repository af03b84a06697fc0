"""Implicature types from the released ``type_labels.csv``: each test example is generalised,
particularised or other (``RULE``: matched by context utterance as do-pigs-fly
``src/error_analysis.py`` does; other labels and unlisted examples are ``other``)."""

from __future__ import annotations

import csv
from collections.abc import Iterable, Mapping
from pathlib import Path

TYPE_FILE = "type_labels.csv"
TYPES = ("generalised", "particularised", "other")
RULE = ("from the released type_labels.csv, matched by context utterance (carriage returns removed, "
        "whitespace stripped) as do-pigs-fly's get_type_labels matches them; its other labels (idiom, world "
        "knowledge, rhetorical question, hyperbole) and test examples it does not list count as other")
COLUMNS = ("Utterance", "Response", "Implicature", "Type")


def _key(utterance: str) -> str:
    return utterance.replace("\r", "").strip()


def load_type_labels(path: str | Path) -> dict[str, str]:
    """{utterance key: the file's own type label} from ``type_labels.csv``."""
    path = Path(path)
    with path.open(newline="", encoding="utf-8") as fh:
        reader = csv.DictReader(fh)
        if reader.fieldnames is None or tuple(reader.fieldnames[:4]) != COLUMNS:
            raise ValueError(f"{path}: header {reader.fieldnames!r}, expected {','.join(COLUMNS)},...")
        return {_key(row["Utterance"]): row["Type"].strip() for row in reader}


def coarse(label: str | None) -> str:
    """generalised | particularised | other, from a file label (None: not in the file)."""
    low = (label or "").lower()
    return low if low in ("generalised", "particularised") else "other"


def types_of(items: Iterable[Mapping], data_dir: str | Path) -> dict[str, str] | None:
    """{example_id: coarse type} for the items' test examples; None without ``type_labels.csv``."""
    path = Path(data_dir) / TYPE_FILE
    if not path.is_file():
        return None
    labels = load_type_labels(path)
    return {it["example_id"]: coarse(labels.get(_key(it["utterance"]))) for it in items}

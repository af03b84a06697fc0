"""Parse RADD benchmark JSONL rows into `RaddInstance`s (the prompt by `logic/radd/parse.py`).
Nothing is skipped silently: a row that fits no phrasing raises `RaddParseError` naming its line.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any, Iterator

from ambit.logic.radd.instance import RaddInstance, RaddParseError
from ambit.logic.radd.parse import parse_prompt
from ambit.logic.radd.phrasings import PROMPT_STYLES

__all__ = ["iter_jsonl", "load_jsonl", "parse_prompt", "parse_row"]


def parse_row(row: dict[str, Any], source: str | None = None) -> RaddInstance:
    """A benchmark row as an instance; the label must name the option that spells it out."""
    messages = row.get("messages")
    if not messages or not isinstance(messages[0], str):
        raise RaddParseError("row has no messages[0]")
    inst = parse_prompt(messages[0], source=source)
    if style := row.get("prompt_style"):
        if style != inst.prompt_style and messages[1:] != PROMPT_STYLES.get(style, [None])[1:]:
            raise RaddParseError(f"prompt_style {style!r} does not match the prompt's instruction")
    label_nr, label_name = row.get("label_nr"), row.get("label_name")
    if label_nr is not None:
        label_nr = int(label_nr)
        reading = next((o.reading for o in inst.options if o.number == label_nr), None)
        if reading is None or (label_name is not None and label_name != reading):
            raise RaddParseError(f"label {label_nr}/{label_name} disagrees with the options' readings")
        label_name = reading
    return replace(inst, label_nr=label_nr, label_name=label_name)


def iter_jsonl(path: str | Path) -> Iterator[tuple[RaddInstance, dict[str, Any]]]:
    """(instance, raw row) per line, read through the bounded reader (`ambit._files`)."""
    from ambit import _files

    path = Path(path)

    def refuse(number: int, why: str) -> bool:
        raise RaddParseError(f"{path}:{number}: {why}")

    for where, row in _files.iter_json_rows(path, set_aside=refuse):
        if not isinstance(row, dict):
            raise RaddParseError(f"{where}: a line must be a JSON object")
        try:
            yield parse_row(row, source=where), row
        except (RaddParseError, KeyError, TypeError, ValueError) as e:
            raise RaddParseError(f"{where}: {e}") from e


def load_jsonl(path: str | Path) -> list[RaddInstance]:
    return [inst for inst, _ in iter_jsonl(path)]

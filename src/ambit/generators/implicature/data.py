"""The conversational-implicature CSVs (Ruis et al. 2023 / LUDWIG) as typed examples, labelled
as do-pigs-fly's `_filter_examples` does. Unlike the original, which drops a row with no label,
we raise: every released row has one, so a miss means a changed or broken file.
"""

from __future__ import annotations

import csv
from dataclasses import dataclass
from pathlib import Path

COLUMNS = ("Context utterance", "Response utterance", "Implicature")
LABELS = ("yes", "no")


class ImplicatureDataError(ValueError):
    """A data or template file that does not parse; the message names the file and row."""


@dataclass(frozen=True)
class Example:
    """One utterance/response pair; `row` is the 0-based data row (header excluded)."""

    row: int
    utterance: str
    response: str
    label: str  # "yes" | "no"
    implicature: str  # the annotators' free text the label comes from


def label_of(implicature: str) -> str | None:
    """The yes/no label of an implicature text ("yes" in its first five characters, else "no" in
    its first four, lower-cased), or None."""
    lowered = implicature.lower()
    return "yes" if "yes" in lowered[:5] else "no" if "no" in lowered[:4] else None


def clean_turn(text: str) -> str:
    """Line breaks off both ends (spaces stay), as the original's strip("\\n"); CRLF is read as a
    newline first, which gives what the original gives on the LF copy of the test CSV."""
    return text.replace("\r\n", "\n").strip("\n")


def load_examples(path: str | Path) -> list[Example]:
    """All rows of one implicature CSV, in file order."""
    path = Path(path)
    examples: list[Example] = []
    with path.open(newline="", encoding="utf-8") as handle:
        reader = csv.DictReader(handle)
        try:
            if reader.fieldnames is None or tuple(reader.fieldnames) != COLUMNS:
                raise ImplicatureDataError(f"{path}: header {reader.fieldnames!r}, "
                                           f"expected {','.join(COLUMNS)}")
            for row_index, row in enumerate(reader):
                where = f"{path}: row {row_index} (ending at line {reader.line_num})"
                if None in row or any(row[column] is None for column in COLUMNS):
                    raise ImplicatureDataError(f"{where}: expected 3 fields, got {row!r}")
                label = label_of(row["Implicature"])
                if label is None:
                    raise ImplicatureDataError(f"{where}: implicature {row['Implicature']!r} "
                                               "starts with neither yes nor no")
                examples.append(Example(row=row_index,
                                        utterance=clean_turn(row["Context utterance"]),
                                        response=clean_turn(row["Response utterance"]),
                                        label=label, implicature=row["Implicature"]))
        except csv.Error as error:
            raise ImplicatureDataError(f"{path}: line {reader.line_num}: {error}") from error
    if not examples:
        raise ImplicatureDataError(f"{path}: no data rows")
    return examples

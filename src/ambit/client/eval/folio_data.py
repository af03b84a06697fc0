"""FOLIO stories: reading a split (`<data root>/folio/folio-NAME.jsonl`) into `Story` values.

One line of FOLIO is one example: a story's premises (text and FOL), a conclusion, its label,
and in some releases the conclusion's FOL (`conclusion-FOL`; the public v0.0 train split has
none). Several examples share a `story_id` (the same premises, other conclusions).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from ambit.client.eval.suite import MissingData

ORIGIN = "github.com/Yale-LILY/FOLIO (data/v0.0/folio-NAME.jsonl)"
DATASET = "FOLIO (Han et al., 2022)"
LABELS = ("True", "False", "Uncertain")
# FOLIO spells "Uncertain" as "Unknown" in v0.0; both mean the premises decide nothing
_LABEL = {"true": "True", "false": "False", "uncertain": "Uncertain", "unknown": "Uncertain"}
REQUIRED = ("premises", "premises-FOL", "conclusion", "label", "story_id")


@dataclass(frozen=True)
class Story:
    """One FOLIO example: `id` is unique in its split (the example id, else the line number)."""

    id: str
    story_id: str
    premises: tuple[str, ...]
    premises_fol: tuple[str, ...]
    conclusion: str
    conclusion_fol: str | None
    label: str  # one of LABELS

    @property
    def sentences(self) -> tuple[str, ...]:
        """Premises then the conclusion: what a model translates, in order."""
        return (*self.premises, self.conclusion)

    @property
    def paired(self) -> bool:
        """Whether premise i's formula is premises_fol[i] (a few FOLIO lines pair n sentences
        with m formulas: their sentences are not scored one by one)."""
        return len(self.premises) == len(self.premises_fol)

    @property
    def gold_fol(self) -> tuple[str | None, ...]:
        """The gold formula of each of `sentences` (None: the split has no conclusion FOL, or
        the premises are not paired with their formulas)."""
        prem = self.premises_fol if self.paired else (None,) * len(self.premises)
        return (*prem, self.conclusion_fol)


def split_path(root: Path, split: str) -> Path:
    """Where split NAME lives under the data root."""
    return Path(root) / "folio" / f"folio-{split}.jsonl"


def missing(root: Path, split: str, suite: str = "folio") -> MissingData | None:
    """The MissingData line of an absent split, or None when it is there."""
    path = split_path(root, split)
    if path.exists():
        return None
    return MissingData(suite, (path,), DATASET, ORIGIN.replace("NAME", split), f"folio/folio-{split}.jsonl")


def normalise_label(label: str, where: str) -> str:
    try:
        return _LABEL[str(label).strip().lower()]
    except KeyError:
        raise ValueError(f"{where}: label {label!r} is not one of True, False, Uncertain (Unknown)") from None


def read_split(path: Path) -> list[Story]:
    """Every example of a FOLIO jsonl file, in file order; a malformed line raises ValueError
    naming the file, the line and the field."""
    out: list[Story] = []
    seen: set[str] = set()
    with open(path, encoding="utf-8") as fh:
        for n, line in enumerate(fh, 1):
            if not line.strip():
                continue
            where = f"{path}:{n}"
            try:
                row = json.loads(line)
            except json.JSONDecodeError as e:
                raise ValueError(f"{where}: not JSON ({e.msg} at column {e.colno})") from None
            out.append(story_from_row(row, where, default_id=str(n)))
            if out[-1].id in seen:
                raise ValueError(f"{where}: duplicate example_id {out[-1].id}")
            seen.add(out[-1].id)
    return out


def story_from_row(row: dict, where: str, default_id: str) -> Story:
    """One FOLIO row as a Story (see `read_split` for errors)."""
    if not isinstance(row, dict):
        raise ValueError(f"{where}: a line must be a JSON object")
    for key in REQUIRED:
        if key not in row:
            raise ValueError(f"{where}: missing field {key!r}")
    prem, fol = row["premises"], row["premises-FOL"]
    for key, val in (("premises", prem), ("premises-FOL", fol)):
        if not isinstance(val, list) or not all(isinstance(s, str) for s in val):
            raise ValueError(f"{where}: field {key!r} must be a list of strings")
    conc_fol = row.get("conclusion-FOL")
    if conc_fol is not None and not isinstance(conc_fol, str):
        raise ValueError(f"{where}: field 'conclusion-FOL' must be a string")
    return Story(
        id=str(row.get("example_id", default_id)), story_id=str(row["story_id"]),
        premises=tuple(s.strip() for s in prem), premises_fol=tuple(s.strip() for s in fol),
        conclusion=str(row["conclusion"]).strip(), conclusion_fol=conc_fol.strip() if conc_fol else None,
        label=normalise_label(row["label"], f"{where}: field 'label'"),
    )


def to_row(story: Story) -> dict:
    """A Story back as a FOLIO jsonl row."""
    row = {"story_id": story.story_id, "example_id": story.id, "premises": list(story.premises),
           "premises-FOL": list(story.premises_fol), "conclusion": story.conclusion, "label": story.label}
    if story.conclusion_fol is not None:
        row["conclusion-FOL"] = story.conclusion_fol
    return row

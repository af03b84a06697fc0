"""FOLIO stories: reading a split (`<data root>/folio/folio-NAME.jsonl`) into `Story` values.

One line is one example; several share a story. Files come in three shapes (`SHAPES`), detected
from the first line; without ids, an example's id is its 0-based line number and its story the
rank of its premises among the file's distinct premise lists.
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
REQUIRED = ("premises", "premises-FOL", "conclusion", "label")
SHAPES = ("v0.0", "v0.0-no-ids", "v2")


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
        """Whether premise i's formula is premises_fol[i] (a few FOLIO lines pair n with m)."""
        return len(self.premises) == len(self.premises_fol)

    @property
    def gold_fol(self) -> tuple[str | None, ...]:
        """The gold formula of each of `sentences` (None: absent, or premises not paired)."""
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
    """A FOLIO label as one of LABELS."""
    try:
        return _LABEL[str(label).strip().lower()]
    except KeyError:
        raise ValueError(f"{where}: label {label!r} is not one of True, False, Uncertain (Unknown)") from None


def read_split(path: Path) -> list[Story]:
    """Every example of a FOLIO jsonl file, in file order (ValueError names file, line, field)."""
    return read_split_shaped(path)[0]


def read_split_shaped(path: Path) -> tuple[list[Story], str]:
    """`read_split`, and the file's shape (one of `SHAPES`; every line must have it)."""
    out: list[Story] = []
    seen: set[str] = set()
    shape = None
    stories: dict[tuple[str, ...], str] = {}  # premises → story id, for files without ids
    with open(path, encoding="utf-8") as fh:
        for n, line in enumerate(fh):
            if not line.strip():
                continue
            where = f"{path}:{n + 1}"
            row = _json(line, where)
            this = row_shape(row, where)
            if shape is None:
                shape = this
            elif this != shape:
                raise ValueError(f"{where}: a {this} line in a {shape} file (the first line's shape)")
            story_id = None
            if this == "v0.0-no-ids":
                key = tuple(s.strip() for s in row["premises"])
                story_id = stories.setdefault(key, str(len(stories)))
            out.append(story_from_row(row, where, default_id=str(n), story_id=story_id))
            if out[-1].id in seen:
                raise ValueError(f"{where}: duplicate example_id {out[-1].id}")
            seen.add(out[-1].id)
    return out, shape or "empty"


def split_shape(path: Path) -> str:
    """The shape of a FOLIO jsonl file (one of `SHAPES`), from its first non-blank line."""
    with open(path, encoding="utf-8") as fh:
        for n, line in enumerate(fh, 1):
            if line.strip():
                return row_shape(_json(line, f"{path}:{n}"), f"{path}:{n}")
    return "empty"


def _json(line: str, where: str) -> object:
    try:
        return json.loads(line)
    except json.JSONDecodeError as e:
        raise ValueError(f"{where}: not JSON ({e.msg} at column {e.colno})") from None


def row_shape(row: object, where: str) -> str:
    """`v2` when the premises are one string, else `v0.0` (with `story_id`) or `v0.0-no-ids`."""
    if not isinstance(row, dict):
        raise ValueError(f"{where}: a line must be a JSON object")
    if isinstance(row.get("premises"), str):
        return "v2"
    return "v0.0" if "story_id" in row else "v0.0-no-ids"


def _lines(val: object, key: str, where: str) -> list[str]:
    """A premises field: a list of strings (v0.0), or one newline-separated string (v2)."""
    if isinstance(val, str):
        return [s for s in val.split("\n") if s.strip()]
    if not isinstance(val, list) or not all(isinstance(s, str) for s in val):
        raise ValueError(f"{where}: field {key!r} must be a list of strings or one newline-separated string")
    return val


def story_from_row(row: dict, where: str, default_id: str, story_id: str | None = None) -> Story:
    """One FOLIO row of any shape as a Story (ids from `default_id`, `story_id` where absent)."""
    if not isinstance(row, dict):
        raise ValueError(f"{where}: a line must be a JSON object")
    for key in (*REQUIRED, *(() if story_id is not None else ("story_id",))):
        if key not in row:
            raise ValueError(f"{where}: missing field {key!r}")
    prem, fol = _lines(row["premises"], "premises", where), _lines(row["premises-FOL"], "premises-FOL", where)
    conc_fol = row.get("conclusion-FOL")
    if conc_fol is not None and not isinstance(conc_fol, str):
        raise ValueError(f"{where}: field 'conclusion-FOL' must be a string")
    return Story(
        id=str(row.get("example_id", default_id)), story_id=str(row.get("story_id", story_id)),
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
